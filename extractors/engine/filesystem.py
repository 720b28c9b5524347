"""File-system routes, read once for every framework that names its routes by file path
(Nitro / Nuxt server routes, Next.js pages and route handlers, SvelteKit endpoints): a
model's `files:` rules (extractors/models/filerules.py) say which folders hold route files,
how a file's path spells the route and which exports handle which methods; this module
turns each matching file into route events on one implicit app of that model per package
folder, so they reach the mount tree and the emitter like any registered route.

A model with `detect: {npm: [...]}` applies below each package.json declaring one of those
packages (dependencies or devDependencies), so an Express app's own `routes/` folder is
never read as Nitro's."""

from __future__ import annotations

import fnmatch
import json
import posixpath

from extractors.engine.evaluate import Evaluator
from extractors.engine.events import Event, InvokeEvent, RouteEvent, UseEvent
from extractors.engine.paths import join
from extractors.engine.values import Func, Lit, Obj, Site, Value
from extractors.models.filerules import FileRule
from extractors.models.runtime import Library
from extractors.models.schema import Model

EXTENSIONS = (".ts", ".js", ".mjs", ".mts", ".cjs", ".cts", ".tsx", ".jsx")
SUFFIX_METHODS = {"get", "post", "put", "patch", "delete", "head", "options", "connect", "trace"}
FUNCTIONS = {"arrow_function", "function_expression", "function", "function_declaration"}


def file_events(ev: Evaluator, library: Library) -> list[Event]:
    """Route and middleware events of every model's file rules, in file order."""
    program = ev.program
    out: list[Event] = []
    for model in library.models:
        if not model.files:
            continue
        for base in package_folders(program.ctx.files, model):
            app = Obj(model.id, "app", Site(f"<files:{model.id}>/{base}", 0, 0))
            claimed: set[str] = set()
            for rule in model.files:
                for rel in sorted(program.js):
                    if rel in claimed:
                        continue
                    found = _match(rel, base, rule)
                    if found is None:
                        continue
                    claimed.add(rel)
                    prefix, sub_path, method = found
                    out += _events(
                        ev, model, rule, app, rel, join(Lit(prefix), Lit(sub_path)), method
                    )
    return out


def package_folders(files: dict, model: Model) -> list[str]:
    """Folders (relative to the component, "" for its root) of the package.json files that
    declare one of the model's npm packages; the root alone when the model detects none."""
    wanted = set(model.detect.get("npm", ()))
    if not wanted:
        return [""]
    out = []
    for rel in sorted(files):
        if posixpath.basename(rel) != "package.json" or "node_modules/" in rel:
            continue
        try:
            manifest = json.loads(files[rel].data.decode("utf-8", "replace"))
        except ValueError:
            continue
        if not isinstance(manifest, dict):
            continue
        deps: set[str] = set()
        for key in ("dependencies", "devDependencies", "peerDependencies"):
            if isinstance(manifest.get(key), dict):
                deps |= set(manifest[key])
        if deps & wanted:
            out.append(posixpath.dirname(rel))
    return out


def _match(rel: str, base: str, rule: FileRule) -> tuple[str, str, str | None] | None:
    """(prefix, the path the file names, the method its name carries) for a route file."""
    if not rel.endswith(EXTENSIONS):
        return None
    inside = rel[len(base) + 1 :] if base else rel
    if base and not rel.startswith(base + "/"):
        return None
    for folder, prefix in rule.folders:
        if not inside.startswith(folder + "/"):
            continue
        sub = inside[len(folder) + 1 :]
        *dirs, name = sub.split("/")
        stem = name[: name.rindex(".")]
        method = None
        if rule.method == "suffix" and "." in stem:
            head, _, tail = stem.rpartition(".")
            if tail.lower() in SUFFIX_METHODS:
                stem, method = head, tail.upper()
        if not any(fnmatch.fnmatchcase(stem, n) for n in rule.names):
            return None
        if any(fnmatch.fnmatchcase(p, g) for p in (*dirs, stem) for g in rule.skip):
            return None
        segs = [d for d in dirs if not any(fnmatch.fnmatchcase(d, g) for g in rule.groups)]
        if rule.names == ("*",) and stem not in rule.index:
            segs.append(stem)
        return prefix, "/" + "/".join(segs), method
    return None


def _events(ev: Evaluator, model: Model, rule: FileRule, app: Obj, rel: str, path: Value,
            method: str | None) -> list[Event]:  # fmt: skip
    program = ev.program
    mod = program.js.get(rel)
    if mod is None:
        return []
    if rule.kind in ("use", "invoke"):
        found = _export(ev, rel, "default")
        if found is None:
            return []
        value, site, _ = found
        if rule.kind == "invoke":  # the framework calls it with its object
            given = Obj(model.id, rule.role, app.origin)
            return [InvokeEvent(model.id, value, (given,), site)] if isinstance(value, Func) else []
        return [UseEvent(model.id, app, None, ((value, site),), site, ordered=False)]
    out: list[Event] = []
    names = rule.exports if rule.method == "exports" else ("default",)
    for name in names:
        found = _export(ev, rel, name)
        if found is None:
            continue
        handler, site, built = found
        verb = name if rule.method == "exports" else method or rule.default_method
        verb = model.aliases.get(verb, verb)
        out.append(RouteEvent(model.id, app, Lit(verb.upper()), path,
                              handler if isinstance(handler, Func) else None, (), site,
                              built))  # fmt: skip
    return out


def _export(ev: Evaluator, rel: str, name: str) -> tuple[Value, Site, Site | None] | None:
    """(what an export is, where it is written, the site of the call that builds it) — a
    function written as an argument of the exported call (`defineEventHandler(async (e) =>
    …)`) is the handler, whatever the wrapper returns."""
    program = ev.program
    mod = program.js[rel]
    if name not in mod.exports and name not in mod.reexports:
        return None
    a = program.adapter(rel)
    local = mod.exports.get(name)
    node = mod.consts.get(local) if local is not None else None
    if node is not None and a is not None:
        node = a.unwrap(node)
        site = a.site(node)
        view = a.call_view(node)
        if view is not None:
            for arg in view.args:
                if arg.type in FUNCTIONS:
                    return ev.eval(rel, arg, None), site, None
            value = ev.eval(rel, node, None)
            return value, site, site
        return ev.eval(rel, node, None), site, None
    value = program.exported(ev, rel, name)
    if isinstance(value, Func):
        return value, value.site, None
    return None
