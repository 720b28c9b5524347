"""A library that loads every module of a folder into one object keyed by file name
(require-directory: `requireDirectory(module, './routes')` → `{ users, auth: { login } }`),
a model operation's `folder:` action. The object is an `Obj` whose props are the modules'
exports, so `routes.users` and `Object.entries(routes)` read them.

The loader's documented options are read when the code writes them as values the engine
knows: `recurse`, `extensions`, `include` / `exclude` (a regular expression literal or a
function of the file's path and name) and `rename` (a function of the key). A test or a
name it cannot decide keeps the file and its name: a module loaded too many is a route
too many, one dropped silently is a miss nobody sees."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from extractors.engine.builtins import truthy
from extractors.engine.values import ArrLit, Func, Lit, Obj, ObjLit, Site, Value
from extractors.lang.expr import EObject

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call, Evaluator

_EXTENSIONS = ("js", "json", "coffee")  # the library's default `extensions`
_TYPESCRIPT = (".ts", ".cts", ".mts")  # compiled to .js before it runs: loaded as such
_JS_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}


@dataclass(frozen=True)
class _Options:
    recurse: bool = True
    extensions: tuple[str, ...] = _EXTENSIONS
    include: re.Pattern | Func | None = None
    exclude: re.Pattern | Func | None = None
    rename: Func | None = None


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
    read = _options(ev, call.rel, options) if isinstance(options, ObjLit) else _Options()
    return _table(ev, loader, call, folder, read, 0)


def _options(ev: Evaluator, rel: str, options: ObjLit) -> _Options:
    def member(name: str) -> Value:
        return ev.member(options, name, rel, None, 1)

    extensions = member("extensions")
    names = (
        tuple(str(i.value).lstrip(".") for i in extensions.items if isinstance(i, Lit))
        if isinstance(extensions, ArrLit)
        else _EXTENSIONS
    )
    rename = member("rename")
    return _Options(
        recurse=member("recurse") != Lit(False),
        extensions=names,
        include=_test(ev, options, "include", member("include")),
        exclude=_test(ev, options, "exclude", member("exclude")),
        rename=rename if isinstance(rename, Func) else None,
    )


def _test(ev: Evaluator, options: ObjLit, name: str, value: Value) -> re.Pattern | Func | None:
    """A file test written as a function, or as a regular expression literal (read from the
    source: the engine has no value for a regular expression)."""
    if isinstance(value, Func):
        return value
    a = ev.program.adapter(options.site.rel)
    node = a.node_at(options.site) if a is not None else None
    view = a.view(node) if node is not None else None
    entry = (
        next((e for e in view.entries if e.key == name), None)
        if isinstance(view, EObject)
        else None
    )
    regex = a.unwrap(entry.value) if entry is not None and a is not None else None
    if regex is None or regex.type != "regex":
        return None
    pattern, flags = regex.child_by_field_name("pattern"), regex.child_by_field_name("flags")
    bits = 0
    for flag in a.text(flags) if flags is not None else "":
        bits |= _JS_FLAGS.get(flag, 0)
    try:
        return re.compile(a.text(pattern), bits)
    except re.error:  # JS syntax Python's `re` does not read: undecided, the file stays
        return None


def _passes(ev: Evaluator, test: re.Pattern | Func | None, path: str, filename: str) -> bool | None:
    """The test's answer for one file (the library passes the joined path and the name), or
    None when it cannot be decided here."""
    if test is None:
        return None
    if isinstance(test, re.Pattern):
        return test.search(path) is not None
    answers = {truthy(v) for v in ev.apply(test, [Lit(path), Lit(filename)])[0]}
    return answers.pop() if len(answers) == 1 else None


def _key(ev: Evaluator, opts: _Options, key: str, path: str, filename: str) -> str:
    if opts.rename is None:
        return key
    named = ev.apply(opts.rename, [Lit(key), Lit(path), Lit(filename)])[0]
    if len(named) == 1 and isinstance(named[0], Lit) and isinstance(named[0].value, str):
        return named[0].value
    return key


def _loaded(ev: Evaluator, opts: _Options, rel: str, filename: str) -> bool:
    stem, ext = posixpath.splitext(filename)
    extension = "js" if ext in _TYPESCRIPT else ext.lstrip(".")
    if extension.lower() not in opts.extensions or stem.endswith((".test", ".spec", ".d")):
        return False
    path = "/" + rel  # the library tests the file's full path: the component's root stands in
    return _passes(ev, opts.include, path, filename) is not False and not _passes(
        ev, opts.exclude, path, filename
    )


def _table(ev: Evaluator, loader: Obj, call: Call, folder: str, opts: _Options, depth: int) -> Obj:
    program = ev.program
    prefix = f"{folder}/" if folder else ""
    props: dict[str, Value] = {}
    for rel in sorted(program.js):
        if not rel.startswith(prefix) or rel == call.rel:
            continue
        rest = rel[len(prefix) :]
        if "/" in rest:
            head = rest.split("/", 1)[0]
            if opts.recurse and depth < 4 and head != "node_modules":
                key = _key(ev, opts, head, "/" + prefix + head, head)
                if key not in props:
                    inner = _table(ev, loader, call, prefix + head, opts, depth + 1)
                    if inner.props:  # the library leaves out a folder that loads nothing
                        props[key] = inner
            continue
        if not _loaded(ev, opts, rel, rest):
            continue
        value = program.module_exports(ev, rel)
        key = _key(ev, opts, posixpath.splitext(rest)[0], "/" + rel, rest)
        props[key] = value if value is not None else program.exported(ev, rel, "default")
    site = Site(folder or call.rel, 1, 1)
    return Obj(loader.model, "folder", site, tuple(props.items()))
