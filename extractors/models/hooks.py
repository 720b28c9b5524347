"""Hooks: what a model cannot say as data, each with the same signature
`hook(interpreter, operation, object, call, source) -> events`, named by a model's
operation (`hook: query_function`). Keep them few and general: each covers a library's
documented behaviour, never one application's habit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.events import Event, InvokeEvent
from extractors.engine.values import STRINGISH, ArrLit, Func, Obj, Value

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation


def query_function(interp: Interpreter, op: Operation, obj: Obj, call: Call, src: CallSource) -> list[Event]:
    """A query library calls its query function with a context holding the key
    (TanStack Query: `queryFn({ queryKey })`; SWR: `fetcher(...key)`). The function is the
    operation's `fn`, else the `default` a client object was made with; the key is `key`."""
    key = src.select(op.spec.get("key"))
    fn = src.select(op.spec.get("fn"), (Func,))
    if fn is None and (default := op.spec.get("default")) is not None:
        role, _, prop = default.terms[0].key.partition(".") if default.terms[0].kind == "lit" else ("", "", "")
        for made in interp.lib.made.get((obj.model, role), ()):
            value = made.prop(prop)
            if isinstance(value, Func):
                fn = value
                break
    if fn is None or key is None:
        return []
    items = key.items if isinstance(key, ArrLit) else (key,)
    if op.spec.get("spread") is not None:  # SWR: an array key is the fetcher's arguments
        args: tuple[Value, ...] = tuple(items)
    else:
        context = Obj(obj.model, "query-context", call.site, (("queryKey", ArrLit(tuple(items))),))
        args = (context,)
    if not any(isinstance(i, STRINGISH) for i in items):
        return []
    return [InvokeEvent(obj.model, fn, args, call.site)]


HOOKS = {"query_function": query_function}


def plugin_register(interp: Interpreter, op: Operation, obj: Obj, call: Call, src: CallSource) -> list[Event]:
    """A plugin registered on a server: the server calls the plugin's function with an
    instance of its own, whose routes take the registration's prefix (Fastify
    `register(plugin, { prefix })`, Hapi `server.register({ plugin, options, routes: { prefix } })`).
    `plugin`: the plugin(s); `fn`: where a plugin object keeps its function (`register`);
    `options`, `prefix`: read off each registration (`item.x`) or the call."""
    from extractors.engine.events import MountEvent
    from extractors.engine.values import Lit, Site
    from extractors.models.runtime import CallSource as Source

    spec = op.spec
    if op.returns and op.returns != "self":  # the call makes the server (hapi glue's compose)
        obj = Obj(obj.model, op.returns, call.site)
    plugins = src.select(spec.get("plugin"))
    items = plugins.items if isinstance(plugins, ArrLit) else (plugins,) if plugins is not None else ()
    events: list[Event] = []
    for i, item in enumerate(items):
        each = Source(interp.ev, call, obj, None, item)
        fn = item if isinstance(item, Func) else each.select(spec.get("fn"), (Func,))
        if fn is None:
            continue
        options = each.select(spec.get("options"))
        prefix = each.select(spec.get("prefix"), STRINGISH)
        site = call.site
        origin = Site(site.rel, site.line, site.end_line, site.col, site.start, site.end + i + 1)
        child = Obj(obj.model, obj.role, origin)
        if options is None:
            options = Lit(None)
        events.append(InvokeEvent(obj.model, fn, (child, options), call.site))
        events.append(MountEvent(obj.model, obj, child, prefix, (), call.site))
    return events


HOOKS["plugin_register"] = plugin_register
