"""Express: routes with their full mounted path, handler and ordered middleware.

Finds `express()` apps and `express.Router()` / `Router()` routers (any scope), then every
`X.get/post/put/patch/delete/options/head/all/use(...)` on them, `X.route('/p').get(..)`
chains, and `X.use(prefix, router)` mounts across files (routers and path constants are
resolved through imports). Routes are emitted by walking from each root (an app, or a router
nobody mounts) so `apiRouter.use('/jp', contactRouter)` + `app.use('/api', apiRouter)`
gives `POST /api/jp/contact`.

route node: qualifier and name `METHOD /full/path` (Express `:id` syntax; `ALL` for `.all`),
file:line of the registration, attrs `method`, `path`, `framework="express"`, `router`
(`<rel>#<name>` where it was registered). ROUTES_TO → handler symbol (an `<anonymous>` symbol
for inline functions). USES_MIDDLEWARE → middleware node, attr `order` (1-based: app-level
`use` before the route first, outermost mount first, then the route's own).
middleware node: qualifier = symbol qualifier (`<rel>#rateLimit`) when it resolves to code in
the component, else the callee as written (`helmet`, `express.json`); file:line of its
definition when resolvable, else of its first `use`; attrs `package` (npm package it comes
from, also through `const rateLimit = expressRateLimit(...)`), `symbol` (node id).
Catalog rows `middleware` for every package-backed middleware (name = package).
Provides `ctx.shared.express` (ExpressApps: "<rel>#<name>" → route node ids) for firebase.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.js.common import (
    FUNCTION_TYPES,
    arguments,
    dotted_name,
    js_files,
    lookup_symbol,
    modules,
    package_of,
    resolve_const,
    resolve_local,
    string_value,
    text,
    unwrap,
)
from extractors.js.index import file_index
from extractors.js.model import ModuleInfo
from extractors.shared import CodeSymbols, ExpressApps, JsSymbols
from extractors.source import SourceFile

NAME = "express"
PROVIDES = (ExpressApps, CodeSymbols)
REQUIRES = (JsSymbols,)
METHODS = {"get", "post", "put", "patch", "delete", "options", "head", "all"}
MAX_DEPTH = 16


@dataclass
class Entry:
    order: tuple[str, int]
    kind: str  # "route" | "use" | "mount"
    rel: str
    line: int
    method: str = ""
    path: str = ""
    middleware: list[tuple[str, str, int]] = field(default_factory=list)  # (mw id, rel, line)
    handler: str | None = None
    child: str | None = None


def extract(ctx: ComponentContext) -> None:
    mods = modules(ctx)
    routers: dict[str, str] = {}  # "<rel>#<name>" -> "app" | "router"
    for sf in js_files(ctx):
        mod = mods.get(sf.rel)
        if mod is None or b"express" not in sf.data and b"Router" not in sf.data:
            continue
        for name, values in file_index(ctx, sf).decls.items():
            for value in values:
                kind = _router_kind(ctx, mod, unwrap(value))
                if kind:
                    routers[f"{sf.rel}#{name}"] = kind
    if not routers:
        return
    state = _State(ctx, routers)
    defining = {key.split("#", 1)[0] for key in routers}
    for sf in js_files(ctx):
        mod = mods.get(sf.rel)
        if mod is not None and (sf.rel in defining or _imports_router(ctx, mod, routers)):
            state.scan(mod)
    _emit(state)


def _imports_router(ctx, mod: ModuleInfo, routers: dict[str, str]) -> bool:
    for name, binding in mod.imports.items():
        if binding.target and binding.imported != "*":
            found = resolve_local(ctx, mod.rel, name)
            if found and f"{found[0]}#{found[1]}" in routers:
                return True
    return False


def _router_kind(ctx, mod: ModuleInfo, value: TsNode | None) -> str | None:
    if value is None or value.type not in {"call_expression", "new_expression"}:
        return None
    field_name = "function" if value.type == "call_expression" else "constructor"
    callee = dotted_name(mod.sf, value.child_by_field_name(field_name))
    if callee is None:
        return None
    root = callee.split(".")[0]
    package = package_of(ctx, mod.rel, root)
    if package not in (None, "express") or (package is None and root != "express"):
        return None
    if callee in {"express", "express.default"}:
        return "app"
    if callee in {"express.Router", "Router"}:
        return "router"
    return None


class _State:
    def __init__(self, ctx: ComponentContext, routers: dict[str, str]):
        self.ctx = ctx
        self.routers = routers
        self.entries: dict[str, list[Entry]] = {key: [] for key in routers}
        self.mounted: set[str] = set()
        self.middleware: dict[str, str] = {}  # qualifier -> node id
        self.seen: set[str] = set()  # route qualifiers taken
        self.nodes = {n.id: n for n in ctx.facts.nodes if n.kind == "symbol"}

    def router_key(self, mod: ModuleInfo, node: TsNode | None) -> str | None:
        node = unwrap(node)
        if node is None or node.type != "identifier":
            return None
        found = resolve_local(self.ctx, mod.rel, text(mod.sf, node))
        key = f"{found[0]}#{found[1]}" if found else None
        return key if key in self.routers else None

    def path_of(self, mod: ModuleInfo, node: TsNode | None) -> str | None:
        node = unwrap(node)
        value = string_value(mod.sf, node)
        if value is not None or node is None:
            return value
        if node.type == "identifier":
            found = resolve_const(self.ctx, mod.rel, text(mod.sf, node))
            return string_value(found[0], unwrap(found[1])) if found else None
        return None

    def scan(self, mod: ModuleInfo) -> None:
        sf = mod.sf
        for call in file_index(self.ctx, sf).calls:
            fn = call.child_by_field_name("function")
            if call.type != "call_expression" or fn is None or fn.type != "member_expression":
                continue
            prop = text(sf, fn.child_by_field_name("property"))
            if prop in METHODS or prop == "use":
                self.registration(mod, call, prop)

    def registration(self, mod: ModuleInfo, call: TsNode, prop: str) -> None:
        sf, line = mod.sf, SourceFile.line(call)
        obj = unwrap(call.child_by_field_name("function").child_by_field_name("object"))
        route_path = None
        while obj is not None and obj.type == "call_expression":  # router.route('/x').get().post()
            inner = obj.child_by_field_name("function")
            inner_prop = (
                inner.child_by_field_name("property") if inner.type == "member_expression" else None
            )
            name = text(sf, inner_prop)
            if name == "route":
                route_path = self.path_of(mod, (arguments(obj) or [None])[0])
                route_path = route_path if route_path is not None else "<dynamic>"
            elif name not in METHODS:
                return
            obj = unwrap(inner.child_by_field_name("object"))
        key = self.router_key(mod, obj)
        if key is None:
            return
        args = arguments(call)
        order = (mod.rel, call.start_byte)
        path = route_path
        if path is None and args:
            path = self.path_of(mod, args[0])
            if path is not None:
                args = args[1:]
            elif prop != "use":
                self.ctx.unresolved(mod.rel, line, "route", text(sf, args[0]), "dynamic route path")
                path = "<dynamic>"
                args = args[1:]
        if prop == "use":
            self.use(mod, key, order, line, path or "", args)
            return
        if not args:
            return
        handler = self.handler(mod, args[-1])
        middleware = [m for a in args[:-1] for m in self.middleware_of(mod, a)]
        self.entries[key].append(
            Entry(order, "route", mod.rel, line, prop.upper(), path or "/", middleware, handler)
        )

    def use(self, mod, key, order, line, prefix: str, args: list[TsNode]) -> None:
        for arg in args:
            child = self.router_key(mod, arg)
            if child is not None:
                self.mounted.add(child)
                self.entries[key].append(
                    Entry(order, "mount", mod.rel, line, path=prefix, child=child)
                )
                continue
            for mw in self.middleware_of(mod, arg):
                self.entries[key].append(
                    Entry(order, "use", mod.rel, line, path=prefix, middleware=[mw])
                )

    def handler(self, mod: ModuleInfo, node: TsNode) -> str | None:
        node = unwrap(node)
        sf = mod.sf
        if node is None:
            return None
        if node.type in FUNCTION_TYPES:
            return mod.anonymous.get(node.start_byte) or self.anonymous(mod, node)
        if node.type == "call_expression" and arguments(node):  # asyncHandler(ctrl.fn)
            inner = unwrap(arguments(node)[-1])
            if inner is not None and (inner.type in FUNCTION_TYPES or dotted_name(sf, inner)):
                return self.handler(mod, inner)
        dotted = dotted_name(sf, node)
        found = lookup_symbol(self.ctx, mod.rel, dotted) if dotted else None
        if found is None:
            self.ctx.unresolved(
                mod.rel,
                SourceFile.line(node),
                "handler",
                text(sf, node),
                "handler not found in the component",
            )
        return found

    def anonymous(self, mod: ModuleInfo, fn: TsNode) -> str:
        line, col = fn.start_point[0] + 1, fn.start_point[1] + 1
        node_id = self.ctx.add_node(
            "symbol", f"{mod.rel}#<anonymous>@{line}:{col}", "<anonymous>", mod.rel, line,
            SourceFile.end_line(fn), exported=False, symbol_kind="anonymous",
        )  # fmt: skip
        self.ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, line)
        mod.anonymous[fn.start_byte] = node_id
        return node_id

    def middleware_of(self, mod: ModuleInfo, node: TsNode) -> list[tuple[str, str, int]]:
        node = unwrap(node)
        sf = mod.sf
        if node is None:
            return []
        line = SourceFile.line(node)
        if node.type == "array":
            return [m for item in node.named_children for m in self.middleware_of(mod, item)]
        if node.type in FUNCTION_TYPES:
            symbol = self.handler(mod, node)
            return [
                (
                    self.mw_node(
                        mod, f"<anonymous>@{mod.rel}:{line}", "<anonymous>", symbol, None, line
                    ),
                    mod.rel,
                    line,
                )
            ]
        if node.type == "call_expression":
            callee = dotted_name(sf, node.child_by_field_name("function"))
            if callee is None:
                return []
            symbol = lookup_symbol(self.ctx, mod.rel, callee)
            package = package_of(self.ctx, mod.rel, callee.split(".")[0])
            return [(self.mw_node(mod, callee, callee, symbol, package, line), mod.rel, line)]
        dotted = dotted_name(sf, node)
        if dotted is None:
            return []
        symbol = lookup_symbol(self.ctx, mod.rel, dotted)
        package = package_of(self.ctx, mod.rel, dotted.split(".")[0]) or self.wrapped_package(
            mod, dotted
        )
        return [(self.mw_node(mod, dotted, dotted, symbol, package, line), mod.rel, line)]

    def wrapped_package(self, mod: ModuleInfo, name: str) -> str | None:
        """`const rateLimit = expressRateLimit({...})` → express-rate-limit."""
        found = resolve_const(self.ctx, mod.rel, name) if "." not in name else None
        value = unwrap(found[1]) if found else None
        if value is None or value.type != "call_expression":
            return None
        callee = dotted_name(found[0], value.child_by_field_name("function"))
        return package_of(self.ctx, found[0].rel, callee.split(".")[0]) if callee else None

    def mw_node(
        self, mod, qualifier: str, name: str, symbol: str | None, package, line: int
    ) -> str:
        defined = self.nodes.get(symbol) if symbol else None
        if defined is not None:
            qualifier = defined.id.split(":symbol:", 1)[1]
        if qualifier in self.middleware:
            return self.middleware[qualifier]
        file, at = (defined.file, defined.line) if defined else (mod.rel, line)
        attrs = {k: v for k, v in {"package": package, "symbol": symbol}.items() if v}
        node_id = self.ctx.add_node("middleware", qualifier, name, file, at, **attrs)
        self.middleware[qualifier] = node_id
        if package:
            label = name if package == "express" else package  # express.json, express.static
            self.ctx.facts.catalog.append(
                CatalogRow(
                    "middleware",
                    self.ctx.project,
                    self.ctx.component,
                    label,
                    file,
                    at,
                    {"middleware": name, "package": package},
                )
            )
        return node_id


def _emit(state: _State) -> None:
    apps = state.ctx.shared.express.apps
    roots = [k for k in sorted(state.routers) if k not in state.mounted]
    for root in roots:
        apps[root] = []
        _walk(state, root, "", [], 0, apps[root], (root,))


def _walk(
    state: _State, key: str, prefix: str, inherited: list, depth: int, out: list[str], stack: tuple
) -> None:
    if depth > MAX_DEPTH:
        return
    active = list(inherited)  # (mw id, rel, line, scope path)
    for entry in sorted(state.entries[key], key=lambda e: e.order):
        full = join_path(prefix, entry.path)
        if entry.kind == "use":
            active += [(*m, full) for m in entry.middleware]
        elif entry.kind == "mount" and entry.child and entry.child not in stack:
            applies = [m for m in active if _under(full, m[3])]
            _walk(state, entry.child, full, applies, depth + 1, out, (*stack, entry.child))
        elif entry.kind == "route":
            chain = [m for m in active if _under(full, m[3])]
            chain += [(*m, full) for m in entry.middleware]
            out.append(_route(state, key, entry, full, chain))


def _route(state: _State, key: str, entry: Entry, full: str, chain: list) -> str:
    name = f"{entry.method} {full}"
    qualifier = name if name not in state.seen else f"{name}@{entry.rel}:{entry.line}"
    state.seen.add(qualifier)
    node_id = state.ctx.add_node(
        "route", qualifier, name, entry.rel, entry.line, entry.line,
        method=entry.method, path=full, framework="express", router=key,
    )  # fmt: skip
    if entry.handler:
        state.ctx.add_edge(node_id, entry.handler, "ROUTES_TO", entry.rel, entry.line)
    for order, (mw, rel, line, _) in enumerate(chain, start=1):
        state.ctx.add_edge(node_id, mw, "USES_MIDDLEWARE", rel, line, order=order)
    return node_id


def join_path(prefix: str, path: str) -> str:
    prefix = prefix.rstrip("/")
    path = path or "/"
    if path == "/":
        return prefix or "/"
    return prefix + (path if path.startswith("/") else "/" + path)


def _under(path: str, scope: str) -> bool:
    scope = scope.rstrip("/")
    return not scope or path == scope or path.startswith(scope + "/")
