"""NestJS: controller routes with their full path, handler and enhancer/middleware chain.

A route per HTTP method decorator (`@Get(':slug')`, `@Post()`, … `@All()`) on a method of a
`@Controller(prefix)` class. Its path joins `app.setGlobalPrefix(...)` (unless excluded),
the `RouterModule.register([{ path, module, children }])` path of the controller's module,
the URI version (`app.enableVersioning` + `@Controller({ version })` / `@Version()`), the
controller prefix and the method path; several paths (`@Get(['a', 'b'])`) give one route each.

route node: qualifier and name `METHOD /full/path` (Nest `:param` syntax), file:line of the
HTTP method decorator, attrs `method`, `path`, `framework="nestjs"`, `controller`, `mounts`
(`file:line` of the `setGlobalPrefix` call when the prefix applies). The global prefix is
also a `setting` node `setGlobalPrefix` (js/settings.py).
ROUTES_TO → the method symbol (`<rel>#Class.method`, its line is the method's own).
USES_MIDDLEWARE, in the order a request meets them (attr `order`): `app.use(...)` in the
bootstrap file; module middleware `consumer.apply(A, B).forRoutes(...)` whose route
infos match (`{ path, method }`, a path string with `*`, or the controller class), at the
line of the matching `forRoutes` argument; then guards, interceptors and pipes — global
(`app.useGlobalGuards(...)`), controller-level, method-level decorators — each at the line
where this route gets it. middleware node: qualifier = the class's symbol qualifier when it
is defined in the component, else its name; attrs `role` (middleware | guard | interceptor
| pipe), `package`, `symbol`.
Handler → injected service calls are edges of js/injected.py.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.js.common import arguments, modules, object_props, text, unwrap
from extractors.js.evaluate import string_of, value_of
from extractors.js.model import ModuleInfo
from extractors.js.nest_app import App, bootstrap, middleware_node, module_middleware
from extractors.js.settings import Settings
from extractors.shared import CodeSymbols, JsSymbols
from extractors.source import SourceFile

NAME = "nestjs"
PROVIDES = (CodeSymbols,)
REQUIRES = (JsSymbols,)
HTTP = {"Get", "Post", "Put", "Delete", "Patch", "Options", "Head", "All"}
ENHANCERS = (("UseGuards", "guard"), ("UseInterceptors", "interceptor"), ("UsePipes", "pipe"))
_CLASSES = {"class_declaration", "abstract_class_declaration"}


def extract(ctx: ComponentContext) -> None:
    mods = [
        m
        for m in modules(ctx).values()
        if any((b.package or "").startswith("@nestjs/") for b in m.imports.values())
    ]
    if not mods:
        return
    app = bootstrap(ctx, mods)
    if app.prefix_at is not None:
        settings = Settings(ctx)
        rel, line = app.prefix_at
        extra = {"excludes": app.exclude} if app.exclude else {}
        about = "global route prefix of every controller route"
        settings.add(rel, line, "setGlobalPrefix", app.prefix, about, "nestjs", **extra)
        settings.emit()
    consumers = module_middleware(ctx, mods)
    cache: dict[str, str] = {}
    for mod in sorted(mods, key=lambda m: m.rel):
        for cls, decorators in _classes(mod):
            controller = _decorator(mod, decorators, "Controller")
            if controller is not None:
                _controller(ctx, app, consumers, cache, mod, cls, decorators, controller)


def _classes(mod: ModuleInfo):
    for stmt in mod.sf.tree.root_node.named_children:
        decorators = [c for c in stmt.named_children if c.type == "decorator"]
        cls = stmt
        if stmt.type == "export_statement":
            cls = stmt.child_by_field_name("declaration")
        if cls is not None and cls.type in _CLASSES:
            decorators += [c for c in cls.named_children if c.type == "decorator"]
            yield cls, decorators


def _decorator(mod: ModuleInfo, decorators: list[TsNode], name: str) -> TsNode | None:
    """The call of `@name(...)` among `decorators` (a bare `@name` gives the decorator)."""
    for dec in decorators:
        inner = dec.named_children[0] if dec.named_children else None
        if inner is None:
            continue
        callee = inner.child_by_field_name("function") if inner.type == "call_expression" else inner
        if text(mod.sf, callee) == name:
            return inner
    return None


def _calls(mod: ModuleInfo, decorators: list[TsNode]):
    """(decorator name, call node or None) for each decorator, in source order."""
    for dec in decorators:
        inner = dec.named_children[0] if dec.named_children else None
        if inner is None:
            continue
        if inner.type == "call_expression":
            yield text(mod.sf, inner.child_by_field_name("function")), inner
        else:
            yield text(mod.sf, inner), None


def _paths(
    ctx, mod: ModuleInfo, call: TsNode | None, key: str = "path"
) -> tuple[list[str], str | None]:
    """Paths of `@Controller('x')` / `@Get(['a', 'b'])` / `@Controller({ path, version })`."""
    arg = unwrap((arguments(call) or [None])[0]) if call is not None else None
    if arg is None:
        return [""], None
    found = value_of(ctx, mod, arg)
    node, owner = (found.node, found.mod) if found and found.node is not None else (arg, mod)
    version = None
    if node.type == "object":
        props = object_props(owner.sf, node)
        version = string_of(ctx, owner, props.get("version"))[0] if "version" in props else None
        node = unwrap(props.get(key))
        if node is None:
            return [""], version
    items = node.named_children if node.type == "array" else [node]
    paths = [string_of(ctx, owner, item)[0] for item in items if item.type != "comment"]
    return [p if p is not None else "<dynamic>" for p in paths] or [""], version


def _controller(ctx, app: App, consumers, cache, mod, cls: TsNode, decorators, controller) -> None:
    name = text(mod.sf, cls.child_by_field_name("name"))
    prefixes, version = _paths(ctx, mod, controller)
    class_chain = list(_enhancers(ctx, cache, mod, decorators))
    body = cls.child_by_field_name("body")
    members = body.named_children if body is not None else []
    pending: list[TsNode] = []
    for member in members:
        if member.type == "decorator":
            pending.append(member)
            continue
        if member.type != "method_definition":
            pending = []
            continue
        method_decorators, pending = pending, []
        method = text(mod.sf, member.child_by_field_name("name"))
        handler = mod.symbols.get(f"{name}.{method}")
        calls = list(_calls(mod, method_decorators))
        own_version = next(
            (
                string_of(ctx, mod, (arguments(c) or [None])[0])[0]
                for n, c in calls
                if n == "Version" and c is not None
            ),
            None,
        )
        method_chain = list(_enhancers(ctx, cache, mod, method_decorators))
        for verb, call in calls:
            if verb not in HTTP or call is None:
                continue
            tails, _ = _paths(ctx, mod, call)
            for prefix in prefixes:
                for tail in tails:
                    local = _join(prefix, tail)
                    full = app.full_path(local, own_version or version, name)
                    chain = app.middleware(ctx, cache) + [
                        m
                        for m in consumers.matching(
                            ctx, cache, verb.upper(), app.match_paths(local, name), name
                        )
                    ]
                    chain += _ordered(app.enhancers(ctx, cache), class_chain, method_chain)
                    _route(
                        ctx,
                        app.seen,
                        mod,
                        verb.upper(),
                        full,
                        SourceFile.line(call),
                        handler,
                        name,
                        chain,
                        app.mounts(local),
                    )


def _ordered(*levels: list[tuple[str, str, str, int]]) -> list[tuple[str, str, int]]:
    """Guards, then interceptors, then pipes; within each: global, controller, method."""
    out = []
    for _, kind in ENHANCERS:
        for level in levels:
            out += [(mw, rel, line) for k, mw, rel, line in level if k == kind]
    return out


def _enhancers(ctx, cache, mod: ModuleInfo, decorators: list[TsNode]):
    """(kind, middleware node, rel, line) per class named in @UseGuards/@UseInterceptors/…"""
    kinds = dict(ENHANCERS)
    for dec_name, call in _calls(mod, decorators):
        if dec_name in kinds and call is not None:
            for arg in arguments(call):
                found = middleware_node(ctx, cache, mod, arg, kinds[dec_name])
                if found:
                    yield kinds[dec_name], found, mod.rel, SourceFile.line(call)


def _join(*parts: str) -> str:
    kept = [p.strip("/") for p in parts if p and p.strip("/")]
    return "/" + "/".join(kept)


def _route(ctx, seen: set, mod, method, path: str, line: int, handler, controller, chain, mounts):
    name = f"{method} {path}"
    qualifier = name if name not in seen else f"{name}@{mod.rel}:{line}"
    seen.add(qualifier)
    extra = {"mounts": mounts} if mounts else {}
    route = ctx.add_node(
        "route", qualifier, name, mod.rel, line, line,
        method=method, path=path, framework="nestjs", controller=controller, **extra,
    )  # fmt: skip
    if handler:
        ctx.add_edge(route, handler, "ROUTES_TO", mod.rel, line)
    for order, (mw, rel, at) in enumerate(chain, start=1):
        ctx.add_edge(route, mw, "USES_MIDDLEWARE", rel, at, order=order)
