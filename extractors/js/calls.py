"""CALLS_FN for the JS family: each call's callee evaluated by the engine's one evaluator.

Whatever the evaluator follows — imports and re-exports (ES and CommonJS), object-literal
members, class members and instances (`this.m()`, `new K().m()`), wrappers and hooks that
return a function, destructuring — resolves a call too, so no name resolution of its own
lives here. A callee that is a function of the component is an edge from the symbol the call
is written in to the function's symbol (its own, else the engine's name for a nested one:
`<rel>#hook.<locals>.inner`); a class called or constructed is an edge to the class. A local
function of the caller itself is part of the caller (no edge); calls that leave the
component (packages, globals) are not edges. One edge per caller/callee pair and file, at
the first call's line.
"""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.engine.call_edges import emit_call_edges
from extractors.engine.values import Func, Klass, Module, ObjLit, Value
from extractors.js.common import modules
from extractors.js.model import ModuleInfo
from extractors.lang.expr import ECall, EMember, EName
from extractors.shared import CodeSymbols, EngineRun

NAME = "calls"
PROVIDES = (CodeSymbols,)
REQUIRES = (EngineRun,)


def extract(ctx: ComponentContext) -> None:
    analysis = ctx.shared.engine.result
    if analysis is None:
        return
    emitter = analysis.emitter
    ev = emitter.ev
    mods = modules(ctx)
    own: dict[tuple[str, int, int], str | None] = {}  # function/class span -> its symbol
    names = {rel: {i: n for n, i in mod.symbols.items()} for rel, mod in mods.items()}

    def target(value: Value, caller: str) -> str | None:
        if not isinstance(value, (Func, Klass)):
            return None
        site = value.site
        key = (site.rel, site.start, site.end)
        if key not in own:
            own[key] = _own_symbol(ev, mods.get(site.rel), site)
        found = own[key]
        if found is not None:
            return found
        if not isinstance(value, Func) or _local_to(ev, mods.get(site.rel), site, caller):
            return None
        return emitter.symbol_for(value)  # a function returned or handed over from another

    def pairs_of(rel: str, mod: ModuleInfo, a, call) -> list[tuple[str, str | None]]:
        view = a.call_view(call)
        if view is None or _outside(a, mod, view.callee):
            return []
        caller = mod.enclosing(call.start_byte)
        found = target(ev.eval(rel, view.callee, None), caller)
        if found is not None:  # the member as the caller names it: an alias symbol
            found = _named_member(ev, mods, names, rel, view.callee) or found
        return [
            (caller, found if found is not None else _through_symbol(ctx, ev, rel, view.callee))
        ]

    emit_call_edges(ctx, mods, ev, pairs_of)


_CHAIN = {"member_expression": "object", "call_expression": "function", "new_expression": "constructor",
          "subscript_expression": "object", "non_null_expression": None, "parenthesized_expression": None,
          "await_expression": None, "as_expression": None}  # fmt: skip


def _outside(a, mod: ModuleInfo, callee) -> bool:
    """The callee is a member chain read off a package import or a global (`axios.post`,
    `console.log`), or off a literal (`[…].map`): nothing of the component, so not
    evaluated. A chain through a call is (`inject(Store).load`, `require('./m')(db)`)."""
    node, through_call = callee, False
    while node is not None and node.type in _CHAIN:
        field = _CHAIN[node.type]
        through_call |= node.type in ("call_expression", "new_expression")
        node = node.child_by_field_name(field) if field else node.named_child(0)
    if node is None or node.type in ("this", "super"):
        return False
    if node.type != "identifier":
        return True
    if through_call:
        return False
    name = a.text(node)
    binding = mod.imports.get(name)
    if binding is not None:
        return binding.target is None
    return name not in mod.consts and name not in mod.symbols and a.resolve(name, node) is None


