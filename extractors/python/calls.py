"""CALLS_FN for Python: each call's callee evaluated by the engine's one evaluator, as
`js/calls.py` does for the JS family.

Whatever the evaluator follows resolves a call too: imports and re-exports, `self.m()`
through base classes, instances kept in attributes (`self._repo = Repo(db)` then
`self._repo.get()`), classes kept in class attributes (`serializer_class`), a class chosen
from a table (`settings[env]()`), `cls(...)` in a classmethod, a function handed over or
returned. A callee that is a function of the component is an edge from the symbol the call
is written in (or the code_file, for module-level code) to the function's symbol; a class
called is an edge to the class. A function nested in the caller itself is part of it (no
edge); one nested elsewhere and reached from outside gets the engine's name for it
(`<rel>#outer.<locals>.inner`). One edge per caller/callee pair and file, at the first call.

ORM rows are the ORM models' (`models/orm/`: `Model.query…first()`, `Model.objects.get()`,
`get_object_or_404(…)`, a base built from `SQLAlchemy(model_class=…)`). Where the evaluator
still finds no function of the component, the type inference of `python.infer` (through
`python.symbols`' resolver) reads the call as it did before: what it knows that no model
says yet is a user loader's `current_user` (flask-login, flask-jwt-extended), SQLAlchemy
`relationship("Model")` attributes and their backrefs, and pytest fixtures passed by name.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.engine.values import Choice, Func, Klass, Value
from extractors.python.model import PyModule
from extractors.python.values import Values, enclosing_function
from extractors.shared import CodeSymbols, EngineRun, PyModules
from extractors.source import SourceFile

NAME = "python_calls"
PROVIDES = (CodeSymbols,)
REQUIRES = (EngineRun, PyModules)


def extract(ctx: ComponentContext) -> None:
    analysis = ctx.shared.engine.result
    mods = ctx.shared.py.modules
    resolver = ctx.shared.py.resolver
    if analysis is None or not mods or resolver is None:
        return
    emitter = analysis.emitter
    ev = emitter.ev
    own: dict[tuple[str, int, int], str | None] = {}  # function/class span -> its symbol

    def targets(value: Value, caller: str) -> list[str]:
        out = []
        for option in value.options if isinstance(value, Choice) else (value,):
            if not isinstance(option, (Func, Klass)) or option.site.rel not in mods:
                continue
            site = option.site
            key = (site.rel, site.start, site.end)
            if key not in own:
                own[key] = _own_symbol(mods[site.rel], option)
            found = own[key]
            nested = found is None and isinstance(option, Func) and bool(option.name)
            if nested and mods[site.rel].enclosing(site.start) != caller:  # not the caller's
                found = emitter.symbol_for(option)
            if found is not None and found not in out:
                out.append(found)
        return out

    for rel in sorted(mods):
        mod = mods[rel]
        a = ev.program.adapter(rel)
        if a is None:
            continue
        seen: set[tuple[str, str]] = set()
        resolved: dict[str, str | None] = {}  # the resolver's answer per dotted name
        for call in a.calls():
            fn = call.child_by_field_name("function")
            if fn is None:
                continue
            caller = mod.enclosing(call.start_byte)
            callees = targets(ev.eval(rel, fn, None), caller)
            if not callees:
                found = _inferred(resolver, mod, fn, caller, resolved)
                callees = [found] if found is not None else []
            for callee in callees:
                if callee == caller or (caller, callee) in seen:
                    continue
                seen.add((caller, callee))
                ctx.add_edge(caller, callee, "CALLS_FN", rel, SourceFile.line(fn))


def _own_symbol(mod: PyModule, value: Func | Klass) -> str | None:
    """The symbol a function or class is the definition of (a module-level function or
    class, a method): the innermost symbol at its start, when it bears the value's name."""
    symbol = mod.enclosing(value.site.start)
    if symbol == mod.file_id:
        return None
    name = symbol.rsplit("#", 1)[-1]
    return symbol if name.rsplit(".", 1)[-1] == value.name else None


def _inferred(resolver, mod: PyModule, fn: TsNode, caller: str, resolved: dict) -> str | None:
    """The callee as `python.symbols`' resolver and `python.infer` name it: `self.m()` in a
    method, a dotted name through imports, a method of a receiver's inferred class."""
    if fn.type not in {"identifier", "attribute"}:
        return None
    dotted = mod.sf.node_text(fn)
    callee = None
    if dotted.startswith("self.") and "#" in caller:
        cls = caller.split("#", 1)[1].split(".")[0]
        callee = mod.symbols.get(f"{cls}.{dotted[5:]}")
    elif "(" not in dotted and "[" not in dotted:
        if dotted not in resolved:
            resolved[dotted] = resolver.symbol(mod.rel, dotted)
        callee = resolved[dotted]
    if callee is None and fn.type == "attribute":
        callee = _typed_method(resolver.values, mod.rel, fn)
    return callee


def _typed_method(values: Values, rel: str, node: TsNode) -> str | None:
    """`repo.get(...)`, `self.save()`, `User(...).save()`: the method of the receiver's class
    (through its base classes), the receiver typed by `values.type_of`."""
    obj = node.child_by_field_name("object")
    fn = enclosing_function(node)
    if obj.type in {"identifier", "attribute"}:  # same receiver text, same function: same type
        key = (rel, fn.id if fn is not None else -1, obj.text)
        cls = values.receivers[key] if key in values.receivers else values.type_of(rel, obj, fn)
        values.receivers[key] = cls
    else:
        cls = values.type_of(rel, obj, fn)
    if cls is None:
        return None
    return values.method(cls, values.text(rel, node.child_by_field_name("attribute")))
