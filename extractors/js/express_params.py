"""Express apps and routers handed to functions: `require('./routes')(app)`, `mount(app)`,
`registerRoutes(app, router)`. One pass over the calls records which router each parameter
of a function in the component receives, and where (the call site orders the routes the
function registers among the caller's own `use`s); express.py reads it when a registration's
receiver is a parameter. Calls nested two deep are followed by a second pass."""

from __future__ import annotations

import posixpath

from tree_sitter import Node as TsNode

from extractors.js.common import FUNCTION_TYPES, arguments, modules, resolve_local, text, unwrap
from extractors.js.index import call_names
from extractors.js.model import ModuleInfo
from extractors.js.resolve import EXTENSIONS

_DECLARED = {"function_declaration", "generator_function_declaration"}
METHODS = {"get", "post", "put", "patch", "delete", "options", "head", "all"}
_CHAIN = METHODS | {"use", "route"}
_PARAMS = {"app", "router", "server", "api", "routes", "application"}


def bind_parameters(state, mods: list[ModuleInfo]) -> None:
    """Fill `state.passed`: (rel, function start byte, parameter index) -> (key, site)."""
    for _ in range(2):
        for mod in mods:
            for call, fn, dotted in call_names(state.ctx, mod.sf):
                if call.type != "call_expression" or fn is None or (dotted and "." in dotted):
                    continue  # `x.use(...)`, `arr.forEach(...)`: not a function of ours
                if fn.type not in {"identifier", "call_expression"}:
                    continue
                args = arguments(call)
                idents = [
                    (i, a)
                    for i, a in enumerate(args)
                    if a.type == "identifier" and _maybe_router(state, mod, text(mod.sf, a))
                ]
                if not idents:
                    continue
                keys = [(i, state.router_key(mod, a, {})) for i, a in idents]
                keys = [(i, k) for i, k in keys if k]
                target = callee_function(state.ctx, mod, fn, dotted) if keys else None
                if target is None:
                    continue
                site = (mod.rel, call.start_byte, call.end_byte)
                for i, key in keys:
                    state.passed[(target[0].rel, target[1].start_byte, i)] = (key, site)


def _maybe_router(state, mod: ModuleInfo, name: str) -> bool:
    """A cheap filter before evaluating an argument: a router's name, an imported name, or
    a parameter that may hold one."""
    if name in mod.imports or f"{mod.rel}#{name}" in state.routers:
        return True
    return any(key.endswith(f"#{name}") for key in state.routers) or name in _PARAMS


def callee_function(ctx, mod: ModuleInfo, fn: TsNode | None, dotted: str | None):
    """(module, function node) a call invokes, when it is a function of the component."""
    fn = unwrap(fn)
    if (
        fn is not None
        and fn.type == "call_expression"
        and text(mod.sf, fn.child_by_field_name("function")) == "require"
    ):
        spec = next((text(mod.sf, a).strip("'\"`") for a in arguments(fn)), "")
        owner = _required(ctx, mod.rel, spec)
        return _function_in(owner, owner.exports.get("default")) if owner else None
    if not dotted or "." in dotted:
        return None
    found = resolve_local(ctx, mod.rel, dotted)
    owner = modules(ctx).get(found[0]) if found else None
    return _function_in(owner, found[1]) if owner else None


def required_default(ctx, mod: ModuleInfo, call: TsNode) -> tuple[ModuleInfo, TsNode] | None:
    """`require('./routes')` → (module, the chain base of its `module.exports` value)."""
    if (
        call.type != "call_expression"
        or text(mod.sf, call.child_by_field_name("function")) != "require"
    ):
        return None
    spec = next((text(mod.sf, a).strip("'\"`") for a in arguments(call)), "")
    owner = _required(ctx, mod.rel, spec)
    local = owner.exports.get("default") if owner is not None else None
    value = owner.consts.get(local) if owner is not None and local else None
    if value is None:
        return None
    base = chain_base(value)
    return (owner, base) if base is not None else None


def _required(ctx, rel: str, spec: str) -> ModuleInfo | None:
    if not spec.startswith("."):
        return None
    base = posixpath.normpath(posixpath.join(posixpath.dirname(rel), spec))
    mods = modules(ctx)
    for candidate in [
        base,
        *(base + e for e in EXTENSIONS),
        *(f"{base}/index{e}" for e in EXTENSIONS),
    ]:
        if candidate in mods:
            return mods[candidate]
    return None


def _function_in(owner: ModuleInfo, local: str | None):
    if local is None:
        return None
    value = unwrap(owner.consts.get(local))
    if value is not None and value.type in FUNCTION_TYPES:
        return owner, value
    for stmt in owner.sf.tree.root_node.named_children:
        node = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        name = node.child_by_field_name("name") if node is not None else None
        if (
            node is not None
            and node.type in _DECLARED
            and name is not None
            and text(owner.sf, name) == local
        ):
            return owner, node
    return None


def enclosing_functions(node: TsNode):
    parent = node.parent
    while parent is not None:
        if (
            parent.type in FUNCTION_TYPES
            or parent.type in _DECLARED
            or parent.type == "method_definition"
        ):
            yield parent
        parent = parent.parent


def parameter_index(sf, fn: TsNode, name: str) -> int | None:
    params = fn.child_by_field_name("parameters")
    single = fn.child_by_field_name("parameter")
    names = [text(sf, single)] if single is not None else []
    for p in params.named_children if params is not None else []:
        pattern = p.child_by_field_name("pattern") if p.type != "identifier" else p
        names.append(text(sf, pattern) if pattern is not None else "")
    return names.index(name) if name in names else None


def chain_base(node: TsNode | None) -> TsNode | None:
    """`Router().use(a).get(...)` → `Router()`: strip registration calls off a chain."""
    node = unwrap(node)
    while node is not None and node.type == "call_expression":
        fn = node.child_by_field_name("function")
        if fn is None or fn.type != "member_expression":
            return node
        prop = fn.child_by_field_name("property")
        if prop is None or prop.text is None or prop.text.decode() not in _CHAIN:
            return node
        node = unwrap(fn.child_by_field_name("object"))
    return node
