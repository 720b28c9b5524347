"""A library global that stands for what a function the component registers returns
(`current_user` of flask-login and flask-jwt-extended: the user loader's result), a model's
`proxies:`. The registering method is called with the function (`jwt.user_lookup_loader(f)`)
or decorates it (`@login_manager.user_loader`); the global's value is what those functions
return, called with nothing known."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.values import Func, Value, choice

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator


def registered_result(ev: Evaluator, loaders: tuple[str, ...]) -> Value | None:
    program = ev.program
    marks = [name.encode() for name in loaders]
    found: list[Func] = []
    for rel in program.rels():
        a = program.adapter(rel)
        if a is None or not any(mark in a.sf.data for mark in marks):
            continue
        decorators = set()
        for decorator, target in a.decorated():  # `@login_manager.user_loader`
            callee, _ = a.decorator_callee(decorator)
            decorators.add(decorator.id)
            if a.terminal(callee) in loaders and a.is_function(target):
                found.append(Func(a.site(target), None, None, a.function(target).name))
        for call in a.calls():  # `jwt.user_loader_callback_loader(load_user)`
            view = a.call_view(call)
            if view is None or not view.args or call.id in decorators:
                continue
            if a.terminal(view.callee) in loaders:
                value = ev.eval(rel, view.args[0], None)
                if isinstance(value, Func):
                    found.append(value)
    outs = [out for fn in found for out in ev.apply(fn, [])[0]]
    return choice(outs) if outs else None
