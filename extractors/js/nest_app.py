"""NestJS application-wide settings and module middleware, read for nestjs.py.

`bootstrap`: the app made by `NestFactory.create(...)` and what is called on it —
`setGlobalPrefix(prefix, { exclude })`, `enableVersioning({ type, defaultVersion })`,
`use(...)`, `useGlobalGuards/Interceptors/Pipes(...)` — plus `RouterModule.register(...)`
paths per module and the controllers each `@Module` lists.
`module_middleware`: every `consumer.apply(A, B).exclude(...).forRoutes(...)` chain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.js.common import (
    arguments,
    dotted_name,
    lookup_symbol,
    modules,
    object_props,
    package_of,
    resolve_local,
    text,
    unwrap,
)
from extractors.js.evaluate import string_of, value_of
from extractors.js.index import call_names
from extractors.js.model import ModuleInfo
from extractors.source import SourceFile

_GLOBAL = {"useGlobalGuards": "guard", "useGlobalInterceptors": "interceptor"}
_GLOBAL["useGlobalPipes"] = "pipe"


@dataclass
class App:
    prefix: str = ""
    prefix_at: tuple[str, int] | None = None  # (rel, line) of `setGlobalPrefix(...)`
    exclude: list[str] = field(default_factory=list)
    versioning: bool = False
    default_version: str | None = None
    uses: list[tuple[ModuleInfo, TsNode]] = field(default_factory=list)  # app.use(x) calls
    globals: list[tuple[str, ModuleInfo, TsNode]] = field(default_factory=list)
    module_paths: dict[str, str] = field(default_factory=dict)  # controller name -> prefix
    seen: set[str] = field(default_factory=set)  # route qualifiers taken

    def full_path(self, local: str, version: str | None, controller: str) -> str:
        parts = [] if any(path_matches(x, local) for x in self.exclude) else [self.prefix]
        version = version or self.default_version
        if self.versioning and version:
            parts.append(f"v{version}")
        parts += [self.module_paths.get(controller, ""), local]
        kept = [p.strip("/") for p in parts if p and p.strip("/")]
        return "/" + "/".join(kept)

    def mounts(self, local: str) -> list[str]:
        """`file:line` of the global prefix when it applies to this controller-relative path."""
        if self.prefix_at is None or any(path_matches(x, local) for x in self.exclude):
            return []
        return [f"{self.prefix_at[0]}:{self.prefix_at[1]}"]

    def match_paths(self, local: str, controller: str) -> tuple[str, ...]:
        """What a `forRoutes` path may be written against: the controller-relative path,
        with the RouterModule path, and with the global prefix too (versions left out)."""
        routed = "/".join(p.strip("/") for p in (self.module_paths.get(controller, ""), local) if p)
        return (local, routed, "/".join(p.strip("/") for p in (self.prefix, routed) if p))

    def middleware(self, ctx, cache) -> list[tuple[str, str, int]]:
        out = []
        for mod, call in self.uses:
            for arg in arguments(call):
                found = middleware_node(ctx, cache, mod, arg, "middleware")
                if found:
                    out.append((found, mod.rel, SourceFile.line(call)))
        return out

    def enhancers(self, ctx, cache) -> list[tuple[str, str, str, int]]:
        out = []
        for kind, mod, call in self.globals:
            for arg in arguments(call):
                found = middleware_node(ctx, cache, mod, arg, kind)
                if found:
                    out.append((kind, found, mod.rel, SourceFile.line(call)))
        return out


def bootstrap(ctx: ComponentContext, mods: list[ModuleInfo]) -> App:
    app = App()
    for mod in sorted(mods, key=lambda m: m.rel):
        sf = mod.sf
        apps = {"app"}
        for call, _fn, name in call_names(ctx, sf):
            if name in {"NestFactory.create", "NestFactory.createApplicationContext"}:
                holder = call.parent
                while holder is not None and holder.type in {
                    "await_expression",
                    "parenthesized_expression",
                }:
                    holder = holder.parent
                if holder is not None and holder.type == "variable_declarator":
                    apps.add(text(sf, holder.child_by_field_name("name")))
            if name is None or "." not in name:
                continue
            receiver, prop = name.rsplit(".", 1)
            args = arguments(call)
            if prop == "setGlobalPrefix" and args:
                prefix, unknown = string_of(ctx, mod, args[0])
                label = text(sf, args[0]).removeprefix("process.env.")
                app.prefix = prefix if prefix is not None else "{" + label + "}"
                app.prefix_at = (mod.rel, SourceFile.line(call))
                if prefix is None or unknown:
                    ctx.unresolved(
                        mod.rel, SourceFile.line(call), "route", text(sf, args[0]),
                        "global prefix not known statically; routes carry it as a placeholder",
                    )  # fmt: skip
                options = unwrap(args[1]) if len(args) > 1 else None
                if options is not None and options.type == "object":
                    exclude = unwrap(object_props(sf, options).get("exclude"))
                    for item in exclude.named_children if exclude is not None else []:
                        item = unwrap(item)
                        if item is not None and item.type == "object":
                            item = object_props(sf, item).get("path")
                        value = string_of(ctx, mod, item)[0]
                        if value:
                            app.exclude.append(value)
            elif prop == "enableVersioning":
                app.versioning = True
                options = unwrap(args[0]) if args else None
                if options is not None and options.type == "object":
                    default = object_props(sf, options).get("defaultVersion")
                    app.default_version = string_of(ctx, mod, default)[0] if default else None
            elif prop in _GLOBAL and receiver in apps:
                app.globals.append((_GLOBAL[prop], mod, call))
            elif prop == "use" and receiver in apps and mod.sf.data.find(b"NestFactory") >= 0:
                app.uses.append((mod, call))
            elif name == "RouterModule.register" and args:
                _router_module(ctx, mod, args[0], "", app)
    return app


def _router_module(ctx, mod: ModuleInfo, routes: TsNode, prefix: str, app: App) -> None:
    found = value_of(ctx, mod, routes)
    if found is None or found.node is None or found.node.type != "array":
        return
    for item in found.node.named_children:
        item = unwrap(item)
        if item is None or item.type != "object":
            continue
        props = object_props(found.mod.sf, item)
        path = "/".join(
            p.strip("/")
            for p in (prefix, string_of(ctx, found.mod, props.get("path"))[0] or "")
            if p
        )
        module = props.get("module")
        if module is not None:
            for controller in _controllers_of(ctx, found.mod, module):
                app.module_paths[controller] = path
        if props.get("children") is not None:
            _router_module(ctx, found.mod, props["children"], path, app)


def _controllers_of(ctx, mod: ModuleInfo, module: TsNode) -> list[str]:
    """Controller class names listed in `@Module({ controllers: [...] })` of a module class."""
    found = class_node(ctx, mod, module)
    if found is None:
        return []
    owner, cls = found
    holder = cls.parent
    decorators = [
        c for c in (holder.named_children if holder is not None else []) if c.type == "decorator"
    ]
    decorators += [c for c in cls.named_children if c.type == "decorator"]
    for dec in decorators:
        call = dec.named_children[0] if dec.named_children else None
        if call is None or call.type != "call_expression":
            continue
        if text(owner.sf, call.child_by_field_name("function")) != "Module":
            continue
        options = unwrap((arguments(call) or [None])[0])
        if options is None or options.type != "object":
            continue
        listed = unwrap(object_props(owner.sf, options).get("controllers"))
        if listed is not None and listed.type == "array":
            return [text(owner.sf, c) for c in listed.named_children if c.type == "identifier"]
    return []


def class_node(ctx, mod: ModuleInfo, ident: TsNode) -> tuple[ModuleInfo, TsNode] | None:
    """The class declaration a name refers to (local or imported)."""
    found = resolve_local(ctx, mod.rel, text(mod.sf, ident))
    owner = modules(ctx).get(found[0]) if found else None
    if owner is None:
        return None
    for stmt in owner.sf.tree.root_node.named_children:
        node = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        name = node.child_by_field_name("name") if node is not None else None
        if name is not None and "class" in node.type and text(owner.sf, name) == found[1]:
            return owner, node
    return None


@dataclass
class Consumer:
    mod: ModuleInfo
    applied: list[TsNode]  # apply(...) arguments
    infos: list[TsNode]  # forRoutes(...) arguments
    excluded: list[TsNode]


class Consumers:
    def __init__(self, chains: list[Consumer]):
        self.chains = chains

    def matching(self, ctx, cache, method: str, paths: tuple[str, ...], controller: str):
        """(middleware node, rel, line) of every module middleware this route passes."""
        for chain in self.chains:
            if any(
                _info_matches(ctx, chain.mod, x, method, paths, controller) for x in chain.excluded
            ):
                continue
            hit = next(
                (
                    x
                    for x in chain.infos
                    if _info_matches(ctx, chain.mod, x, method, paths, controller)
                ),
                None,
            )
            if hit is None:
                continue
            for arg in chain.applied:
                found = middleware_node(ctx, cache, chain.mod, arg, "middleware")
                if found:
                    yield found, chain.mod.rel, SourceFile.line(hit)


def _info_matches(ctx, mod: ModuleInfo, info: TsNode, method: str, paths, controller: str) -> bool:
    node = unwrap(info)
    if node is None:
        return False
    if node.type == "identifier":
        value = string_of(ctx, mod, node)[0]
        if value is None:
            return text(mod.sf, node) == controller
        return any(path_matches(value, p) for p in paths)
    wanted = "ALL"
    if node.type == "object":
        props = object_props(mod.sf, node)
        verb = props.get("method")
        wanted = text(mod.sf, verb).rsplit(".", 1)[-1].upper() if verb is not None else "ALL"
        node = props.get("path")
    pattern = string_of(ctx, mod, node)[0]
    if pattern is None or wanted not in {"ALL", method}:
        return False
    return any(path_matches(pattern, p) for p in paths)


def module_middleware(ctx: ComponentContext, mods: list[ModuleInfo]) -> Consumers:
    chains = []
    for mod in sorted(mods, key=lambda m: m.rel):
        if b"forRoutes" not in mod.sf.data:
            continue
        for call, fn, _name in call_names(ctx, mod.sf):
            if fn is None or fn.type != "member_expression":
                continue
            if text(mod.sf, fn.child_by_field_name("property")) != "forRoutes":
                continue
            applied, excluded = [], []
            inner = unwrap(fn.child_by_field_name("object"))
            while inner is not None and inner.type == "call_expression":
                inner_fn = inner.child_by_field_name("function")
                if inner_fn is None or inner_fn.type != "member_expression":
                    break
                prop = text(mod.sf, inner_fn.child_by_field_name("property"))
                if prop == "exclude":
                    excluded += arguments(inner)
                elif prop == "apply":
                    applied = arguments(inner)
                    break
                inner = unwrap(inner_fn.child_by_field_name("object"))
            if applied:
                chains.append(Consumer(mod, applied, arguments(call), excluded))
    return Consumers(chains)


def middleware_node(
    ctx, cache: dict[str, str], mod: ModuleInfo, arg: TsNode, kind: str
) -> str | None:
    """The middleware node of `AuthGuard`, `new ValidationPipe()`, `AuthGuard('jwt')`."""
    node = unwrap(arg)
    if node is not None and node.type in {"new_expression", "call_expression"}:
        field = "constructor" if node.type == "new_expression" else "function"
        node = node.child_by_field_name(field)
    name = dotted_name(mod.sf, node)
    if not name:
        return None
    symbol = lookup_symbol(ctx, mod.rel, name)
    package = package_of(ctx, mod.rel, name.split(".")[0])
    qualifier = symbol.split(":symbol:", 1)[1] if symbol else name
    if qualifier in cache:
        return cache[qualifier]
    defined = ctx.find_node(symbol) if symbol else None
    file, line = (defined.file, defined.line) if defined else (mod.rel, SourceFile.line(arg))
    attrs = {k: v for k, v in {"package": package, "symbol": symbol}.items() if v}
    cache[qualifier] = ctx.add_node("middleware", qualifier, name, file, line, role=kind, **attrs)
    return cache[qualifier]


def path_matches(pattern: str, path: str) -> bool:
    """Nest route-info paths: `articles/:slug`, `cats/*`, `(.*)`; compared without slashes."""
    pattern, path = pattern.strip("/"), path.strip("/")
    regex = re.escape(pattern).replace(r"\*", ".*").replace(r"\(\.\*\)", ".*")
    regex = re.sub(r":\w+", "[^/]+", regex)
    return re.fullmatch(regex, path) is not None or pattern == path
