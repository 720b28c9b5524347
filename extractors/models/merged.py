"""A library object whose members are copied in from other objects by a call (Flask's
`app.config.from_object(Settings)` — or its import name, `from_object("pkg.settings.Prod")` —
/ `from_mapping({...})` / `update(...)`): a model says
`reads: {app.config: merged}` and names those calls with a `merge: {from: arg0}` action.
A member read is what such a source has under that name (the last call first), else a
`Config` hole named by the key — never the object itself read as a path."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.values import Config, Lit, Method, Obj, Unknown, Value

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator


def merged_member(ev: Evaluator, lib, obj: Obj, name: str) -> Value:
    for source in reversed(_sources(ev, lib, obj)):
        value = ev.member(source, name, "", None, 1)
        if (
            not isinstance(value, (Unknown, Method, Obj))
            and value is not None
            and value != Lit(None)
        ):
            return value
    return Config(name, obj.model, None)


def _sources(ev: Evaluator, lib, obj: Obj) -> list[Value]:
    cache = lib.__dict__.setdefault("_merge_sources", {})
    key = (id(ev), obj.model, obj.role, obj.origin)
    if key in cache:
        return cache[key]
    cache[key] = []  # while reading: a source that reads the object back finds nothing
    names = {n for (model, role, n), ops in lib.ops.items()
             if (model, role) == (obj.model, obj.role) and any(o.action == "merge" for o in ops)}  # fmt: skip
    found: list[Value] = []
    program = ev.program
    for rel in program.rels():
        a = program.adapter(rel)
        if a is None or not any(n.encode() in a.sf.data for n in names):
            continue
        for node in a.calls():
            view = a.call_view(node)
            if view is None or a.terminal(view.callee) not in names or not view.args:
                continue
            callee = ev.eval(rel, view.callee, None)
            if not (isinstance(callee, Method) and callee.target == obj):
                continue
            source = ev.eval(rel, view.args[0], None)
            if isinstance(source, Lit) and isinstance(source.value, str):  # an import name
                source = ev.program.import_name(ev, source.value) or source
            found.append(source)
    cache[key] = found
    return found
