"""Express: routes with their full mounted path, handler and ordered middleware.

Builds the mount tree first, then names routes. Routers are `express()` apps and
`express.Router()` / `Router()` routers wherever they are created — bound to a name (any
scope), exported (`module.exports = Router().use('/api', api)`, `export default`), or inline
(`app.use('/x', Router().get(...))`). Registrations are `X.get/post/put/patch/delete/options/
head/all/use(...)` on them, also chained (`Router().use(a).use(b)`,
`X.route('/p').get(..).post(..)`), also inside loops over static arrays or objects
(`[{ path, route }].forEach(r => router.use(r.path, r.route))`, `for…of`,
`Object.entries(o).forEach(([p, r]) => …)`). Prefixes and routers are evaluated across files
(js/evaluate.py): imported consts, template literals, `path.join`, config properties;
what stays unknown is kept as `{placeholder}` with an `unresolved` row. A router reached only
as a function parameter (`module.exports = (app) => app.get(...)`) is a root of its own,
with an `unresolved` row saying the mount was not followed — unless a call in the
component passes it (`require('./routes')(app)`, `mount(app)`: express_params.py).

route node: qualifier and name `METHOD /full/path` (Express `:id` syntax; `ALL` for `.all`),
file:line of the registration's method name (`.post(` of a chain), attrs `method`, `path`,
`framework="express"`, `router` (`<rel>#<name>` where it was registered), `mounts` (the
`file:line` of each mount with a path that builds the full path, outermost first). ROUTES_TO → handler
symbol (an `<anonymous>` symbol for inline functions, the wrapped function of
`catchAsync(fn)`, an `expression` symbol for a package's handler factory such as
`swaggerUi.setup(specs)`). USES_MIDDLEWARE → middleware node, attr `order` (1-based: app-level
`use` registered before the route first, outermost mount first, then the route's own), the
edge's file:line being where this route gets it, attr `expr` the element as written there
(`validate(authValidation.login)`, `auth('manageUsers')`).
middleware node: qualifier = symbol qualifier (`<rel>#rateLimit`) when it resolves to code in
the component, else the callee as written (`helmet`, `express.json`); file:line of its
definition when resolvable, else of its first `use`; attrs `package`, `symbol`.
Catalog rows `middleware` for every package-backed middleware (name = package).
A root app's mount with a path (`app.use('/v1', routes)`) is also a `setting` (js/settings.py).
Provides `ctx.shared.express` (ExpressApps: "<rel>#<name>" → route node ids) for firebase.py.
"""

from __future__ import annotations

import re
from collections import defaultdict

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.js.common import (
    arguments,
    dotted_name,
    js_files,
    modules,
    package_of,
    resolve_local,
    text,
    unwrap,
)
from extractors.js.evaluate import Env, loop_bindings, value_of
from extractors.js.express_params import (
    METHODS,
    bind_parameters,
    chain_base,
    enclosing_functions,
    parameter_index,
    required_default,
)
from extractors.js.express_paths import PathRules
from extractors.js.express_tree import Entry, Parts, emit
from extractors.js.index import file_index
from extractors.js.model import ModuleInfo
from extractors.shared import CodeSymbols, ExpressApps, JsSymbols
from extractors.source import SourceFile

NAME = "express"
PROVIDES = (ExpressApps, CodeSymbols)
REQUIRES = (JsSymbols,)
_ROUTER_PARAM = re.compile(r"^(app|router|server|routes?|application)$", re.I)
_PARAM_HINT = re.compile(rb"\(\s*(?:app|router|server)\b")


def extract(ctx: ComponentContext) -> None:
    mods = modules(ctx)
    state = _State(ctx)
    candidates = [
        m
        for sf in js_files(ctx)
        if (m := mods.get(sf.rel)) is not None
        and (b"express" in sf.data or b"Router" in sf.data or _PARAM_HINT.search(sf.data))
    ]
    for mod in candidates:
        state.discover(mod)
    if not state.routers:
        return
    state.prepass = True
    bind_parameters(state, candidates)
    state.prepass = False
    for mod in candidates:
        state.scan(mod)
    emit(state)


def router_kind(ctx, mod: ModuleInfo, value: TsNode | None) -> str | None:
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


