"""File-system routes, read once for every framework that names its routes by file path
(Nitro / Nuxt server routes, Next.js pages and route handlers, SvelteKit endpoints, the
files Egg calls itself): a model's `files:` rules (extractors/models/filerules.py) say which
folders hold route files, how a file's path spells the route and which exports handle
which methods; this module turns each matching file into route events on one implicit app
of that model per package folder, so they reach the mount tree and the emitter like any
registered route.

A model with `detect: {npm: [...]}` applies below each package.json declaring one of those
packages (dependencies or devDependencies) or holding a file `detect: {files: [...]}` names
(`next.config.*`), so an Express app's own `routes/` folder is never read as Nitro's."""

from __future__ import annotations

import fnmatch
import posixpath
import re
from dataclasses import replace

from extractors.engine.evaluate import Evaluator
from extractors.engine.events import (
    Event,
    InvokeEvent,
    MountEvent,
    PrefixEvent,
    RouteEvent,
    UseEvent,
)
from extractors.engine.method_checks import tested_methods
from extractors.engine.paths import join
from extractors.engine.values import (
    ArrLit,
    Func,
    Lit,
    Obj,
    ObjLit,
    Site,
    Unknown,
    UseSite,
    Value,
    as_list,
)
from extractors.models import declared_packages
from extractors.models.filerules import FileRule
from extractors.models.runtime import Library
from extractors.models.schema import Model
from extractors.models.selectors import parse_selector
from extractors.models.sources import FileSource

EXTENSIONS = (".ts", ".js", ".mjs", ".mts", ".cjs", ".cts", ".tsx", ".jsx")
SUFFIX_METHODS = {"get", "post", "put", "patch", "delete", "head", "options", "connect", "trace"}
FUNCTIONS = {"arrow_function", "function_expression", "function", "function_declaration"}


def file_events(ev: Evaluator, library: Library) -> list[Event]:
    """Route, middleware, prefix and invocation events of every model's file rules."""
    program = ev.program
    out: list[Event] = []
    for model in library.models:
        if not model.files:
            continue
        for base in package_folders(program.ctx.files, model):
            app = Obj(model.id, "app", Site(f"<files:{model.id}>/{base}", 0, 0))
            claimed: set[str] = set()
            for rule in model.files:
                if rule.prefix:
                    out += _prefix(ev, model, rule, app)
                for rel in sorted(program.js):
                    if rel in claimed:
                        continue
                    found = _match(rel, base, rule)
                    if found is None:
                        continue
                    claimed.add(rel)
                    prefix, sub, method = found
                    if rule.kind in ("table", "keyed"):  # routes the file lists, not its path
                        out += _listed(ev, model, rule, app, rel, prefix)
                        continue
                    path = join(Lit(prefix), Lit(sub)) if prefix else Lit(sub)
                    out += _events(ev, model, rule, app, rel, path, method)
    return out


def package_folders(files: dict, model: Model) -> list[str]:
    """Folders (relative to the component, "" for its root) of the package.json files that
    declare one of the model's npm packages, or that hold a file its `detect.files` names;
    the root alone when the model detects nothing."""
    wanted = set(model.detect.get("npm", ()))
    marks = model.detect.get("files", ())
    if not wanted and not marks:
        return [""]
    out: set[str] = set()
    for rel in sorted(files):
        if "node_modules/" in rel:
            continue
        name = posixpath.basename(rel)
        if any(fnmatch.fnmatchcase(name, m) for m in marks):
            out.add(posixpath.dirname(rel))
        if name == "package.json" and wanted and declared_packages(files[rel].data) & wanted:
            out.add(posixpath.dirname(rel))
    return sorted(out)


def _match(rel: str, base: str, rule: FileRule) -> tuple[str, str, str | None] | None:
    """(prefix, the path the file names, the method its name carries) for a route file."""
    if not rel.endswith(EXTENSIONS) or rel.endswith(".d.ts"):
        return None
    if base and not rel.startswith(base + "/"):
        return None
    inside = rel[len(base) + 1 :] if base else rel
    for folder, prefix in rule.folders:
        if folder and not inside.startswith(folder + "/"):
            continue
        sub = inside[len(folder) + 1 :] if folder else inside
        if rule.match and not any(fnmatch.fnmatchcase(sub, g) for g in rule.match):
            return None
        *dirs, name = sub.split("/")
        if not folder and dirs:
            continue  # a root folder rule reads the package folder's own files only
        stem = name[: name.rindex(".")]
        if rule.naming == "dots":
            dotted = _dotted_route(dirs, stem)
            return (prefix, dotted, None) if dotted is not None else None
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
        if rule.depth and len(segs) > rule.depth:
            return None  # a helper module beside a function, not a function of its own
        return prefix, "/" + "/".join(segs), method
    return None


_ESCAPED = re.compile(r"\[([^\]]*)\]")


