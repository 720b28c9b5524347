"""Cloud Functions for Firebase (models/server/firebase-functions.yaml): a function is a
trigger the code exports (`export const api = onRequest(opts, app)`, `exports.x =
functions.https.onRequest(…)`); deploying serves an HTTPS function at `/<export name>`.

- `firebase_function`: the exported symbol gets its trigger (`onRequest`,
  `https.onRequest`, `auth.user.onCreate`, `onDocumentCreated`), `firebase_gen` (1 | 2), the
  `resource` it listens to, `region`, `secrets` and `function_name`. An HTTPS trigger
  (`data.methods`: onRequest answers every method, onCall is POSTed) is also a route on the
  function's own object (its path `/<name>`); when it wraps an app or router of a server
  model, that app's routes are served under the function's path too, and stay served as
  they are (a hosting rewrite reaches the app with the request path unchanged).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.events import Event, MountEvent, RouteEvent, SymbolEvent
from extractors.engine.values import ArrLit, Lit, Obj, ObjLit, Value

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation

SKIP = {"region", "runWith"}  # chained options, not part of a trigger's name


def firebase_function(interp: Interpreter, op: Operation, obj: Obj, call: Call,
                      src: CallSource) -> list[Event]:  # fmt: skip
    a = interp.ev.program.adapter(call.rel)
    exported = _exported(interp, call) if a is not None else None
    if exported is None:
        return []  # a function nobody exports is not deployed
    name, local, holder = exported
    trigger, gen, chain = _trigger(interp, call)
    attrs: dict = {"trigger": trigger, "firebase_gen": gen, "function_name": name}
    attrs |= _options(interp, call, chain, op.data)
    events: list[Event] = [
        SymbolEvent(obj.model, name, local, a.site(holder), tuple(attrs.items()))
    ]
    method = (op.data.get("methods") or {}).get(src.method_name() or trigger.rsplit(".", 1)[-1])
    if method is None:
        return events
    fn = Obj(obj.model, "function", a.site(holder), (("path", Lit(f"/{name}")),))
    handler = src.select(op.spec.get("handler"))
    extra = (("function", name), ("trigger", trigger))
    if method == "POST":
        extra += (("callable", True),)
    events.append(RouteEvent(obj.model, fn, Lit(method), Lit(""), handler, (), call.site,
                             attrs=extra))  # type: ignore[arg-type]  # fmt: skip
    if isinstance(handler, Obj) and interp.lib.holds_routes(handler):
        events.append(MountEvent(obj.model, fn, handler, None, (), call.site, shared=True))
    return events


def _exported(interp: Interpreter, call: Call):
    """(exported name, local name, the declaring node) of the export this call is."""
    a = interp.ev.program.adapter(call.rel)
    mod = interp.ev.program.js.get(call.rel)
    node = call.node
    parent = node.parent
    while parent is not None and parent.type in ("parenthesized_expression", "await_expression"):
        node, parent = parent, parent.parent
    if parent is None or mod is None or a is None:
        return None
    if parent.type == "variable_declarator" and parent.child_by_field_name("value") == node:
        local = a.text(parent.child_by_field_name("name"))
        names = [e for e, name in mod.exports.items() if name == local]
        return (names[0], local, node) if names else None
    if parent.type == "assignment_expression":  # `exports.api = …`, `module.exports.api = …`
        left = " ".join(a.text(parent.child_by_field_name("left")).split())
        if left.startswith(("exports.", "module.exports.")) and left.count(".") <= 2:
            name = left.rsplit(".", 1)[1]
            return name, name, parent.parent or parent
    return None


def _trigger(interp: Interpreter, call: Call) -> tuple[str, int, list]:
    """(`auth.user.onCreate`, generation, the calls of the chain) from the callee as
    written, read back to the import it starts from."""
    a = interp.ev.program.adapter(call.rel)
    names: list[str] = []
    calls = []
    node = call.node
    while node is not None:
        if node.type == "call_expression":
            calls.append(node)
            node = node.child_by_field_name("function")
        elif node.type == "member_expression":
            names.append(a.text(node.child_by_field_name("property")))
            node = node.child_by_field_name("object")
        elif node.type == "parenthesized_expression" and node.named_children:
            node = node.named_children[0]
        else:
            break
    root = a.text(node) if node is not None and node.type == "identifier" else ""
    mod = interp.ev.program.js.get(call.rel)
    binding = mod.imports.get(root) if mod is not None else None
    spec = binding.spec if binding is not None else ""
    imported = binding.imported if binding is not None else "*"
    named = imported not in ("*", "default")
    parts = ([imported] if named else []) + [n for n in reversed(names) if n not in SKIP]
    v2 = "/v2" in spec or (named and not names)
    return ".".join(parts), 2 if v2 else 1, calls


def _options(interp: Interpreter, call: Call, chain: list, data: dict) -> dict:
    """region, secrets and the resource (document path, schedule, topic …), from the
    options object, the chained calls (`.region('x')`, `.document('y')`) or a first text
    argument (v2: `onDocumentCreated('x/{id}', …)`)."""
    ev = interp.ev
    a = ev.program.adapter(call.rel)
    out: dict = {}
    keys = tuple(data.get("resource_options", ()))
    for node in reversed(chain[1:]):  # the inner calls of the chain, outermost last
        callee = node.child_by_field_name("function")
        prop = (
            callee.child_by_field_name("property") if callee.type == "member_expression" else None
        )
        view = a.call_view(node)
        value = (
            ev.eval(call.rel, view.args[0], call.act) if view is not None and view.args else None
        )
        word = a.text(prop) if prop is not None else ""
        if isinstance(value, Lit) and isinstance(value.value, str):
            if word == "region":
                out["region"] = value.value
            elif word in keys:
                out["resource"] = value.value
    first = call.arg(0)
    if isinstance(first, Lit) and isinstance(first.value, str):
        out["resource"] = first.value
    options = next((v for v in call.args() if isinstance(v, ObjLit)), None)
    if options is not None:
        for key in keys:
            value = _text(ev.object_member(options, key, 1))
            if value is not None:
                out["resource"] = value
        region = _text(ev.object_member(options, "region", 1))
        if region is not None:
            out["region"] = region
        secrets = ev.object_member(options, "secrets", 1)
        if isinstance(secrets, ArrLit):
            out["secrets"] = sorted(t for v in secrets.items if (t := _text(v)) is not None)
    return out


def _text(value: Value | None) -> str | None:
    return value.value if isinstance(value, Lit) and isinstance(value.value, str) else None


HOOKS = {"firebase_function": firebase_function}