def _named_member(ev, mods, names, rel: str, callee) -> str | None:
    """`svc.create()` where `svc` is an object literal with a symbol of its own: the member
    symbol `svc.create` (`export const svc = { create }` makes it an alias of `create`)."""
    a = ev.program.adapter(rel)
    view = a.view(a.unwrap(callee))
    if not isinstance(view, EMember):
        return None
    obj = ev.eval(rel, view.obj, None)
    mod = mods.get(obj.site.rel) if isinstance(obj, ObjLit) else None
    span = mod.innermost(obj.site.start) if mod is not None else None
    name = names[obj.site.rel].get(span[2]) if span is not None else None
    return mod.symbols.get(f"{name}.{view.name}") if name else None


def _own_symbol(ev, mod: ModuleInfo | None, site) -> str | None:
    """The symbol a function or class is the body of: the innermost symbol around it, when
    no other function lies between them (else None: it is nested in that symbol's code)."""
    if mod is None:
        return None
    span = mod.innermost(site.start)
    if span is None:
        return None
    start, _end, node_id = span
    a = ev.program.adapter(site.rel)
    node = a.node_at(site) if a is not None else None
    outer = a.function_at(node) if node is not None else None
    if outer is not None and outer.start_byte >= start:
        return None
    return node_id


def _local_to(ev, mod: ModuleInfo | None, site, caller: str) -> bool:
    """The function is written inside the caller's own code (a local helper)."""
    return mod is not None and mod.enclosing(site.start) == caller


def _through_symbol(ctx: ComponentContext, ev, rel: str, callee) -> str | None:
    """A callee the models leave opaque, read through a module-level name that is a symbol:
    the name itself (`const send = httpsCallable(fns, 'send'); send()`), or a member symbol
    of it or of what calling it made (`const useCart = defineStore('cart', {actions: {add()
    {}}})`; `const cart = useCart(); cart.add()`), or an export of a module read as a
    namespace (`import * as model from './model'; model.saved()`)."""
    mods = modules(ctx)
    a = ev.program.adapter(rel)
    view = a.view(a.unwrap(callee))
    if isinstance(view, EName):
        found = _symbol_named(ctx, ev, rel, callee)
        return mods[found[0]].symbols[found[1]] if found else None
    if not isinstance(view, EMember):
        return None
    receiver, where = a.unwrap(view.obj), rel
    held = a.view(receiver)
    namespace = ev.eval(rel, receiver, None)
    if isinstance(namespace, Module):
        declared = ev.program.exported_declaration(namespace.rel, view.name)
        if declared is None or declared[1].path or declared[0] not in mods:
            return None
        return mods[declared[0]].symbols.get(declared[1].name)
    if isinstance(held, EName):
        found = _symbol_named(ctx, ev, rel, receiver)
        if found is not None:
            return mods[found[0]].symbols.get(f"{found[1]}.{view.name}")
        declared = ev.program.declaration(rel, held.name, receiver)
        if declared is None or declared[1].path or declared[1].value is None:
            return None
        where, receiver = declared[0], declared[1].value
        b = ev.program.adapter(where)
        held = b.view(b.unwrap(receiver)) if b is not None else None
    if not isinstance(held, ECall):
        return None
    found = _symbol_named(ctx, ev, where, held.callee)
    return mods[found[0]].symbols.get(f"{found[1]}.{view.name}") if found else None


def _symbol_named(ctx: ComponentContext, ev, rel: str, node) -> tuple[str, str] | None:
    """(file, name) of the module-level declaration with a symbol that the name `node` reads,
    across imports."""
    mods = modules(ctx)
    a = ev.program.adapter(rel)
    view = a.view(a.unwrap(node)) if a is not None else None
    if not isinstance(view, EName):
        return None
    declared = ev.program.declaration(rel, view.name, node)
    if declared is None or declared[1].path:
        return None
    file, binding = declared
    mod = mods.get(file)
    if mod is None or binding.scope.parent is not None or binding.name not in mod.symbols:
        return None
    return file, binding.name
