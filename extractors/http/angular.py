"""Angular `HttpClient`: the properties that hold it (a constructor parameter typed
`HttpClient`, or a field `= inject(HttpClient)`) and the base an interceptor prefixes.

The registration order is a `setting` too (`withInterceptors([a, b])`, or the
`{ provide: HTTP_INTERCEPTORS, useClass: X }` providers of a file in source order): the order
the interceptors see each request.

An interceptor that rewrites the URL as `req.clone({ url: <base> + req.url })` (functional
`HttpInterceptorFn` registered with `withInterceptors([...])`, or a class registered under
`HTTP_INTERCEPTORS`) puts `<base>` in front of every HttpClient call of the component: the
base becomes part of each call's template and the interceptor's line is a hop.
"""

from __future__ import annotations

from dataclasses import dataclass

from extractors.http.summaries import site_line
from extractors.http.urls import ANGULAR_ENV, Url
from extractors.js.common import (
    arguments,
    lookup_symbol,
    modules,
    object_props,
    owner_at,
    package_of,
    string_value,
    text,
    unwrap,
)
from extractors.js.index import call_names
from extractors.source import SourceFile

PACKAGE = "@angular/common"  # package of `@angular/common/http`
VERBS = {"get", "post", "put", "patch", "delete", "head", "options", "jsonp", "request"}
_REGISTRIES = (b"withInterceptors", b"HTTP_INTERCEPTORS")


@dataclass
class Interceptor:
    base: Url
    hop: str  # "rel:line" of the rewrite


class AngularHttp:
    def __init__(self, ctx, evaluator, bases):
        self.ctx = ctx
        self.eval = evaluator
        self.bases = bases  # BaseSettings: the interceptor's base is a setting at its line
        self._props: dict[str, set[str]] = {}
        self._interceptor: Interceptor | None | bool = False

    def props(self, sf: SourceFile) -> set[str]:
        """Names of the `this.<name>` properties holding an HttpClient in this file."""
        found = self._props.get(sf.rel)
        if found is not None:
            return found
        found = self._props[sf.rel] = set()
        if b"HttpClient" not in sf.data or package_of(self.ctx, sf.rel, "HttpClient") != PACKAGE:
            return found
        stack = [sf.tree.root_node]
        while stack:
            node = stack.pop()
            if node.type in {"required_parameter", "optional_parameter"}:
                name = node.child_by_field_name("pattern")
                kind = node.child_by_field_name("type")
                if name is not None and kind is not None and text(sf, kind).endswith("HttpClient"):
                    found.add(text(sf, name))
            elif node.type == "public_field_definition":
                name = node.child_by_field_name("name")
                value = node.child_by_field_name("value")
                if (
                    name is not None
                    and value is not None
                    and (text(sf, value).replace(" ", "") == "inject(HttpClient)")
                ):
                    found.add(text(sf, name))
            stack.extend(node.named_children)
        return found

    def interceptor(self) -> Interceptor | None:
        """The one registered URL-rewriting interceptor of the component (None if several)."""
        if self._interceptor is not False:
            return self._interceptor  # type: ignore[return-value]
        registries = [m.sf.data for m in modules(self.ctx).values() if _registers(m.sf.data)]
        found: list[Interceptor] = []
        for mod in modules(self.ctx).values():
            sf = mod.sf
            if b".clone(" not in sf.data or b"url" not in sf.data:
                continue
            for call, _, dotted in call_names(self.ctx, sf):
                if not dotted or not dotted.endswith(".clone") or dotted.count(".") != 1:
                    continue
                args = arguments(call)
                props = object_props(sf, args[0]) if args and args[0].type == "object" else {}
                url = self.eval.js(sf, props["url"]) if "url" in props else None
                base = _prefix(url)
                owner = owner_at(self.ctx, sf.rel, call).rsplit("#", 1)[-1].split(".")[0]
                if base is not None and any(owner.encode() in data for data in registries):
                    at = (sf.rel, site_line(call), call.start_byte)
                    base.named(f"interceptor {owner}", at)
                    about = f"API base URL of every HttpClient request (interceptor {owner})"
                    self.bases.name(at, "url", about)
                    found.append(Interceptor(base, f"{sf.rel}:{site_line(call)}"))
        self._interceptor = found[0] if len(found) == 1 else None
        return self._interceptor


