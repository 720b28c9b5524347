"""NestJS module middleware: `configure(consumer) { consumer.apply(A, B).forRoutes(...) }`
applies middleware to the routes it names — a path (`'cats'`, relative to the global
prefix), a `{ path, method: RequestMethod.GET }` object, or a controller class."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.events import Event, UseEvent
from extractors.engine.values import STRINGISH, ArrLit, Ext, Klass, Obj, ObjLit, Site, Value

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation


def middleware_consumer(
    interp: Interpreter, op: Operation, obj: Obj, call: Call, src: CallSource
) -> list[Event]:
    """`forRoutes(...)` of an `apply(...)` chain: one use per route selector. The applied
    middleware are the `apply` call's arguments, kept on the chain object (`middleware`)."""
    applied = obj.prop("middleware")
    items = applied.items if isinstance(applied, ArrLit) else ()
    a = interp.ev.program.adapter(obj.origin.rel)
    origin = a.node_at(obj.origin) if a is not None else None
    view = a.call_view(origin) if a is not None and origin is not None else None
    nodes = view.args if view is not None else []
    middleware = tuple((value, a.site(nodes[i]) if i < len(nodes) else call.site)  # type: ignore[union-attr]
                       for i, value in enumerate(items))  # fmt: skip
    if not middleware:
        return []
    apps = interp.lib.made.get((obj.model, "app"), [])
    events: list[Event] = []
    a = interp.ev.program.adapter(call.rel)
    for i in range(len(call.view.args)):
        target = call.arg(i)
        if isinstance(target, Klass):  # a controller: all its routes
            controller = interp.decorators.class_object_of(target)
            if controller is not None:
                events.append(UseEvent(obj.model, controller, None, middleware, call.site))
            continue
        path, methods = _route_selector(interp, target)
        if path is None:
            continue
        here = a.site(call.view.args[i]) if a is not None else call.site  # this route gets it here
        used = tuple((v, Site(s.rel, here.line, here.line, s.col, s.start, s.end)) if s.rel == here.rel else (v, s)
                     for v, s in middleware)  # fmt: skip
        for app in apps:
            events.append(UseEvent(obj.model, app, path, used, call.site, methods, exact=True))
    return events


def _route_selector(
    interp: Interpreter, value: Value | None
) -> tuple[Value | None, tuple[str, ...]]:
    if isinstance(value, STRINGISH):
        return value, ()
    if isinstance(value, ObjLit):
        path = interp.ev.object_member(value, "path", 1)
        method = interp.ev.object_member(value, "method", 1)
        verb = method.path[-1].upper() if isinstance(method, Ext) and method.path else ""
        return (path if isinstance(path, STRINGISH) else None), (
            () if verb in ("", "ALL") else (verb,)
        )
    return None, ()


HOOKS = {"middleware_consumer": middleware_consumer}
