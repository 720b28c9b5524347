"""NestJS module middleware: `configure(consumer) { consumer.apply(A, B).forRoutes(...) }`
applies middleware to the routes it names — a path (`'cats'`, relative to the global
prefix), a `{ path, method: RequestMethod.GET }` object, or a controller class."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.events import Event, UseEvent
from extractors.engine.values import STRINGISH, ArrLit, Ext, Klass, Lit, Obj, ObjLit, Site, Value

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
        here = a.site(call.view.args[i]) if a is not None else call.site  # this route gets it here
        used = tuple((v, Site(s.rel, here.line, here.line, s.col, s.start, s.end)) if s.rel == here.rel else (v, s)
                     for v, s in middleware)  # fmt: skip
        if isinstance(target, Klass):  # a controller: all its routes
            controller = interp.decorators.class_object_of(target)
            if controller is not None:
                events.append(UseEvent(obj.model, controller, None, used, call.site))
            continue
        path, methods = _route_selector(interp, target)
        if path is None:
            continue
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


def create_option(
    interp: Interpreter, op: Operation, obj: Obj, call: Call, src: CallSource
) -> list[Event]:
    """`NestFactory.create(Module, { cors: true | options | fn })`: the option the operation
    names (`when`) turns on what its `use` says, as the matching method would
    (`app.enableCors()`); absent or `false`, nothing."""
    given = src.select(op.spec.get("when"))
    if given is None or given == Lit(False):
        return []
    return interp._mounts(op, obj, call, src)  # noqa: SLF001 — the `use` action itself


HOOKS = {"middleware_consumer": middleware_consumer, "create_option": create_option}


def router_module(decorators, op: Operation, owner: Obj, table: Obj, site) -> list[Event]:
    """`RouterModule.register([{ path, module, children: [...] }])` imported by a module: each
    entry gives its module a path prefix (a child's joined to its parent's), wherever the
    module is imported."""
    from extractors.engine.events import PrefixEvent
    from extractors.engine.paths import join

    ev = decorators.ev
    events: list[Event] = []

    def entries(parent_path: Value | None, routes: Value | None, depth: int) -> None:
        if not isinstance(routes, ArrLit) or depth > 6:
            return
        for entry in routes.items:
            if not isinstance(entry, ObjLit):
                continue
            module = ev.object_member(entry, "module", 1)
            path = ev.object_member(entry, "path", 1)
            if not isinstance(module, Klass) or not isinstance(path, STRINGISH):
                continue
            full = join(parent_path, path)
            events.append(
                PrefixEvent(owner.model, module, full, site, entry.site, "RouterModule.register")
            )
            entries(full, ev.object_member(entry, "children", 1), depth + 1)

    entries(None, table.prop("routes"), 0)
    return events


HOOKS["router_module"] = router_module
