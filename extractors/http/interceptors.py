"""axios request interceptors that set the base: `http.interceptors.request.use(cfg => {
cfg.baseURL = API; return cfg; })` or `cfg.url = PREFIX + cfg.url`. The base joins every
call of that instance (or of default axios) and the interceptor's line is a hop."""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.http.urls import Url, parameter_names
from extractors.js.common import FUNCTION_TYPES, arguments, resolve_local, text, unwrap
from extractors.js.index import call_names
from extractors.source import SourceFile

_USE = ".interceptors.request.use"


def axios_interceptors(calls, sf: SourceFile) -> None:
    if b"interceptors" not in sf.data:
        return
    for call, _, dotted in call_names(calls.ctx, sf):
        if not dotted or not dotted.endswith(_USE):
            continue
        args = arguments(call)
        fn = unwrap(args[0]) if args else None
        if fn is None or fn.type not in FUNCTION_TYPES:
            continue
        names = parameter_names(sf, fn)
        found = _base_set(calls, sf, fn, names[0]) if names and names[0] else None
        if found is None:
            continue
        base, node = found
        line = node.start_point[0] + 1
        hop = [f"{sf.rel}:{line}"]
        base.via.add("interceptor")
        if base.origin is None:  # a literal written in the interceptor: its setting is here
            left = text(sf, node.child_by_field_name("left")).replace(" ", "")
            at = (sf.rel, line, node.start_byte)
            base.named(base.base_name or left, at)
            calls.out.bases.name(at, left, "API base URL set by an axios request interceptor")
        head = dotted[: -len(_USE)]
        root = calls.client_root(sf, head)
        if root:
            calls.defaults[root] = base
            calls.default_hops[root] = hop
            continue
        where = resolve_local(calls.ctx, sf.rel, head)
        client = calls.instances.get(f"{where[0]}#{where[1]}") if where else None
        if client is not None:
            client.base, client.via, client.hops = base, "interceptor", hop


def _base_set(calls, sf: SourceFile, fn, cfg: str) -> tuple[Url, TsNode] | None:
    """The base the interceptor sets on its config parameter, and the assignment doing so."""
    stack = [fn.child_by_field_name("body")]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.type == "assignment_expression":
            left = text(sf, node.child_by_field_name("left")).replace(" ", "")
            url = calls.eval.js(sf, node.child_by_field_name("right"))
            if left == f"{cfg}.baseURL" and url is not None and not url.starts_with_param:
                return url, node
            if left == f"{cfg}.url" and url is not None and url.parts[-1:] == [("param", "url")]:
                head = Url(url.parts[:-1], set(url.via), url.base_end, url.base_name, url.origin)
                head.base_end = min(head.base_end, len(head.parts))
                if head.parts and not any(k == "param" for k, _ in head.parts):
                    return head, node
        stack.extend(c for c in node.named_children if c.type not in FUNCTION_TYPES)
    return None
