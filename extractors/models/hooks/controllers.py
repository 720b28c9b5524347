"""Routers that name their handlers instead of passing them, and that register routes
for what is written inside a function or by one call (AdonisJS, Egg, and other
Laravel/Rails-style routers):

- `controller_route`: a route whose handler is a controller reference — a string
  `'UsersController.store'` (the class named by the file it is exported from, below the
  folders the operation's `data.controllers` lists), `[UsersController, 'store']` (a
  class, or a lazy `() => import('…/users_controller')`), or a member path of a framework
  object (`controller.user.info` when `data.member` is the role it is read from: the
  `info` method of the class in `…/user.js`) — resolved to the method;
- `resource_routes`: `resource('posts', 'PostsController')`: one route per action of the
  operation's `data.actions` (`[action, METHOD, path below]`), narrowed by chained
  `apiOnly()` / `only([...])` / `except([...])`, and to the actions the controller has
  when `data.only_defined` says the router checks;
- `lexical_group`: `group(() => { … })`: what the function registers on the receiver
  belongs to the group the call returns (engine/groups.py).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from extractors.engine.events import Event, GroupEvent, RouteEvent
from extractors.engine.paths import join
from extractors.engine.values import ArrLit, Func, Klass, Lit, Obj, Value

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation

EXTS = (".ts", ".js", ".mjs", ".cjs", ".mts", ".tsx", ".jsx")
IMPORT = re.compile(r"""import\(\s*['"`]([^'"`]+)['"`]\s*\)""")


def controller_route(interp: Interpreter, op: Operation, obj: Obj, call: Call,
                     src: CallSource) -> list[Event]:  # fmt: skip
    events = interp._routes(op, obj, call, src, None)
    out: list[Event] = []
    for event in events:
        if isinstance(event, RouteEvent) and not isinstance(event.handler, Func):
            found = resolve_controller(interp, event.handler, None, op.data)
            if found is not None:
                event = replace(event, handler=found)
        out.append(event)
    return out


def resource_routes(interp: Interpreter, op: Operation, obj: Obj, call: Call,
                    src: CallSource) -> list[Event]:  # fmt: skip
    base = src.select(op.spec.get("path"))
    controller = src.select(op.spec.get("controller"))
    if base is None:
        return []
    actions = [tuple(a) for a in op.data.get("actions", ()) if isinstance(a, list) and len(a) == 3]
    keep = _chained_filter(interp, call, {a[0] for a in actions}, op.data)
    events: list[Event] = []
    for action, method, below in actions:
        if action not in keep:
            continue
        handler = resolve_controller(interp, controller, action, op.data)
        if handler is None and op.data.get("only_defined"):
            continue  # the router registers only the actions the controller has
        path = join(base, Lit(below)) if below else base
        for verb in str(method).split("|"):
            events.append(RouteEvent(obj.model, obj, Lit(verb), path, handler, (), call.site))
    return events


def lexical_group(interp: Interpreter, op: Operation, obj: Obj, call: Call,
                  src: CallSource) -> list[Event]:  # fmt: skip
    fn = src.select(op.spec.get("fn"), (Func,))
    if not isinstance(fn, Func):
        return []
    group = Obj(obj.model, op.returns or "group", call.site)
    return [GroupEvent(obj.model, obj, group, fn.site, call.site)]


def _chained_filter(interp: Interpreter, call: Call, names: set[str], data: dict) -> set[str]:
    """The actions left after the calls chained on the resource (`.apiOnly()`,
    `.only(['index'])`, `.except(['destroy'])`)."""
    a = interp.ev.program.adapter(call.rel)
    keep = set(names)
    node = call.node
    while a is not None and node.parent is not None and node.parent.type == "member_expression":
        member = node.parent
        outer = member.parent
        view = a.call_view(outer) if outer is not None else None
        if view is None:
            break
        name = a.terminal(view.callee) or ""
        listed = set()
        if view.args:
            value = interp.ev.eval(call.rel, view.args[0], call.act)
            items = value.items if isinstance(value, ArrLit) else (value,)
            listed = {str(v.value) for v in items if isinstance(v, Lit)}
        if name == "apiOnly":
            keep -= set(data.get("api_only_drops", ()))
        elif name == "only":
            keep &= listed
        elif name == "except":
            keep -= listed
        node = outer
    return keep


def resolve_controller(interp: Interpreter, value: Value | None, action: str | None,
                       data: dict) -> Value | None:  # fmt: skip
    """The method a controller reference names, else None."""
    if isinstance(value, ArrLit) and len(value.items) == 2:
        target, method = value.items
        name = method.value if isinstance(method, Lit) and isinstance(method.value, str) else None
        return _method(interp, _class_of(interp, target, data), name or action or "handle")
    if isinstance(value, Lit) and isinstance(value.value, str):
        text = value.value
        sep = str(data.get("separator", "."))
        if action is None:
            if sep not in text:
                return None
            text, action = text.rsplit(sep, 1)
        return _method(interp, _class_named(interp, text, data), action)
    if isinstance(value, (Klass, Func)):
        return _method(interp, _class_of(interp, value, data), action or "handle")
    member = str(data.get("member", ""))
    if isinstance(value, Obj) and member and value.role.startswith(member + "."):
        names = value.role[len(member) + 1 :].split(".")  # `controller.user.info`
        if action is None:
            names, action = names[:-1], names[-1]
        path = "/".join(names)
        found = _method(interp, _class_named(interp, path, data), action)
        return found if found is not None else _module_function(interp, path, action, data)
    return None


def _class_of(interp: Interpreter, value: Value, data: dict) -> Klass | None:
    if isinstance(value, Klass):
        return value
    if isinstance(value, Func):  # `() => import('#controllers/users_controller')`
        a = interp.ev.program.adapter(value.site.rel)
        node = a.node_at(value.site) if a is not None else None
        found = IMPORT.search(a.text(node)) if node is not None else None
        if found is not None:
            return _class_named(interp, found.group(1).split("/", 1)[-1].lstrip("#"), data)
    return None


def _class_named(interp: Interpreter, name: str, data: dict) -> Klass | None:
    """The class exported by the file a controller name stands for (`Users/Profile` ->
    `…/Users/Profile.ts`), preferring the folders the model lists."""
    for rel in _files_named(interp, name, data):
        value = interp.ev.program.exported(interp.ev, rel, "default")
        if isinstance(value, Klass):
            return value
    return None


def _files_named(interp: Interpreter, name: str, data: dict) -> list[str]:
    program = interp.ev.program
    want = "/" + name.strip("/").removesuffix(".js").removesuffix(".ts")
    folders = [str(f).strip("/") for f in data.get("controllers", ())]
    candidates = []
    for rel in program.js:
        stem = "/" + rel
        for ext in EXTS:
            stem = stem.removesuffix(ext)
        if stem.endswith(want):
            rank = next((i for i, f in enumerate(folders) if rel.startswith(f + "/")), len(folders))
            candidates.append((rank, rel.count("/"), rel))
    return [rel for _, _, rel in sorted(candidates)]


def _module_function(interp: Interpreter, name: str, action: str, data: dict) -> Value | None:
    """A controller that is a module of functions (`exports.index = async () => …`)."""
    for rel in _files_named(interp, name, data):
        value = interp.ev.program.exported(interp.ev, rel, action)
        if isinstance(value, Func):
            return value
    return None


def _method(interp: Interpreter, klass: Klass | None, name: str | None) -> Value | None:
    if klass is None or not name:
        return None
    found = interp.ev.class_member(klass, name, 1)
    return found if isinstance(found, Func) else None


HOOKS = {
    "controller_route": controller_route,
    "resource_routes": resource_routes,
    "lexical_group": lexical_group,
}
