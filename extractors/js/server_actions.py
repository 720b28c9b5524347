"""Next.js / React server actions: the calls a form makes without an HTTP call in the code.

- A module whose first statement is the `"use server"` directive: each exported function's
  symbol gets attr `server_action=True` (a function with the directive as its own first
  statement too).
- `<form action={fn}>`, `<button formAction={fn}>` and `useActionState(fn, ...)` /
  `useFormState(fn, ...)`: the enclosing symbol CALLS_FN the function `fn` names, at the
  attribute's (or hook call's) line, attr `via` ("form action", "formAction",
  "useActionState"). With the action's own CALLS_FN edges a trace goes from the form to the
  data access behind it.
"""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.engine.values import Func
from extractors.js.common import arguments, js_files, modules, text, unwrap
from extractors.js.model import ModuleInfo
from extractors.lang.files import js_adapter_of
from extractors.shared import EngineRun, JsSymbols
from extractors.source import SourceFile, matches

NAME = "server_actions"
PROVIDES = ()
REQUIRES = (JsSymbols, EngineRun)
_ATTRS = {"action": "form action", "formAction": "formAction"}
_HOOKS = {"useActionState", "useFormState"}
_JSX_QUERY = """
(jsx_attribute (property_identifier) @name (jsx_expression (identifier) @value)) @attr
"""


def extract(ctx: ComponentContext) -> None:
    mods = modules(ctx)
    nodes = {n.id: n for n in ctx.facts.nodes if n.kind == "symbol"}
    for sf in js_files(ctx):
        mod = mods.get(sf.rel)
        if mod is None:
            continue
        if b"use server" in sf.data:
            _mark(ctx, mod, nodes)
        edges: set[tuple[str, str]] = set()
        if sf.language in {"javascript", "tsx"} and b"ction={" in sf.data:
            for _, m in matches(sf.language, _JSX_QUERY, sf.tree.root_node):
                via = _ATTRS.get(text(sf, m["name"][0]))
                if via:
                    _call(ctx, mod, m["attr"][0], m["value"][0], via, edges)
        if b"Stat" in sf.data:
            for call, _, dotted in js_adapter_of(ctx, sf).call_names:
                args = arguments(call) if dotted in _HOOKS else []
                first = unwrap(args[0]) if args else None
                if first is not None and first.type == "identifier":
                    _call(ctx, mod, call, first, str(dotted), edges)


def _call(ctx, mod: ModuleInfo, at, name, via: str, edges: set) -> None:
    """An edge to the function the name `name` (a node) evaluates to, across imports."""
    analysis = ctx.shared.engine.result
    if analysis is None:
        return
    value = analysis.emitter.ev.eval(mod.rel, name, None)
    callee = analysis.emitter.symbol_for(value) if isinstance(value, Func) else None
    caller = mod.enclosing(at.start_byte)
    if callee is None or callee == caller or (caller, callee) in edges:
        return
    edges.add((caller, callee))
    ctx.add_edge(caller, callee, "CALLS_FN", mod.rel, SourceFile.line(at), via=via)


def _directive(sf: SourceFile, body) -> bool:
    first = next((c for c in body.named_children if c.type != "comment"), None) if body else None
    if first is None or first.type != "expression_statement" or not first.named_children:
        return False
    string = first.named_children[0]
    return string.type == "string" and text(sf, string)[1:-1] == "use server"


def _mark(ctx, mod: ModuleInfo, nodes: dict) -> None:
    sf = mod.sf
    if _directive(sf, sf.tree.root_node):
        for exported, local in mod.exports.items():
            symbol = mod.symbols.get(local) or mod.symbols.get(exported)
            if symbol in nodes:
                nodes[symbol].attrs["server_action"] = True
    for fn in js_adapter_of(ctx, sf).lambdas():
        if _directive(sf, fn.child_by_field_name("body")):
            symbol = mod.enclosing(fn.start_byte)
            if symbol in nodes:
                nodes[symbol].attrs["server_action"] = True
