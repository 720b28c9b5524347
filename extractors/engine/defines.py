"""Bundler defines: names a build replaces with a value (webpack `DefinePlugin`, Vite
`define`, `@rollup/plugin-replace`), read before anything is evaluated so that a global
`__API_URL__` the code reads is what the build config gives it — `JSON.stringify(process.env
.API_URL)` makes it the env var `API_URL`, `'"/api"'` the text `/api`. The models say which
calls carry such a table (`defines: {table: …}`, models/config/bundler-define.yaml)."""

from __future__ import annotations

import json

from extractors.engine.values import Lit, ObjLit, Value
from extractors.lang.expr import ECall, EObject

NAME_OK = str.isidentifier


def collect_defines(ev, interp) -> dict[str, Value]:
    """name -> value of every define table a model recognises in the component."""
    from extractors.engine.events import DefineEvent

    makers = {name for name in interp.lib.define_makers}
    out: dict[str, Value] = {}
    if not makers:
        return out
    for rel in ev.program.rels():
        a = ev.program.adapter(rel)
        for node in a.calls() if a is not None else ():
            view = a.call_view(node)
            if view is None or a.terminal(view.callee) not in makers:
                continue
            events, _ = interp.at_call(rel, a, node, None)
            for event in events:
                if isinstance(event, DefineEvent) and isinstance(event.table, ObjLit):
                    out.update(_entries(ev, event.table))
    return out


def _entries(ev, table: ObjLit) -> dict[str, Value]:
    b = ev.program.adapter(table.site.rel)
    node = b.node_at(table.site) if b is not None else None
    view = b.view(node) if node is not None else None
    if not isinstance(view, EObject):
        return {}
    out: dict[str, Value] = {}
    for entry in view.entries:
        if not entry.key or not NAME_OK(entry.key):
            continue  # `'process.env.X'`: the env read stays an env read
        out[entry.key] = _defined(ev, table.site.rel, b, entry.value)
    return out


def _defined(ev, rel: str, a, node) -> Value:
    """The value code sees for a define: its source text as an expression."""
    call = a.view(node)
    if isinstance(call, ECall) and " ".join(a.text(call.callee).split()) == "JSON.stringify":
        return ev.eval(rel, call.args[0], None) if call.args else Lit(None)
    value = ev.eval(rel, node, None)
    if isinstance(value, Lit) and isinstance(value.value, str):
        try:
            decoded = json.loads(value.value)
        except ValueError:
            return value
        return Lit(decoded) if isinstance(decoded, (str, int, float, bool)) else value
    return value
