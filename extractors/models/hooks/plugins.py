"""Servers that call a plugin's function with an instance of their own (Fastify, hapi)
and load plugin files from a folder (@fastify/autoload)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.events import Event, InvokeEvent
from extractors.engine.values import STRINGISH, ArrLit, Func, Obj

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation


def plugin_register(
    interp: Interpreter, op: Operation, obj: Obj, call: Call, src: CallSource
) -> list[Event]:
    """A plugin registered on a server: the server calls the plugin's function with an
    instance of its own, whose routes take the registration's prefix (Fastify
    `register(plugin, { prefix })`, Hapi `server.register({ plugin, options, routes: { prefix } })`).
    `plugin`: the plugin(s); `fn`: where a plugin object keeps its function (`register`);
    `options`, `prefix`: read off each registration (`item.x`) or the call."""
    from extractors.engine.events import MountEvent
    from extractors.engine.values import Lit, Site
    from extractors.models.runtime import CallSource as Source

    spec = op.spec
    if op.returns and op.returns not in (
        "self",
        obj.role,
    ):  # the call makes the server (glue's compose)
        obj = Obj(obj.model, op.returns, call.site)
    plugins = src.select(spec.get("plugin"))
    items = (
        plugins.items if isinstance(plugins, ArrLit) else (plugins,) if plugins is not None else ()
    )
    events: list[Event] = []
    for i, item in enumerate(items):
        item = interp.lib.claim(item) or item
        if isinstance(item, Obj):  # a library's own plugin (autoload): what it registers
            for sub in interp.lib.operations(item, "<register>"):
                if sub.hook:
                    events += _hook(sub.hook)(interp, sub, obj, call, Source(interp.ev, call, obj))
            continue
        each = Source(interp.ev, call, obj, None, item)
        fn = item if isinstance(item, Func) else each.select(spec.get("fn"), (Func,))
        if fn is None:
            continue
        options = each.select(spec.get("options"))
        prefix = None if fn.via else each.select(spec.get("prefix"), STRINGISH)  # a shared plugin
        site = call.site
        origin = Site(site.rel, site.line, site.end_line, site.col, site.start, site.end + i + 1)
        child = Obj(obj.model, obj.role, origin)
        if options is None:
            options = Lit(None)
        events.append(InvokeEvent(obj.model, fn, (child, options), call.site))
        events.append(MountEvent(obj.model, obj, child, prefix, (), call.site))
    return events


def autoload(
    interp: Interpreter, op: Operation, server: Obj, call: Call, src: CallSource
) -> list[Event]:
    """Every plugin file under a folder, registered on the server (`dir`): a folder's index
    file, else each file; each invoked with the server's child and `options` whose `prefix`
    is the options' prefix + '/' + the folder path (`folder_prefix` false: no folder path).
    A plugin wrapped by a `yields` operation (fastify-plugin) shares its parent's routes."""
    from extractors.engine.events import MountEvent
    from extractors.engine.values import Lit, ObjLit, Site, concat, text_of

    spec = op.spec
    folder = text_of(src.select(spec.get("dir")) or Lit(""))
    if folder is None:
        return []
    folder = folder.strip("/")
    options = src.select(spec.get("options"))
    base = src.member(options, "prefix") if options is not None else None
    base = base if isinstance(base, STRINGISH) else Lit("")
    with_folder = text_of(src.select(spec.get("folder_prefix")) or Lit(True)) not in (
        "False",
        "false",
    )
    program = interp.ev.program
    files = sorted(r for r in program.js if r.startswith(folder + "/"))
    chosen = []
    for rel in files:
        sub = rel[len(folder) + 1 :]
        parts = sub.split("/")
        if len(parts) > 1:
            index = [f for f in files if f.startswith(f"{folder}/{'/'.join(parts[:-1])}/index.")]
            if index and rel not in index:
                continue
        chosen.append((rel, "/".join(parts[:-1])))
    events: list[Event] = []
    for rel, sub in chosen:
        fn = program.exported(interp.ev, rel, "default")
        if not isinstance(fn, Func):
            continue
        prefix = concat(base, Lit("/"), Lit(sub if with_folder else ""))
        opts = (
            ObjLit(options.site, options.act, options.extra + (("prefix", prefix),))
            if isinstance(options, ObjLit)
            else Obj(server.model, "options", Site(rel, 1, 1), (("prefix", prefix),))
        )
        child = Obj(server.model, server.role, Site(rel, 1, 1, 0, 0, 0))
        events.append(InvokeEvent(server.model, fn, (child, opts), call.site))
        events.append(
            MountEvent(server.model, server, child, None if fn.via else prefix, (), call.site)
        )
    return events


HOOKS = {"plugin_register": plugin_register, "autoload": autoload}


def _hook(name: str):
    from extractors.models.hooks import HOOKS as ALL

    return ALL[name]