class _State(PathRules, Parts):
    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.routers: dict[str, str] = {}  # key -> "app" | "router"
        self.by_node: dict[tuple[str, int], str] = {}  # (rel, creating call byte) -> key
        self.entries: dict[str, list[Entry]] = defaultdict(list)
        self.mounted: set[str] = set()
        self.middleware: dict[str, str] = {}  # qualifier -> node id
        self.seen: set[str] = set()  # route qualifiers taken
        self.nodes = {n.id: n for n in ctx.facts.nodes if n.kind == "symbol"}
        self.said: set[tuple[str, int]] = set()  # unresolved rows written
        self.passed: dict[tuple[str, int, int], tuple[str, tuple]] = {}  # see express_params
        self.sites: dict[tuple[str, int], tuple] = {}  # (rel, function byte) -> call site
        self.prepass = False
        self.unmounted: dict[str, tuple[str, int, str, str]] = {}  # parameter key -> row

    def discover(self, mod: ModuleInfo) -> None:
        named = [(n, v) for n, values in file_index(self.ctx, mod.sf).decls.items() for v in values]
        if "default" in mod.consts:
            named.append(("default", mod.consts["default"]))
        for name, value in named:
            base = chain_base(value)
            kind = router_kind(self.ctx, mod, base)
            if kind and (mod.rel, base.start_byte) not in self.by_node:
                key = f"{mod.rel}#{name}"
                self.routers.setdefault(key, kind)
                self.by_node[(mod.rel, base.start_byte)] = key

    def router_key(self, mod: ModuleInfo, node: TsNode | None, env: Env | None) -> str | None:
        found = value_of(self.ctx, mod, node, env)
        if found is None or found.node is None:
            return None
        owner, base = found.mod, chain_base(found.node)
        if base is None:
            return None
        key = self.by_node.get((owner.rel, base.start_byte))
        if key is not None:
            return key
        kind = router_kind(self.ctx, owner, base)
        if kind:  # created inline: `app.use('/x', Router().get(...))`
            line, col = base.start_point[0] + 1, base.start_point[1] + 1
            key = self.by_node[(owner.rel, base.start_byte)] = f"{owner.rel}#@{line}:{col}"
            self.routers[key] = kind
            return key
        if base.type == "identifier":
            return self.parameter_router(owner, base)
        required = required_default(self.ctx, owner, base)  # `app.use(require('./routes'))`
        if required is not None:
            return self.by_node.get((required[0].rel, required[1].start_byte))
        return None

    def parameter_router(self, mod: ModuleInfo, ident: TsNode) -> str | None:
        """An app/router that arrives as a function parameter: the router the call sites
        pass (express_params.py), else a root of its own with an `unresolved` row."""
        name = text(mod.sf, ident)
        if resolve_local(self.ctx, mod.rel, name):
            return None
        for fn in enclosing_functions(ident):
            index = parameter_index(mod.sf, fn, name)
            if index is not None:
                break
        else:
            return None
        passed = self.passed.get((mod.rel, fn.start_byte, index))
        if passed is not None:
            self.sites[(mod.rel, fn.start_byte)] = passed[1]
            return passed[0]
        if self.prepass or not _ROUTER_PARAM.match(name):
            return None
        key = f"{mod.rel}#{name}@{SourceFile.line(fn)}"
        if key not in self.routers:
            self.routers[key] = "parameter"
            reason = (
                f"router `{name}` is a parameter of the function at line "
                f"{SourceFile.line(fn)}; where it is mounted is not followed"
            )
            self.unmounted[key] = (mod.rel, SourceFile.line(ident), name, reason)
        return key

    def say(self, rel: str, line: int, kind: str, expr: str, reason: str) -> None:
        if (rel, line) not in self.said:
            self.said.add((rel, line))
            self.ctx.unresolved(rel, line, kind, expr, reason)

    def scan(self, mod: ModuleInfo) -> None:
        sf = mod.sf
        for call in file_index(self.ctx, sf).calls:
            fn = call.child_by_field_name("function")
            if call.type != "call_expression" or fn is None or fn.type != "member_expression":
                continue
            prop = text(sf, fn.child_by_field_name("property"))
            if prop in METHODS or prop == "use":
                envs = loop_bindings(self.ctx, mod, call)
                if envs is None:
                    self.say(mod.rel, SourceFile.line(call), "mount", text(sf, call)[:120],
                             "registered in a loop over values not known statically")  # fmt: skip
                for i, env in enumerate(envs or [{}]):
                    self.registration(mod, call, fn, prop, env, i)

    def registration(self, mod, call: TsNode, fn: TsNode, prop: str, env: Env, i: int) -> None:
        sf = mod.sf
        line = SourceFile.line(fn.child_by_field_name("property"))
        obj = unwrap(fn.child_by_field_name("object"))
        route_path = None
        while obj is not None and obj.type == "call_expression":  # .route('/x').get().post()
            inner = obj.child_by_field_name("function")
            if inner is None or inner.type != "member_expression":
                break
            name = text(sf, inner.child_by_field_name("property"))
            if name == "route":
                route_path = self.path_of(mod, (arguments(obj) or [None])[0], env)
            elif name not in METHODS and name != "use":
                break
            obj = unwrap(inner.child_by_field_name("object"))
        key = self.router_key(mod, obj, env)
        if key is None:
            return
        args = arguments(call)
        if self.routers[key] == "parameter":
            if not self.express_like(mod, args):
                return  # `api.post('/users', body)` on some client: not a route
            if key in self.unmounted:
                rel, at, name, reason = self.unmounted.pop(key)
                self.say(rel, at, "mount", name, reason)
        order = (mod.rel, call.start_byte, call.end_byte, i)
        if self.sites:  # registered inside a function the router was passed to
            for fn in enclosing_functions(call):
                if (mod.rel, fn.start_byte) in self.sites:
                    order = self.sites[(mod.rel, fn.start_byte)] + order
                    break
        path = route_path
        if path is None and args and (prop != "use" or self.is_path(mod, args[0], env, args)):
            path = self.path_of(mod, args[0], env)
            args = args[1:]
        if prop == "use":
            self.use(mod, key, order, line, path or "", args, env)
            return
        if not args:
            return
        handler = self.handler(mod, args[-1])
        middleware = [m for a in args[:-1] for m in self.middleware_of(mod, a)]
        self.entries[key].append(
            Entry(order, "route", mod.rel, line, prop.upper(), path or "/", middleware, handler)
        )

    def use(self, mod, key, order, line, prefix: str, args: list[TsNode], env: Env) -> None:
        for arg in args:
            child = self.router_key(mod, arg, env)
            if child is not None and child != key:
                self.mounted.add(child)
                self.entries[key].append(
                    Entry(order, "mount", mod.rel, line, path=prefix, child=child)
                )
                continue
            for mw in self.middleware_of(mod, arg):
                self.entries[key].append(
                    Entry(order, "use", mod.rel, line, path=prefix, middleware=[mw])
                )