def _registers(data: bytes) -> bool:
    return any(key in data for key in _REGISTRIES)


def _prefix(url: Url | None) -> Url | None:
    """`<base>` of `<base> + req.url` (the request's own URL last, nothing after it)."""
    if url is None or not url.parts or url.parts[-1] != ("param", "url"):
        return None
    head = url.parts[:-1]
    if not head or any(k == "param" for k, _ in head):
        return None
    return Url(list(head), set(url.via) | {"interceptor"})


def environment_values(ctx) -> None:
    """One `config_value` node per `environment.<key>` of the Angular environment files, with
    its value per file (`environment.ts`, `environment.prod.ts`, ...): the bridge reads each
    file as a build configuration."""
    found: dict[str, dict[str, str]] = {}
    where: dict[str, tuple[str, int]] = {}
    for rel, mod in sorted(modules(ctx).items()):
        value = unwrap(mod.consts.get("environment")) if ANGULAR_ENV.search(rel) else None
        if value is None or value.type != "object":
            continue
        for key, node in object_props(mod.sf, value).items():
            literal = string_value(mod.sf, node)
            if literal is None:
                continue
            found.setdefault(key, {})[rel] = literal
            if key not in where or rel.endswith("/environment.ts"):
                where[key] = (rel, node.start_point[0] + 1)
    for key, values in sorted(found.items()):
        name = f"environment.{key}"
        ctx.add_node("config_value", name, name, *where[key], values=values, source="angular")


def interceptor_order(ctx) -> None:
    """One `setting` per interceptor registration, its value the interceptors in order."""
    for rel, mod in sorted(modules(ctx).items()):
        sf = mod.sf
        if not _registers(sf.data):
            continue
        for call, _, dotted in call_names(ctx, sf):
            args = arguments(call)
            listed = unwrap(args[0]) if args else None
            if dotted != "withInterceptors" or listed is None or listed.type != "array":
                continue
            if package_of(ctx, rel, "withInterceptors") == PACKAGE:
                names = [text(sf, e) for e in listed.named_children if e.type != "comment"]
                _order(ctx, mod, call, "withInterceptors", names)
        providers = []
        stack = [sf.tree.root_node] if b"HTTP_INTERCEPTORS" in sf.data else []
        while stack:
            node = stack.pop()
            props = object_props(sf, node) if node.type == "object" else {}
            if text(sf, props.get("provide")) == "HTTP_INTERCEPTORS" and "useClass" in props:
                providers.append((node.start_byte, node, text(sf, props["useClass"])))
            stack.extend(node.named_children)
        if providers:
            providers.sort(key=lambda p: p[0])
            _order(ctx, mod, providers[0][1], "HTTP_INTERCEPTORS", [p[2] for p in providers])


def _order(ctx, mod, node, name: str, names: list[str]) -> None:
    line = node.start_point[0] + 1
    symbols = [s for s in (lookup_symbol(ctx, mod.rel, n) for n in names) if s]
    node_id = ctx.add_node(
        "setting", f"{mod.rel}:{line}:{name}", name, mod.rel, line,
        value=", ".join(names), about="HttpClient interceptors in order", source="angular",
        interceptors=symbols,
    )  # fmt: skip
    ctx.add_edge(mod.file_id, node_id, "DECLARES", mod.rel, line)
    owner = mod.enclosing(node.start_byte)
    if owner != mod.file_id:
        ctx.add_edge(owner, node_id, "DECLARES", mod.rel, line)
