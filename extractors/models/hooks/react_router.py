"""React Router's route config (models/server/react-router.yaml): `app/routes.ts` builds the
app's routes with `route(path, file, children?)`, `index(file)`, `layout(file, children)`
and `prefix(path, children)`; each entry is an object of the model whose own path is its
prefix, and this hook — run where the entry is made — gives it what its route module
serves and mounts its children below it.

- `route_module`: the module `file` names (relative to the folder of the routes file, the
  app directory) serves its `loader` export as GET and its `action` export as POST (the
  model's `data.exports`) at the entry's path; `children` are mounted below the entry.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from extractors.engine.events import Event, MountEvent, RouteEvent
from extractors.engine.filesystem import module_export
from extractors.engine.values import Func, Lit, Obj, as_list

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation


def route_module(interp: Interpreter, op: Operation, entry: Obj, call: Call,
                 src: CallSource) -> list[Event]:  # fmt: skip
    ev = interp.ev
    events: list[Event] = []
    file = src.select(op.spec.get("file")) if op.spec.get("file") else None
    rel = _module(ev.program.js, call.rel, file)
    if file is not None and rel is None:  # a module named but not found: its data routes
        shown = file.value if isinstance(file, Lit) else "its file"
        interp.cannot_read(
            call.site,
            "route",
            str(shown),
            "the route module is not a file of the component: its loader and action are not read",
        )
    for name, verb in (op.data.get("exports") or {}).items() if rel is not None else ():
        found = module_export(ev, rel, name)
        if found is None:
            continue
        handler, site, _ = found
        events.append(RouteEvent(entry.model, entry, Lit(str(verb)), Lit(""),
                                 handler if isinstance(handler, Func) else None, (),
                                 call.site, site))  # fmt: skip
    children = src.select(op.spec.get("children")) if op.spec.get("children") else None
    for child in as_list(children):
        if isinstance(child, Obj) and child.model == entry.model:
            events.append(MountEvent(entry.model, entry, child, None, (), call.site))
    return events


def _module(modules: dict, routes_rel: str, file) -> str | None:
    """The component file a route entry names, relative to the routes file's folder."""
    if not isinstance(file, Lit) or not isinstance(file.value, str) or not file.value:
        return None
    rel = posixpath.normpath(posixpath.join(posixpath.dirname(routes_rel), file.value))
    return rel if rel in modules else None


HOOKS = {"route_module": route_module}
