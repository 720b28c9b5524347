"""FastAPI and Flask routes: route nodes, ROUTES_TO handler, USES_MIDDLEWARE (with order).

Apps and routers are variables assigned `FastAPI(...)`, `APIRouter(prefix=...)`,
`Flask(...)`, `Blueprint(name, __name__, url_prefix=...)` anywhere in a file (also inside
`create_app()`). Mounts are followed across files through imports:
`app.include_router(orders.router, prefix="/v1")`, `app.register_blueprint(bp,
url_prefix="/admin")` (a registration prefix replaces the blueprint's own, as in Flask).
A route's name is `METHOD /full/path` with the framework's own params (`{order_id}`,
`<int:report_id>`); attrs `method`, `path`, `framework`, `mounted` (false when its router
is never mounted on an app, so the path lacks the mount prefixes).

Middleware, in run order: Starlette `app.add_middleware(X)`, `dependencies=[Depends(f)]`
of the app, the include_router call, the router and the decorator, then the handler's
parameter `Depends(f)`; Flask `before_request` of the app, then of the blueprint.
Needs `python` to have run (reads `py.modules`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext, SourceFile, captures
from extractors.facts import CatalogRow
from extractors.py_index import call_args, py_captures
from extractors.python import PyModule, string_value, text

NAME = "python_routes"
_CONSTRUCTORS = {"FastAPI": "app", "APIRouter": "router", "Flask": "app", "Blueprint": "router"}
_FRAMEWORK = {"FastAPI": "fastapi", "APIRouter": "fastapi", "Flask": "flask", "Blueprint": "flask"}
_VERBS = {"get", "post", "put", "patch", "delete", "options", "head"}
_DEPENDS = {"Depends", "Security", "fastapi.Depends", "fastapi.Security"}


@dataclass
class Mw:
    name: str
    rel: str
    line: int
    kind: str
    symbol: str | None = None


@dataclass
class Obj:
    rel: str
    var: str
    kind: str  # app | router
    framework: str
    prefix: str
    line: int
    mws: list[Mw] = field(default_factory=list)
    parents: list[tuple[tuple[str, str], str | None, list[Mw]]] = field(default_factory=list)


class Routes:
    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.mods: dict[str, PyModule] = ctx.shared.get("py.modules", {})
        self.resolve = ctx.shared.get("py.resolve")
        self.symbol = ctx.shared.get("py.symbol")
        self.objs: dict[tuple[str, str], Obj] = {}
        self.mw_nodes: dict[str, str] = {}
        self.pending: list[tuple] = []
        self._ids: set[str] = set()  # ids of ctx.facts.nodes[: self._ids_len]
        self._ids_len = 0

    def obj(self, rel: str, expr: str) -> Obj | None:
        found = self.resolve(rel, expr) if self.resolve else None
        return self.objs.get(found) if found else None

    def mw(self, mod: PyModule, node: TsNode, kind: str) -> Mw:
        name = text(mod.sf, node)
        sym = (
            self.symbol(mod.rel, name)
            if self.symbol and node.type in {"identifier", "attribute"}
            else None
        )
        return Mw(name.rsplit(".", 1)[-1], mod.rel, SourceFile.line(node), kind, sym)

    def deps(self, mod: PyModule, value: TsNode | None, kind: str) -> list[Mw]:
        out = []
        for item in value.named_children if value is not None and value.type == "list" else []:
            fn = item.child_by_field_name("function") if item.type == "call" else None
            if fn is not None and text(mod.sf, fn) in _DEPENDS:
                pos, kw = call_args(mod.sf, item)
                target = pos[0] if pos else kw.get("dependency")
                if target is not None:
                    out.append(self.mw(mod, target, kind))
        return out

    # pass 1: apps, routers, blueprints
    def find_objects(self) -> None:
        for mod in self.mods.values():
            for node in py_captures(self.ctx, mod.sf, "assign_calls", "a"):
                call = node.child_by_field_name("right")
                ctor = text(mod.sf, call.child_by_field_name("function")).rsplit(".", 1)[-1]
                if ctor not in _CONSTRUCTORS:
                    continue
                pos, kw = call_args(mod.sf, call)
                prefix = string_value(mod.sf, kw.get("prefix") or kw.get("url_prefix")) or ""
                var = text(mod.sf, node.child_by_field_name("left"))
                obj = Obj(
                    mod.rel,
                    var,
                    _CONSTRUCTORS[ctor],
                    _FRAMEWORK[ctor],
                    prefix,
                    SourceFile.line(node),
                )
                obj.mws = self.deps(mod, kw.get("dependencies"), "dependency")
                self.objs[(mod.rel, var)] = obj
                self.ctx.shared.setdefault("stack", set()).add(obj.framework)

    # pass 2: mounts and app/blueprint-level middleware given as calls
    def find_mounts(self) -> None:
        for mod in self.mods.values():
            sf = mod.sf
            for call in py_captures(self.ctx, sf, "attr_calls", "c"):
                fn = call.child_by_field_name("function")
                method = text(sf, fn.child_by_field_name("attribute"))
                if method not in {
                    "include_router",
                    "add_url_rule",
                    "register_blueprint",
                    "add_middleware",
                    "before_request",
                }:
                    continue
                parent = self.obj(mod.rel, text(sf, fn.child_by_field_name("object")))
                pos, kw = call_args(sf, call)
                if parent is None or not pos:
                    continue
                if method == "add_url_rule":
                    self._url_rule(mod, call, parent, pos, kw)
                    continue
                if method in {"add_middleware", "before_request"}:
                    kind = "asgi_middleware" if method == "add_middleware" else "before_request"
                    parent.mws.insert(
                        0, self.mw(mod, pos[0], kind)
                    ) if kind == "asgi_middleware" else parent.mws.append(
                        self.mw(mod, pos[0], kind)
                    )
                    continue
                child = self.obj(mod.rel, text(sf, pos[0]))
                if child is None:
                    self.ctx.unresolved(
                        mod.rel,
                        SourceFile.line(call),
                        "route_mount",
                        text(sf, call),
                        f"{method}: {text(sf, pos[0])} is not a router/blueprint found in this component",
                    )
                    continue
                prefix_node = (
                    kw.get("prefix") if method == "include_router" else kw.get("url_prefix")
                )
                prefix = string_value(sf, prefix_node) if prefix_node is not None else None
                child.parents.append(
                    (
                        (parent.rel, parent.var),
                        prefix,
                        self.deps(mod, kw.get("dependencies"), "dependency"),
                    )
                )

    def _url_rule(self, mod: PyModule, call: TsNode, obj: Obj, pos: list, kw: dict) -> None:
        """Flask `app.add_url_rule("/x", "endpoint", view_func=fn, methods=[...])`."""
        sf = mod.sf
        path = string_value(sf, pos[0])
        view = kw.get("view_func") or (pos[2] if len(pos) > 2 else None)
        if path is None or view is None:
            return
        handler = self.symbol(mod.rel, text(sf, view)) if self.symbol else None
        methods = _methods(sf, kw.get("methods"))
        where = (mod.rel, SourceFile.line(call), SourceFile.end_line(call))
        self.pending.append((obj, where, path, methods, [], handler))

    def chains(self, obj: Obj, seen: frozenset = frozenset()) -> list[tuple[str, list[Mw], bool]]:
        """(full prefix, middleware in order, mounted on an app) for every way obj is mounted."""
        if obj.kind == "app":
            return [("", list(obj.mws), True)]
        if not obj.parents or (obj.rel, obj.var) in seen:
            return [(obj.prefix, list(obj.mws), False)]
        out = []
        for key, prefix, inc_mws in obj.parents:
            parent = self.objs[key]
            for pprefix, pmws, mounted in self.chains(parent, seen | {(obj.rel, obj.var)}):
                if obj.framework == "flask":
                    full = _join(pprefix, prefix if prefix is not None else obj.prefix)
                else:
                    full = _join(_join(pprefix, prefix or ""), obj.prefix)
                out.append((full, pmws + inc_mws + obj.mws, mounted))
        return out

    # pass 3: decorated handlers
    def find_routes(self) -> None:
        for mod in self.mods.values():
            sf = mod.sf
            for dd in py_captures(self.ctx, sf, "decorated", "d"):
                defn = dd.child_by_field_name("definition")
                if defn is None or defn.type != "function_definition":
                    continue
                for dec in (c for c in dd.children if c.type == "decorator"):
                    self._decorator(
                        mod, dd, defn, dec.named_children[0] if dec.named_children else None
                    )

    def _has_node(self, node_id: str) -> bool:
        """Membership in ctx.facts.nodes, indexed incrementally (nodes are only appended)."""
        nodes = self.ctx.facts.nodes
        if self._ids_len > len(nodes):
            self._ids, self._ids_len = set(), 0
        if self._ids_len < len(nodes):
            self._ids.update(n.id for n in nodes[self._ids_len :])
            self._ids_len = len(nodes)
        return node_id in self._ids

    def _handler(self, mod: PyModule, dd: TsNode, defn: TsNode) -> str:
        name = text(mod.sf, defn.child_by_field_name("name"))
        if name in mod.symbols and mod.symbols[name] == mod.enclosing(defn.start_byte):
            return mod.symbols[name]
        outer = mod.enclosing(dd.start_byte)
        qual = f"{outer.split('#', 1)[1]}.<locals>.{name}" if "#" in outer else name
        node_id = self.ctx.node_id("symbol", f"{mod.rel}#{qual}")
        if not self._has_node(node_id):
            self.ctx.add_node("symbol", f"{mod.rel}#{qual}", qual, mod.rel, SourceFile.line(defn),
                              SourceFile.end_line(dd), exported=False, symbol_kind="function", nested=True)  # fmt: skip
            self.ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, SourceFile.line(defn))
        return node_id

    def _decorator(self, mod: PyModule, dd: TsNode, defn: TsNode, expr: TsNode | None) -> None:
        sf = mod.sf
        if expr is None:
            return
        call = expr if expr.type == "call" else None
        fn = call.child_by_field_name("function") if call is not None else expr
        if fn is None or fn.type != "attribute":
            return
        obj = self.obj(mod.rel, text(sf, fn.child_by_field_name("object")))
        attr = text(sf, fn.child_by_field_name("attribute"))
        if obj is None:
            return
        if attr in {"before_request", "middleware"} and obj:
            kind = "before_request" if attr == "before_request" else "http_middleware"
            handler = self._handler(mod, dd, defn)
            name = text(sf, defn.child_by_field_name("name"))
            obj.mws.append(Mw(name, mod.rel, SourceFile.line(defn), kind, handler))
            return
        if call is None or attr not in _VERBS | {"route", "api_route"}:
            return
        pos, kw = call_args(sf, call)
        path = string_value(sf, pos[0] if pos else kw.get("path") or kw.get("rule"))
        if path is None:
            self.ctx.unresolved(
                mod.rel,
                SourceFile.line(dd),
                "route",
                text(sf, expr),
                "route path is not a string literal",
            )
            return
        methods = [attr.upper()] if attr in _VERBS else _methods(sf, kw.get("methods"))
        route_mws = self.deps(mod, kw.get("dependencies"), "dependency")
        params = defn.child_by_field_name("parameters")
        for c in (
            captures("python", "(call function: (_) @f) @c", params).get("c", [])
            if params is not None
            else []
        ):
            if text(sf, c.child_by_field_name("function")) in _DEPENDS:
                pos2, kw2 = call_args(sf, c)
                target = pos2[0] if pos2 else kw2.get("dependency")
                if target is not None:
                    route_mws.append(self.mw(mod, target, "param_dependency"))
        where = (mod.rel, SourceFile.line(dd), SourceFile.end_line(dd))
        handler = self._handler(mod, dd, defn)
        self.pending.append((obj, where, path, methods, route_mws, handler))

    def emit(self) -> None:
        ctx = self.ctx
        taken: set[str] = set()
        for obj, (rel, line, end), path, methods, route_mws, handler in self.pending:
            for prefix, mws, mounted in self.chains(obj):
                full = _join(prefix, path) or "/"
                for method in methods:
                    qual = f"{method} {full}"
                    if ctx.node_id("route", qual) in taken:
                        qual = f"{qual}@{rel}:{line}"
                    route = ctx.add_node("route", qual, f"{method} {full}", rel, line, end,
                                         method=method, path=full,
                                         framework=obj.framework, router=f"{obj.rel}:{obj.var}",
                                         mounted=mounted)  # fmt: skip
                    taken.add(route)
                    if handler:
                        ctx.add_edge(route, handler, "ROUTES_TO", rel, line)
                    for order, mw in enumerate([*mws, *route_mws], start=1):
                        ctx.add_edge(
                            route,
                            self._mw_node(mw, obj.framework),
                            "USES_MIDDLEWARE",
                            mw.rel,
                            mw.line,
                            order=order,
                            scope=mw.kind,
                        )

    def _mw_node(self, mw: Mw, framework: str) -> str:
        qual = mw.symbol.split(":", 2)[2] if mw.symbol else f"{mw.rel}:{mw.line}:{mw.name}"
        if qual not in self.mw_nodes:
            node_id = self.ctx.add_node("middleware", qual, mw.name, mw.rel, mw.line, framework=framework, middleware_kind=mw.kind, symbol=mw.symbol)  # fmt: skip
            self.mw_nodes[qual] = node_id
            if mw.symbol:
                self.ctx.add_edge(node_id, mw.symbol, "CALLS_FN", mw.rel, mw.line)
            self.ctx.facts.catalog.append(
                CatalogRow(
                    "middleware",
                    self.ctx.project,
                    self.ctx.component,
                    mw.name,
                    mw.rel,
                    mw.line,
                    {"framework": framework, "kind": mw.kind},
                )
            )
        return self.mw_nodes[qual]


def _methods(sf: SourceFile, given: TsNode | None) -> list[str]:
    if given is None or given.type not in {"list", "tuple", "set"}:
        return ["GET"]
    return [m.upper() for m in (string_value(sf, n) for n in given.named_children) if m] or ["GET"]


def _join(prefix: str, path: str) -> str:
    if not path:
        return prefix
    if not prefix:
        return path if path.startswith("/") else "/" + path
    return prefix.rstrip("/") + (path if path.startswith("/") else "/" + path)


def extract(ctx: ComponentContext) -> None:
    if not ctx.shared.get("py.modules"):
        return
    routes = Routes(ctx)
    routes.find_objects()
    if not routes.objs:
        return
    routes.find_mounts()
    routes.find_routes()
    routes.emit()
