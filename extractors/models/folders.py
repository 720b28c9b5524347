"""A library that loads every module of a folder into one object keyed by file name
(require-directory: `requireDirectory(module, './routes')` → `{ users, auth: { login } }`),
a model operation's `folder:` action. The object is an `Obj` whose props are the modules'
exports, so `routes.users` and `Object.entries(routes)` read them."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from extractors.engine.values import Lit, Obj, ObjLit, Site, Value

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call, Evaluator

_SOURCE = (".js", ".cjs", ".mjs", ".ts", ".cts", ".mts", ".json", ".coffee")


def folder_modules(
    ev: Evaluator, loader: Obj, call: Call, path: Value | None, options: Value | None
) -> Obj:
    """The folder of the calling module (or `path` relative to it) as nested props: each
    module's exports (`module.exports`, else its default export) under its file name,
    each subfolder an object of its own unless `options.recurse` is false."""
    here = posixpath.dirname(call.rel)
    sub = path.value if isinstance(path, Lit) and isinstance(path.value, str) else "."
    folder = posixpath.normpath(posixpath.join(here, sub)) if here or sub != "." else ""
    folder = "" if folder == "." else folder
    recurse = (
        ev.member(options, "recurse", call.rel, None, 1) if isinstance(options, ObjLit) else None
    )
    return _table(ev, loader, call, folder, recurse != Lit(False), 0)


def _table(ev: Evaluator, loader: Obj, call: Call, folder: str, recurse: bool, depth: int) -> Obj:
    program = ev.program
    prefix = f"{folder}/" if folder else ""
    props: dict[str, Value] = {}
    for rel in sorted(program.js):
        if not rel.startswith(prefix) or rel == call.rel:
            continue
        rest = rel[len(prefix) :]
        if "/" in rest:
            head = rest.split("/", 1)[0]
            if recurse and depth < 4 and head not in props and head != "node_modules":
                props[head] = _table(ev, loader, call, prefix + head, recurse, depth + 1)
            continue
        stem, ext = posixpath.splitext(rest)
        if ext not in _SOURCE or stem.endswith((".test", ".spec", ".d")):
            continue
        value = program.module_exports(ev, rel)
        props[stem] = value if value is not None else program.exported(ev, rel, "default")
    site = Site(folder or call.rel, 1, 1)
    return Obj(loader.model, "folder", site, tuple(props.items()))
