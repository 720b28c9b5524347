"""FastAPI and Flask routes: the mount tree across files, then every route by its full path.

Apps and routers are variables assigned `FastAPI(...)`, `APIRouter(prefix=...)`,
`Flask(...)`, `Blueprint(name, __name__, url_prefix=...)` anywhere in a file (also inside
`create_app()`). Mounts: `app.include_router(orders.router, prefix=settings.api_prefix)`,
`app.register_blueprint(bp, url_prefix="/admin")` (a registration prefix replaces the
blueprint's own, as in Flask); each prefix is a `setting` at its `prefix=` line and every
route lists the mounts that build its path (attr `mounts`, outermost first), followed across files through imports and through a
function parameter (`def register_blueprints(app)` called with the app). Prefixes and paths
are evaluated (`python.values`): constants, imports, settings fields, f-strings, `+`; an
unknown part stays symbolic (`{settings.prefix}`) and gets an `unresolved` row.

Middleware, in run order: Starlette `app.add_middleware(X)` (the last added runs first),
`dependencies=[Depends(f)]` of the app, the include_router call, the router and the route
decorator, then the handler's parameter dependencies (`python.deps`). Flask: request
extensions (`CORS(app)`, `cors.init_app(bp)`), `before_request` of the app, then of the
blueprint, then guarding decorators (`@jwt_required`). `add_url_rule` with a function or a
`MethodView.as_view(...)` (one route per HTTP method the class defines).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.python.deps import Deps, Mw
from extractors.python.emit import Emitter, Route, join
from extractors.python.index import py_captures
from extractors.python.model import PyModule
from extractors.python.symbols import call_args, string_value, text
from extractors.python.values import enclosing_function
from extractors.shared import CodeSymbols, PyModules, StackHints
from extractors.source import SourceFile

NAME = "python_routes"
PROVIDES = (CodeSymbols, StackHints)
REQUIRES = (PyModules,)
_CONSTRUCTORS = {"FastAPI": "app", "APIRouter": "router", "Flask": "app", "Blueprint": "router"}
_FRAMEWORK = {"FastAPI": "fastapi", "APIRouter": "fastapi", "Flask": "flask", "Blueprint": "flask"}
_VERBS = {"get", "post", "put", "patch", "delete", "options", "head"}
_EXTENSIONS = {"CORS", "Talisman", "CSRFProtect", "Limiter", "Compress", "SeaSurf"}
_MOUNTS = {"include_router", "add_url_rule", "register_blueprint", "add_middleware",
           "before_request", "init_app"}  # fmt: skip


@dataclass
class Obj:
    rel: str
    var: str
    kind: str  # app | router
    framework: str
    prefix: str
    line: int
    mws: list[Mw] = field(default_factory=list)
    parents: list[tuple[tuple[str, str], str | None, list[Mw], dict]] = field(default_factory=list)
    own: list[dict] = field(default_factory=list)  # its own `prefix=` as a mount (see `mount`)


class Routes:
    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.mods: dict[str, PyModule] = ctx.shared.py.modules
        resolver = ctx.shared.py.resolver
        self.resolve = resolver.resolve
        self.symbol = resolver.symbol
        self.values = resolver.values
        self.deps = Deps(self.values, self.symbol)
        self.objs: dict[tuple[str, str], Obj] = {}
        self.pending: list[tuple[Obj, Route]] = []
        self._ids: set[str] = set()  # ids of ctx.facts.nodes[: self._ids_len]
        self._ids_len = 0

    def obj(self, mod: PyModule, node: TsNode) -> Obj | None:
        expr = text(mod.sf, node)
        found = self.resolve(mod.rel, expr)
        if found and found in self.objs:
            return self.objs[found]
        return through_parameter(self, mod, node, expr)

    def prefix(self, mod: PyModule, node: TsNode | None) -> str | None:
        if node is None:
            return None
        value = self.values.string(mod.rel, node)
        if value is None or not value.known:
            self.ctx.unresolved(mod.rel, SourceFile.line(node), "route_prefix", text(mod.sf, node),
                                "prefix is not a value known statically (a runtime or env value); "
                                "the routes under it keep it as a {placeholder}")  # fmt: skip
        return value.text if value is not None else "{" + text(mod.sf, node) + "}"

    # pass 1: apps, routers, blueprints
    def find_objects(self) -> None:
        for mod in self.mods.values():
            for node in py_captures(self.ctx, mod.sf, "assign_calls", "a"):
                call = node.child_by_field_name("right")
                ctor = text(mod.sf, call.child_by_field_name("function")).rsplit(".", 1)[-1]
                if ctor not in _CONSTRUCTORS:
                    continue
                _, kw = call_args(mod.sf, call)
                prefix = self.prefix(mod, kw.get("prefix") or kw.get("url_prefix")) or ""
                var = text(mod.sf, node.child_by_field_name("left"))
                obj = Obj(mod.rel, var, _CONSTRUCTORS[ctor], _FRAMEWORK[ctor], prefix,
                          SourceFile.line(node))  # fmt: skip
                obj.mws = self.deps.listed(mod, kw.get("dependencies"), "dependency")
                pnode = kw.get("prefix") or kw.get("url_prefix")
                if pnode is not None and prefix:
                    obj.own = [mount(self, mod, pnode, prefix, f"{ctor}(...) of {var}")]
                self.objs[(mod.rel, var)] = obj
                self.ctx.shared.stack.names.add(obj.framework)

    # pass 2: mounts and app/blueprint-level middleware given as calls
    def find_mounts(self) -> None:
        for mod in self.mods.values():
            sf = mod.sf
            for call in py_captures(self.ctx, sf, "calls", "call"):
                fn = call.child_by_field_name("function")
                if fn.type == "identifier" and text(sf, fn) in _EXTENSIONS:  # CORS(app)
                    pos, _ = call_args(sf, call)
                    target = self.obj(mod, pos[0]) if pos else None
                    if target is not None:
                        target.mws.append(
                            Mw(text(sf, fn), mod.rel, SourceFile.line(call), "extension")
                        )
                    continue
                if (
                    fn.type != "attribute"
                    or text(sf, fn.child_by_field_name("attribute")) not in _MOUNTS
                ):
                    continue
                self._mount(mod, call, fn)

    def _mount(self, mod: PyModule, call: TsNode, fn: TsNode) -> None:
        sf = mod.sf
        method = text(sf, fn.child_by_field_name("attribute"))
        pos, kw = call_args(sf, call)
        if not pos:
            return
        if method == "init_app":  # cors.init_app(bp): a request extension on that app/blueprint
            ext = self.values.value_of(mod.rel, fn.child_by_field_name("object"), None)
            callee = (
                ext[1].child_by_field_name("function") if ext and ext[1].type == "call" else None
            )
            name = (
                ext and callee is not None and self.values.text(ext[0], callee).rsplit(".", 1)[-1]
            )
            target = self.obj(mod, pos[0]) if name in _EXTENSIONS else None
            if target is not None:
                target.mws.append(Mw(name, mod.rel, SourceFile.line(call), "extension"))
            return
        parent = self.obj(mod, fn.child_by_field_name("object"))
        if parent is None:
            if method in {"include_router", "register_blueprint"} and self.obj(mod, pos[0]):
                self.ctx.unresolved(mod.rel, SourceFile.line(call), "route_mount", text(sf, call),
                                    f"{method}: {text(sf, fn.child_by_field_name('object'))} is not an app or router "
                                    "found statically (built or passed at run time)")  # fmt: skip
            return
        if method == "add_url_rule":
            url_rule(self, mod, call, parent, pos, kw)
        elif method == "add_middleware":  # Starlette: the last added is the outermost
            parent.mws.insert(0, self.deps.mw(mod, pos[0], "asgi_middleware", call))
        elif method == "before_request":
            parent.mws.append(self.deps.mw(mod, pos[0], "before_request", call))
        else:
            child = self.obj(mod, pos[0])
            if child is None:
                self.ctx.unresolved(mod.rel, SourceFile.line(call), "route_mount", text(sf, call),
                                    f"{method}: {text(sf, pos[0])} is not a router/blueprint found in this component")  # fmt: skip
                return
            pnode = kw.get("prefix") if method == "include_router" else kw.get("url_prefix")
            prefix = self.prefix(mod, pnode)
            where = mount(self, mod, pnode if pnode is not None else call, prefix,
                               text(sf, call)[:120], pnode is not None)  # fmt: skip
            child.parents.append(((parent.rel, parent.var), prefix,
                                  self.deps.listed(mod, kw.get("dependencies"), "dependency"), where))  # fmt: skip

    def _add(self, obj: Obj, rel: str, where, path: str, methods, mws, handler) -> None:
        for method in methods:
            self.pending.append((obj, Route(obj.framework, rel, where[0], where[1], path, method,
                                            handler, list(mws), f"{obj.rel}:{obj.var}")))  # fmt: skip

    # pass 3: decorated handlers
    def find_routes(self) -> None:
        for mod in self.mods.values():
            for dd in py_captures(self.ctx, mod.sf, "decorated", "d"):
                defn = dd.child_by_field_name("definition")
                if defn is None or defn.type != "function_definition":
                    continue
                for dec in (c for c in dd.children if c.type == "decorator"):
                    if dec.named_children:
                        self._decorator(mod, dd, defn, dec.named_children[0])

    def _has_node(self, node_id: str) -> bool:
        """Membership in ctx.facts.nodes, indexed incrementally (nodes are only appended)."""
        nodes = self.ctx.facts.nodes
        if self._ids_len > len(nodes):
            self._ids, self._ids_len = set(), 0
        if self._ids_len < len(nodes):
            self._ids.update(n.id for n in nodes[self._ids_len :])
            self._ids_len = len(nodes)
        return node_id in self._ids

    def handler_of(self, mod: PyModule, dd: TsNode, defn: TsNode) -> str:
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

    def _decorator(self, mod: PyModule, dd: TsNode, defn: TsNode, expr: TsNode) -> None:
        sf = mod.sf
        call = expr if expr.type == "call" else None
        fn = call.child_by_field_name("function") if call is not None else expr
        if fn is None or fn.type != "attribute":
            return
        attr = text(sf, fn.child_by_field_name("attribute"))
        if attr not in _VERBS | {"route", "api_route", "before_request", "middleware"}:
            return
        obj = self.obj(mod, fn.child_by_field_name("object"))
        if obj is None:
            return
        if attr in {"before_request", "middleware"}:
            kind = "before_request" if attr == "before_request" else "http_middleware"
            handler = self.handler_of(mod, dd, defn)
            name = text(sf, defn.child_by_field_name("name"))
            obj.mws.append(Mw(name, mod.rel, SourceFile.line(defn), kind, handler))
            return
        if call is None:
            return
        pos, kw = call_args(sf, call)
        path = self.values.string(mod.rel, pos[0] if pos else kw.get("path") or kw.get("rule"))
        if path is None:
            self.ctx.unresolved(mod.rel, SourceFile.line(dd), "route", text(sf, expr),
                                "route path is not a string expression")  # fmt: skip
            return
        methods = [attr.upper()] if attr in _VERBS else _methods(sf, kw.get("methods"))
        mws = self.deps.decorators(mod, dd, expr)
        mws += self.deps.listed(mod, kw.get("dependencies"), "dependency")
        mws += self.deps.parameters(mod, defn)
        where = (SourceFile.line(expr), SourceFile.end_line(dd))
        self._add(obj, mod.rel, where, path.text, methods, mws, self.handler_of(mod, dd, defn))


def mount(routes: Routes, mod: PyModule, node: TsNode, prefix: str | None, how: str,
          setting: bool = True) -> dict:  # fmt: skip
    """A mount that builds routes' full paths: {prefix, file, line, how} (the line of its
    `prefix=`); one with a prefix is also a `setting` its file DECLARES."""
    line = SourceFile.line(node)
    out = {"prefix": prefix or "", "file": mod.rel, "line": line, "how": how}
    expr = text(mod.sf, node)
    if node.type != "string" and prefix is not None and setting:
        out["expr"] = expr[:120]
    if prefix and setting:
        name = "url_prefix" if "register_blueprint" in how or "Blueprint" in how else "prefix"
        extra = {"expr": out["expr"]} if "expr" in out else {}
        sid = routes.ctx.add_node("setting", f"{mod.rel}:{line}:{name}", name, mod.rel, line,
                                value=prefix, about=f"route prefix: {how}", source="python",
                                **extra)  # fmt: skip
        routes.ctx.add_edge(mod.file_id, sid, "DECLARES", mod.rel, line)
    return out


def chains(routes: Routes, obj: Obj, seen: frozenset = frozenset()) -> list[tuple]:
    """(full prefix, middleware in order, mounted on an app, mounts outermost first) for
    every way obj is mounted."""
    if obj.kind == "app":
        return [("", list(obj.mws), True, [])]
    if not obj.parents or (obj.rel, obj.var) in seen:
        return [(obj.prefix, list(obj.mws), False, list(obj.own))]
    out = []
    for key, prefix, inc_mws, where in obj.parents:
        parent = routes.objs[key]
        for pprefix, pmws, mounted, pmounts in chains(routes, parent, seen | {(obj.rel, obj.var)}):
            replaced = obj.framework == "flask" and prefix is not None
            if obj.framework == "flask":
                full = join(pprefix, prefix if prefix is not None else obj.prefix)
            else:
                full = join(join(pprefix, prefix or ""), obj.prefix)
            mounts = pmounts + [where] + ([] if replaced else obj.own)
            out.append((full, pmws + inc_mws + obj.mws, mounted, mounts))
    return out


def through_parameter(routes: Routes, mod: PyModule, node: TsNode, expr: str) -> Obj | None:
    """`app` of `def register_blueprints(app)`: the object its callers pass."""
    fn = enclosing_function(node)
    if fn is None or "." in expr:
        return None
    params = fn.child_by_field_name("parameters")
    names = [text(mod.sf, p) if p.type == "identifier" else text(mod.sf, p.named_children[0])
             for p in (params.named_children if params is not None else []) if p.named_children or p.type == "identifier"]  # fmt: skip
    if expr not in names:
        return None
    index, fname = names.index(expr), text(mod.sf, fn.child_by_field_name("name"))
    for caller in routes.mods.values():
        if fname.encode() not in caller.sf.data:
            continue
        for call in py_captures(routes.ctx, caller.sf, "calls", "call"):
            callee = call.child_by_field_name("function")
            if text(caller.sf, callee).rsplit(".", 1)[-1] != fname:
                continue
            found = routes.values.function(caller.rel, text(caller.sf, callee))
            pos, _ = call_args(caller.sf, call)
            if found and found[1] == fn and index < len(pos):
                hit = routes.resolve(caller.rel, text(caller.sf, pos[index]))
                if hit in routes.objs:
                    return routes.objs[hit]
    return None


def url_rule(routes: Routes, mod: PyModule, call: TsNode, obj: Obj, pos: list, kw: dict) -> None:
    """`add_url_rule("/x", "endpoint", view_func=fn, methods=[...])`, also with
    `view_func=UserView.as_view("user")` (a MethodView: its get/post/... methods)."""
    sf = mod.sf
    path = routes.values.string(mod.rel, pos[0])
    view = kw.get("view_func") or (pos[2] if len(pos) > 2 else None)
    if path is None or view is None:
        return
    where = (SourceFile.line(call), SourceFile.end_line(call))
    if view.type == "call" and text(sf, view.child_by_field_name("function")).endswith(".as_view"):
        cls = routes.values.class_named(
            mod.rel, text(sf, view.child_by_field_name("function"))[:-8]
        )
        for verb in sorted(_VERBS) if cls else []:
            handler = routes.values.method(cls, verb)
            if handler:
                routes._add(obj, mod.rel, where, path.text, [verb.upper()], [], handler)
        return
    handler = routes.symbol(mod.rel, text(sf, view))
    routes._add(obj, mod.rel, where, path.text, _methods(sf, kw.get("methods")), [], handler)


def _methods(sf: SourceFile, given: TsNode | None) -> list[str]:
    if given is None or given.type not in {"list", "tuple", "set"}:
        return ["GET"]
    return [m.upper() for m in (string_value(sf, n) for n in given.named_children) if m] or ["GET"]


def extract(ctx: ComponentContext) -> None:
    if not ctx.shared.py.modules:
        return
    routes = Routes(ctx)
    routes.find_objects()
    if not routes.objs:
        return
    routes.find_mounts()
    routes.find_routes()
    emitter = Emitter(ctx)
    unmounted = {
        id(obj): obj for obj, _ in routes.pending if obj.kind == "router" and not obj.parents
    }
    for obj in unmounted.values():
        ctx.unresolved(obj.rel, obj.line, "route_mount", obj.var,
                       f"router {obj.var} is never mounted on an app found in this component: "
                       "its routes lack the mount prefixes")  # fmt: skip
    for obj, route in routes.pending:
        for prefix, mws, mounted, mounts in chains(routes, obj):
            emitter.route(Route(route.framework, route.rel, route.line, route.end,
                                join(prefix, route.path) or "/", route.method, route.handler,
                                mws + route.mws, route.router, mounted, mounts))  # fmt: skip
