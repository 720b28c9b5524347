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

What a library hands back is its model's: ORM rows (`models/orm/`: `Model.query…first()`,
`Model.objects.get()`, `get_object_or_404(…)`, relationships and their backrefs, a base
built from `SQLAlchemy(model_class=…)`), a user loader's `current_user` (flask-login,
flask-jwt-extended), a pytest fixture passed by name (`models/test/`). Annotations type a
parameter (`repo: "BookRepo"`, `Optional[User]`). There is no second resolver.
"""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.engine.call_edges import emit_call_edges
from extractors.engine.values import Choice, Func, Klass, Value
from extractors.python.model import PyModule
from extractors.shared import CodeSymbols, EngineRun, PyModules

NAME = "python_calls"
PROVIDES = (CodeSymbols,)
REQUIRES = (EngineRun, PyModules)


def extract(ctx: ComponentContext) -> None:
    analysis = ctx.shared.engine.result
    mods = ctx.shared.py.modules
    if analysis is None or not mods:
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

    def pairs_of(rel: str, mod: PyModule, a, call) -> list[tuple[str, str]]:
        fn = call.child_by_field_name("function")
        if fn is None:
            return []
        caller = mod.enclosing(call.start_byte)
        return [(caller, callee) for callee in targets(ev.eval(rel, fn, None), caller)]

    emit_call_edges(ctx, mods, ev, pairs_of)


def _own_symbol(mod: PyModule, value: Func | Klass) -> str | None:
    """The symbol a function or class is the definition of (a module-level function or
    class, a method): the innermost symbol at its start, when it bears the value's name."""
    symbol = mod.enclosing(value.site.start)
    if symbol == mod.file_id:
        return None
    name = symbol.rsplit("#", 1)[-1]
    return symbol if name.rsplit(".", 1)[-1] == value.name else None