def _dotted_route(dirs: list[str], stem: str) -> str | None:
    """Remix flat routes (https://remix.run/docs/en/main/file-conventions/routes): the path a
    route module names by its file name (`concerts.$city.tsx`) or its folder's
    (`concerts.$city/route.tsx`); None for any other file (a folder route's own modules)."""
    if len(dirs) > 1 or (dirs and stem != "route"):
        return None
    name = dirs[0] if dirs else stem
    segs = []
    for raw in re.split(r"\.(?![^\[]*\])", name):  # dots outside `[...]` escapes
        optional = raw.startswith("(") and raw.endswith(")")
        seg = raw[1:-1] if optional else raw
        if seg.startswith("_"):
            continue  # `_index`: the parent's index; `_name`: a pathless layout
        seg = seg[:-1] if seg.endswith("_") and len(seg) > 1 else seg  # `name_`: no nesting
        if seg == "$":
            segs.append("*")
        elif seg.startswith("$"):
            segs.append(":" + seg[1:])
        elif seg:
            segs.append(_ESCAPED.sub(r"\1", seg))
    return "/" + "/".join(segs)


def _events(ev: Evaluator, model: Model, rule: FileRule, app: Obj, rel: str, path: Value,
            method: str | None) -> list[Event]:  # fmt: skip
    if ev.program.js.get(rel) is None:
        return []
    if rule.kind in ("use", "invoke"):
        return _use_or_invoke(ev, model, rule, app, rel)
    out: list[Event] = []
    names = rule.exports if rule.method == "exports" else ("default",)
    attrs = tuple((str(k), str(v)) for k, v in rule.attrs.items())
    for name in names:
        found = module_export(ev, rel, name)
        if found is None:
            continue
        handler, site, built = found
        if isinstance(handler, Obj) and _file_router(ev, handler):
            # a router exported as the file's handler (next-connect's `router.handler()`):
            # its own routes are served at the file's path
            out.append(MountEvent(model.id, app, handler, path, (), site))
            continue
        handler = handler if isinstance(handler, Func) else None
        verbs = [name if rule.method == "exports" else method or rule.default_method]
        extra = attrs
        if rule.narrow and method is None and handler is not None:
            tested, guard = tested_methods(ev.program, handler)
            if tested:
                verbs, extra = tested, attrs + tuple(guard.items())
        for verb in verbs:
            verb = model.aliases.get(verb, verb).upper()
            out.append(RouteEvent(model.id, app, Lit(verb), path, handler, (), site, built,
                                  attrs=extra))  # fmt: skip
    return out


def _file_router(ev: Evaluator, obj: Obj) -> bool:
    """An object whose library serves its routes where a route file exports it."""
    model = ev.library.by_id.get(obj.model)
    return model is not None and obj.role in model.file_routers


def _use_or_invoke(ev: Evaluator, model: Model, rule: FileRule, app: Obj, rel: str) -> list[Event]:
    found = None
    for name in ("default", "middleware") if rule.kind == "use" else ("default",):
        found = module_export(ev, rel, name)
        if found is not None:
            break
    if found is None:
        return []
    value, site, _ = found
    if rule.kind == "invoke":  # the framework calls it with its object
        given = Obj(model.id, rule.role, app.origin)
        return [InvokeEvent(model.id, value, (given,), site)] if isinstance(value, Func) else []
    scopes: list[tuple[Value | None, Site]] = [(None, site)]
    if rule.scope:
        head, *members = rule.scope.split(".")
        holder = module_export(ev, rel, head)
        value_at = holder[0] if holder is not None else None
        for member in members:
            value_at = ev.member(value_at, member, rel, None, 1) if value_at is not None else None
        if value_at is not None:
            items = value_at.items if isinstance(value_at, ArrLit) else (value_at,)
            at = _member_site(ev, holder[0], members[-1]) if members else None
            at = at or site
            scopes = [(Lit(_scope_prefix(i.value)), at) for i in items
                      if isinstance(i, Lit) and isinstance(i.value, str)] or scopes  # fmt: skip
    out: list[Event] = []
    for path, at in scopes:
        used = UseSite(site.rel, site.line, site.end_line, site.col, site.start, site.end,
                       at.rel, at.line)  # fmt: skip
        out.append(UseEvent(model.id, app, path, ((value, used),), at, ordered=False))
    return out


