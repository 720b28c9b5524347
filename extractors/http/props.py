"""A request function handed around by name and called later: `props.pager(page)`, where
elsewhere a function that makes requests is passed as the `pager` argument
(`onTabClick('feed', agent.Articles.feed)` with `onTabClick: (tab, pager) => ...`).

Which function runs is decided at run time (store state, props), so the call gets an
`unresolved` row naming the functions seen passed under that name and where; never an
http_call or an edge.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.http.dyncallee import member_symbol, reaching_http
from extractors.http.urls import parameter_names
from extractors.js.common import FUNCTION_TYPES, arguments, modules, object_props, text, unwrap
from extractors.js.index import call_names
from extractors.source import SourceFile

_PROPS = ("props.", "this.props.")


def _prop_name(dotted: str | None) -> str | None:
    for head in _PROPS:
        if dotted and dotted.startswith(head) and "." not in dotted[len(head) :]:
            return dotted[len(head) :]
    return None


def _handler_params(sf: SourceFile, name: str, cache: dict) -> list[str]:
    """Parameters of `name: (a, b) => ...` declared in this file (a mapDispatchToProps-style
    object member that the prop call reaches)."""
    key = (sf.rel, name)
    if key not in cache:
        cache[key] = []
        stack = [sf.tree.root_node]
        while stack and not cache[key]:
            node = stack.pop()
            if node.type == "object" and name.encode() in (node.text or b""):
                value = unwrap(object_props(sf, node).get(name))
                if value is not None and value.type in FUNCTION_TYPES:
                    cache[key] = parameter_names(sf, value)
                    break
            stack.extend(node.named_children)
    return cache[key]


def prop_functions(calls) -> None:
    ctx = calls.ctx
    http = reaching_http(ctx)
    passed: dict[str, list[str]] = {}  # parameter name -> "ref (rel:line)"
    cache: dict = {}
    mods = sorted(modules(ctx).items())
    for rel, mod in mods:
        if b"props" not in mod.sf.data:
            continue
        for call, _, dotted in call_names(ctx, mod.sf):
            handler = _prop_name(dotted)
            args = arguments(call) if handler else []
            refs = [(i, a) for i, a in enumerate(args) if a.type == "member_expression"]
            for i, arg in refs:
                ref = text(mod.sf, arg)
                if member_symbol(ctx, rel, ref) not in http:
                    continue
                params = _handler_params(mod.sf, handler, cache)
                if i < len(params) and params[i]:
                    line = SourceFile.line(arg)
                    passed.setdefault(params[i], []).append(f"{ref} ({rel}:{line})")
    if not passed:
        return
    for _rel, mod in mods:
        for call, _, dotted in call_names(ctx, mod.sf):
            name = _prop_name(dotted)
            if name in passed and call.type == "call_expression":
                _report(calls, mod.sf, call, name, passed[name])


def _report(calls, sf: SourceFile, call: TsNode, name: str, seen: list[str]) -> None:
    shown = ", ".join(dict.fromkeys(seen[:4]))
    more = f" and {len(seen) - 4} more" if len(seen) > 4 else ""
    calls.out.dynamic(
        sf.rel, SourceFile.line(call), text(sf, call),
        f"calls the function passed as `{name}`, chosen at run time: {shown}{more}",
    )  # fmt: skip
