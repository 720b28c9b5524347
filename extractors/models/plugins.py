"""Plugins a framework installs (`Vue.use(VueAxios, axios)`, `app.use(plugin, options)`):
an operation's `install: {plugin: arg0}` hands the call to the plugin object's `<install>`
operations, whose `globals:` name the members every component instance gets and which of
the call's arguments each is (vue-axios: `axios` and `$http`)."""

from __future__ import annotations

from typing import Any

from extractors.engine.evaluate import Call, Evaluator
from extractors.engine.values import Method, Obj, Value


def installed_globals(ev: Evaluator, library: Any, source: type) -> dict[str, Value]:
    """`library`: the models' Library; `source`: its CallSource (selectors over a call)."""
    CallSource = source  # noqa: N806

    names = {n for (_, _, n), ops in library.ops.items() if any(o.action == "install" for o in ops)}
    out: dict[str, Value] = {}
    program = ev.program
    for rel in program.rels() if names else ():
        a = program.adapter(rel)
        for node in a.calls() if a is not None else ():
            view = a.call_view(node)
            if view is None or a.terminal(view.callee) not in names:
                continue
            callee = ev.eval(rel, view.callee, None)
            if not (isinstance(callee, Method) and isinstance(callee.target, Obj)):
                continue
            call = Call(ev, rel, node, view, None, callee, callee.target)
            src = CallSource(ev, call, callee.target)
            for op in library.operations(callee.target, callee.name):
                if op.action != "install":
                    continue
                plugin = src.select(op.spec.get("plugin"))
                plugin = plugin if isinstance(plugin, Obj) else library.claim(plugin)
                for sub in library.operations(plugin, "<install>") if plugin is not None else ():
                    for name, selector in sub.spec.items() if sub.action == "globals" else ():
                        value = src.select(selector)
                        if value is not None:
                            out[name] = value
    return out