def _listed(ev: Evaluator, model: Model, rule: FileRule, app: Obj, rel: str,
            prefix: str) -> list[Event]:  # fmt: skip
    """Routes a file lists (the file's own path names none), below the folder's prefix: a
    table of route objects (`{ routes: [{ method, path, handler }] }`), one route per object
    at its line, or an object keyed by route (`{ 'GET /x': 'Ctrl.find' }`), one per key. A
    handler named by text is a name only."""
    head, *members = rule.scope.split(".") if rule.scope else ("default",)
    table: Value | None = ev.program.exported(ev, rel, head)  # ES or CommonJS
    if isinstance(table, Unknown) and head != "default":  # `export default { routes }`
        table, members = ev.program.exported(ev, rel, "default"), [head, *members]
    for key in members:
        table = ev.member(table, key, rel, None, 1)
    if rule.kind == "keyed":
        return _keyed(ev, model, app, table, prefix)
    out: list[Event] = []
    for item in as_list(table):
        if not isinstance(item, ObjLit):
            continue
        method, path, handler = (ev.member(item, k, rel, None, 1)
                                 for k in ("method", "path", "handler"))  # fmt: skip
        if not isinstance(path, Lit) or not isinstance(path.value, str):
            continue
        verb = method if isinstance(method, Lit) and isinstance(method.value, str) else \
            Lit(rule.default_method)  # fmt: skip
        out.append(RouteEvent(model.id, app, verb, join(Lit(prefix), path) if prefix else path,
                              handler if isinstance(handler, Func) else None, (), item.site,
                              attrs=_named_handler(handler)))  # fmt: skip
    return out


def _keyed(ev: Evaluator, model: Model, app: Obj, table: Value | None,
           prefix: str) -> list[Event]:  # fmt: skip
    """An object whose keys are routes (`'GET /kites'`, `'/about'` for every method)."""
    if not isinstance(table, ObjLit):
        return []
    a = ev.program.adapter(table.site.rel)
    node = a.node_at(table.site) if a is not None else None
    view = a.view(node) if a is not None and node is not None else None
    out: list[Event] = []
    for entry in getattr(view, "entries", ()):
        verb, _, path = (entry.key or "").strip().rpartition(" ")
        if not path.startswith("/") or entry.kind != "prop":
            continue
        handler = ev.object_member(table, entry.key, 1)
        target = ev.member(handler, "action", table.site.rel, None, 1) if isinstance(
            handler, ObjLit) else handler  # fmt: skip
        full = join(Lit(prefix), Lit(path)) if prefix else Lit(path)
        out.append(RouteEvent(model.id, app, Lit(verb.strip().upper() or "ANY"), full,
                              handler if isinstance(handler, Func) else None, (),
                              a.site(entry.value), attrs=_named_handler(target)))  # fmt: skip
    return out


def _named_handler(handler: Value) -> tuple[tuple[str, str], ...]:
    """A handler named by text (`'restaurant.find'`: a controller's action) as an attr."""
    if isinstance(handler, Lit) and isinstance(handler.value, str) and handler.value:
        return (("handler_name", handler.value),)
    return ()


def _scope_prefix(matcher: str) -> str:
    """`/api/:path*` -> `/api`: the literal head of a path pattern."""
    return re.split(r"[:(\[*]", matcher, maxsplit=1)[0].rstrip("/") or "/"


def _prefix(ev: Evaluator, model: Model, rule: FileRule, app: Obj) -> list[Event]:
    """A prefix of every route the rules make (Next.js `basePath` in next.config)."""
    selector = parse_selector(rule.prefix)
    value = FileSource(ev).select(selector)
    if not isinstance(value, Lit) or not isinstance(value.value, str) or not value.value.strip("/"):
        return []
    term = selector.terms[0]
    holder = (
        FileSource(ev).select(parse_selector(f"file({term.key})")) if term.kind == "file" else None
    )
    at = _member_site(ev, holder, term.path[-1]) if holder is not None and term.path else None
    site = at or Site(f"<files:{model.id}>", 0, 0)
    return [PrefixEvent(model.id, app, value, site, at, term.path[-1] if term.path else "prefix",
                        overall=True)]  # fmt: skip


def _member_site(ev: Evaluator, holder: Value | None, key: str) -> Site | None:
    """Where an object literal's member is written (`basePath: '/shop'`, `matcher: [...]`)."""
    if not isinstance(holder, ObjLit):
        return None
    a = ev.program.adapter(holder.site.rel)
    node = a.node_at(holder.site) if a is not None else None
    for pair in node.named_children if node is not None else ():
        name = pair.child_by_field_name("key")
        value = pair.child_by_field_name("value")
        if name is not None and value is not None and a.text(name).strip("'\"") == key:
            return a.site(value)
    return None


def module_export(ev: Evaluator, rel: str, name: str) -> tuple[Value, Site, Site | None] | None:
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
        made = ev.eval(rel, node, None) if view is not None else None
        if isinstance(made, Obj) and _file_router(ev, made):  # `nc().get(fn).post(fn)`
            return made, site, site
        if view is not None:
            for arg in view.args:
                if arg.type in FUNCTIONS:
                    fn = ev.eval(rel, arg, None)
                    named = arg.child_by_field_name("name")
                    if isinstance(fn, Func) and not fn.name and named is not None:
                        fn = replace(fn, name=a.text(named))  # `withAuth(function middleware…)`
                    return fn, site, None
            return ev.eval(rel, node, None), site, site
        value = ev.eval(rel, node, None)
        if isinstance(value, Func) and node.type not in FUNCTIONS:
            return value, value.site, None  # `export default Pages.About`: where it is written
        return value, site, None
    value = program.exported(ev, rel, name)
    if isinstance(value, Func):
        return value, value.site, None
    return None
