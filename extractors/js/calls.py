"""Call resolution for the JS family: which symbol a call expression names, and CALLS_FN.

Follows local symbols, imports (named, default, namespace `ns.fn`), re-exports, object-literal
members and their aliases (`svc.fn`), chains through object literals naming module objects
(`agent.Articles.create`), `this.method()` inside classes, and instances
(`const s = useStore(); s.load()`, `new Store().load()` via a local or top-level const).
Calls that leave the component (packages, globals) are not edges.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.js.common import (
    dotted_name,
    lookup_symbol,
    modules,
    object_props,
    resolve_export,
    resolve_local,
    symbol_in,
    text,
    unwrap,
)
from extractors.js.index import call_names, file_index, local_value
from extractors.js.model import CallSite, ModuleInfo
from extractors.source import SourceFile

_CALLBACK_METHODS = {"map", "filter", "forEach", "then", "catch", "finally", "reduce", "some"}
_CALLBACK_METHODS |= {"every", "find", "sort", "flatMap", "findIndex", "replace"}


def anonymous_handlers(ctx, mod: ModuleInfo) -> None:
    """Functions passed to a module-level call (route handlers, lifecycle hooks) get a symbol."""
    sf = mod.sf
    if sf.virtual_of is not None:
        return  # Vue: hooks like onMounted(() => ...) belong to the component
    mod.seal()
    last_end = -1
    for fn in file_index(ctx, sf).functions:
        if fn.start_byte < last_end or fn.parent is None or fn.parent.type != "arguments":
            continue
        if mod.enclosing(fn.start_byte) != mod.owner_id:
            continue
        callee = fn.parent.parent.child_by_field_name("function") if fn.parent.parent else None
        prop = (
            callee.child_by_field_name("property")
            if callee is not None and callee.type == "member_expression"
            else None
        )
        if prop is not None and text(sf, prop) in _CALLBACK_METHODS:
            continue
        line, col = fn.start_point[0] + 1, fn.start_point[1] + 1
        node_id = ctx.add_node(
            "symbol", f"{mod.rel}#<anonymous>@{line}:{col}", "<anonymous>", mod.rel, line,
            SourceFile.end_line(fn), exported=False, symbol_kind="anonymous",
        )  # fmt: skip
        ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, line)
        mod.anonymous[fn.start_byte] = node_id
        mod.add_range(fn.start_byte, fn.end_byte, node_id)
        last_end = fn.end_byte


def resolve_callee(
    ctx: ComponentContext, mod: ModuleInfo, fn: TsNode | None, caller: str
) -> str | None:
    """The symbol a call's function expression names, following imports and instances."""
    return _resolve(ctx, mod, fn, dotted_name(mod.sf, fn), caller, None)


def _resolve(
    ctx: ComponentContext,
    mod: ModuleInfo,
    fn: TsNode | None,
    dotted: str | None,
    caller: str,
    memo: dict[str, str | None] | None,
) -> str | None:
    """resolve_callee with the dotted name given; `memo` caches lookup_symbol per name
    (valid while the module tables do not change, i.e. within one add_calls)."""
    if dotted is None:
        return None
    sf = mod.sf
    parts = dotted.split(".")
    if parts[0] == "this" and len(parts) == 2:
        owner = caller.rsplit("#", 1)[-1].rsplit(".", 1)[0]
        return mod.symbols.get(f"{owner}.{parts[1]}")
    if len(parts) > 2:
        return member_chain(ctx, mod.rel, parts) if parts[0] != "this" else None
    if memo is None:
        found = lookup_symbol(ctx, mod.rel, dotted)
    elif dotted in memo:
        found = memo[dotted]
    else:
        found = memo[dotted] = lookup_symbol(ctx, mod.rel, dotted)
    if found is not None or len(parts) == 1:
        return found
    if parts[0] in mod.imports:
        return None
    value = local_value(ctx, sf, fn, parts[0]) if fn is not None else None
    value = unwrap(value or mod.consts.get(parts[0]))  # `const store = useStore(); store.x()`
    if value is not None and value.type in {"call_expression", "new_expression"}:
        ctor = value.child_by_field_name(
            "function" if value.type == "call_expression" else "constructor"
        )
        name = dotted_name(sf, ctor)
        where = resolve_local(ctx, mod.rel, name) if name and "." not in name else None
        if where is not None:
            owner = modules(ctx).get(where[0])
            return owner.symbols.get(f"{where[1]}.{parts[1]}") if owner else None
    return None


def member_chain(ctx: ComponentContext, rel: str, parts: list[str]) -> str | None:
    """`agent.Articles.create` → the symbol `Articles.create`: each middle name a property of
    an object literal (`export default { Articles }`, `const api = { users: Users }`) whose
    value names a module-level object, followed across imports."""
    found = resolve_local(ctx, rel, parts[0])
    mod = modules(ctx).get(rel)
    binding = mod.imports.get(parts[0]) if mod is not None else None
    if found is None and binding is not None and binding.imported == "*" and binding.target:
        found = resolve_export(ctx, binding.target, parts[1])  # `import * as ns`: ns.obj.m()
        parts = parts[1:]
    for part in parts[1:-1]:
        mod = modules(ctx).get(found[0]) if found else None
        value = unwrap(mod.consts.get(found[1])) if mod and found else None
        if mod is None or found is None or value is None or value.type != "object":
            return None
        prop = unwrap(object_props(mod.sf, value).get(part))
        if prop is None or prop.type not in {"identifier", "shorthand_property_identifier"}:
            return None
        found = resolve_local(ctx, mod.rel, text(mod.sf, prop))
    return symbol_in(ctx, found[0], f"{found[1]}.{parts[-1]}") if found else None


def add_calls(ctx: ComponentContext, mod: ModuleInfo, calls: list[CallSite]) -> None:
    """CALLS_FN edges (first call line per caller/callee pair) and the resolved CallSites."""
    sf = mod.sf
    seen: set[tuple[str, str]] = set()
    memo: dict[str, str | None] = {}
    # Results that depend on the name alone: one-part names, and `a.b` when no local
    # `a = ...` exists in the file (only `this.x` and locals depend on where the call is).
    settled: dict[str, str | None] = {}
    decls = file_index(ctx, sf).decls
    enclosing = mod.enclosing
    for call, fn, dotted in call_names(ctx, sf):
        if dotted is None:
            continue
        if dotted in settled:
            callee = settled[dotted]
            if callee is None:
                continue
            caller = enclosing(call.start_byte)
        else:
            caller = enclosing(call.start_byte)
            callee = _resolve(ctx, mod, fn, dotted, caller, memo)
            head, dot, _ = dotted.partition(".")
            if not dot or (head != "this" and head not in decls):
                settled[dotted] = callee
        if callee is None:
            continue
        calls.append(CallSite(mod.rel, call, caller, callee))
        if callee != caller and (caller, callee) not in seen:
            seen.add((caller, callee))
            ctx.add_edge(caller, callee, "CALLS_FN", mod.rel, SourceFile.line(call))
