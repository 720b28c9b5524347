"""Django's URLconf and settings (models/server/django.yaml), read by convention
(engine/conventions.py hands each item a module writes to a `names:` rule to these hooks):

- `urlconf_patterns`: one item of a module's `urlpatterns` — a `path()` / `re_path()` /
  `url()` pattern (a route on the module's URLconf, or a mount when its view is
  `include(...)`: a module by dotted name or itself, a list of patterns, a `(patterns,
  app_name)` pair, a DRF router's `urls`), a named list of patterns, a router's `urls`.
  The URLconf the settings name (`ROOT_URLCONF`) is the root; without settings every
  URLconf is one. Regex patterns lose their `^` / `$` anchors. What is generated outside
  the component (`admin.site.urls`, a package's URLconf, a package's view) is an
  `unresolved` row.
- `django_settings`: the settings module's `MIDDLEWARE`, in order, is middleware of every
  route of the root URLconf; a middleware class of the component whose `__call__` answers
  `request.path == "/x"` itself is a route (its method when it tests `request.method`),
  behind the middleware listed before it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.events import Event, MountEvent, RouteEvent, UseEvent
from extractors.engine.values import (
    STRINGISH,
    ArrLit,
    Concat,
    Ext,
    Klass,
    Lit,
    Module,
    Obj,
    Site,
    Value,
    describe,
)
from extractors.models.hooks.django_views import module_rel, named_items, view_routes
from extractors.models.named import module_site, modules_of
from extractors.source import named_descendants

if TYPE_CHECKING:
    from extractors.engine.interpret import Interpreter

MAX_DEPTH = 6  # include() of lists within lists


def urlconf_patterns(interp: Interpreter, rule, owner: Obj, call, src) -> list[Event]:
    events: list[Event] = []
    conf = urlconf(interp, owner.model, owner.origin.rel)
    element = src.act.element_site() if src.act is not None else None
    _register(interp, rule, conf, src.item(), element or src.site, events, 0, element)
    return events


def urlconf(interp: Interpreter, model_id: str, rel: str) -> Obj:
    """The URLconf object of a module: the root one if the settings name it (or name none)."""
    root = root_urlconf(interp, model_id)
    role = "root" if root in (rel, "") else "urlconf"
    return Obj(model_id, role, module_site(rel))


def root_urlconf(interp: Interpreter, model_id: str) -> str | None:
    """The file `ROOT_URLCONF` names; "" when no settings module names one."""
    return _settings(interp, model_id)[0]


def _settings(interp: Interpreter, model_id: str) -> tuple[str | None, str]:
    """(the root URLconf's file, the settings module naming it): the application's settings
    before a test's."""
    key = ("root", model_id)
    cache = interp.lib.named
    if key not in cache:
        model = interp.lib.by_id[model_id]
        cache[key] = ("", "")
        names = [rule.name for rule in model.names if rule.role == "settings"]
        for rel in modules_of(interp.ev, model, "settings", cache):
            values = [interp.ev.program.exported(interp.ev, rel, name) for name in names]
            text = next(
                (v.value for v in values if isinstance(v, Lit) and isinstance(v.value, str)), None
            )
            if text is not None:
                cache[key] = (module_rel(interp, text), rel)
                break
    return cache[key]


def _register(interp: Interpreter, rule, owner: Obj, value: Value | None, site: Site,
              events: list[Event], depth: int, element: Site | None = None) -> None:  # fmt: skip
    """Events of one item of a URLconf (`element`: the loop element it was written in)."""
    if value is None or depth > MAX_DEPTH:
        return
    if isinstance(value, ArrLit):  # a named list of patterns, `+ router.urls`
        for item in value.items:
            _register(interp, rule, owner, item, site, events, depth + 1)
        return
    if isinstance(value, Obj) and value.role == "pattern":
        _pattern(interp, rule, owner, value, events, depth, element)
        return
    child = _routable(value)
    if child is not None:  # `urlpatterns += router.urls`
        events.append(MountEvent(owner.model, owner, child, None, (), site))


def _pattern(interp: Interpreter, rule, owner: Obj, pattern: Obj, events: list[Event],
             depth: int, element: Site | None = None) -> None:  # fmt: skip
    site = element or pattern.origin
    path = pattern.prop("path")
    path = _unanchored(path) if pattern.prop("regex") is not None else path
    path = path if isinstance(path, STRINGISH) else Lit("")
    path_site, view_text = _written(interp, pattern.origin)
    view = pattern.prop("view")
    if isinstance(view, Obj) and view.role == "include":
        view = view.prop("urlconf"), view.origin
    elif isinstance(view, ArrLit) or _routable(view) is not None:
        view = view, site  # `path("", router.urls)`, `path("x/", (patterns, "app"))`
    if isinstance(view, tuple):
        for child in _included(interp, rule, owner, *view, site, events, depth):
            events.append(MountEvent(owner.model, owner, child, path, (), site, path_site,
                                     "path" if path_site else ""))  # fmt: skip
        return
    if isinstance(view, Ext) and view.path[-1:] == ("urls",):
        interp.cannot_read(site, "route_mount", view_text or view.dotted,
                    f"{view.dotted} generates these routes (outside the component)")  # fmt: skip
        return
    routes = view_routes(interp, view)
    if routes is None:
        interp.cannot_read(site, "route_handler", view_text or describe(view),
                    f"view {view_text or describe(view)} is not a function or class of the "
                    "component (a package's view?)")  # fmt: skip
        routes = [(str(rule.data.get("default_method", "GET")), None, [])]
    for verb, handler, guards in routes:
        events.append(RouteEvent(owner.model, owner, Lit(verb), path, handler, tuple(guards), site))


def _included(interp: Interpreter, rule, owner: Obj, target: Value | None, at: Site,
              site: Site, events: list[Event], depth: int) -> list[Value]:  # fmt: skip
    """What an `include(...)` puts below a pattern: URLconf modules, a list's own URLconf
    (its patterns registered on it), a router."""
    if isinstance(target, ArrLit) and target.items:
        first = target.items[0]
        if isinstance(first, (ArrLit, Lit, Module)) and len(target.items) == 2:
            target = first  # `(patterns, app_name)`, `("app.urls", "app")`
    if isinstance(target, Lit) and isinstance(target.value, str):
        rel = module_rel(interp, target.value)
        if rel is None:
            interp.cannot_read(site, "route_mount", f"include({target.value!r})",
                        f"include({target.value}): a URLconf outside the component (a package's routes)")  # fmt: skip
            return []
        return [urlconf(interp, owner.model, rel)]
    if isinstance(target, Module):
        return [urlconf(interp, owner.model, target.rel)]
    if isinstance(target, ArrLit):  # `include([path(...), ...])`: a URLconf of its own
        child = Obj(owner.model, "urlconf", at)
        _register(interp, rule, child, target, site, events, depth + 1)
        return [child]
    child = _routable(target)
    if child is not None:
        return [child]
    interp.cannot_read(site, "route_mount", describe(target) if target else "include()",
                "included URLconf not found in the component")  # fmt: skip
    return []


def _routable(value: Value | None) -> Obj | None:
    """A router (or its `urls`) of a framework model: the object its routes hang off."""
    if not isinstance(value, Obj) or value.role in ("pattern", "include", "view_function"):
        return None
    role = value.role.removesuffix(".urls")
    if role == value.role and value.role not in ("router", "default_router", "urlconf", "root"):
        return None
    return Obj(value.model, role, value.origin, value.props, value.name)


def _unanchored(path: Value | None) -> Value | None:
    """A regex pattern as a path: without its `^` and `$` anchors."""
    if isinstance(path, Lit) and isinstance(path.value, str):
        return Lit(path.value.removeprefix("^").removesuffix("$"))
    if isinstance(path, Concat) and path.parts:
        parts = list(path.parts)
        parts[0], parts[-1] = _unanchored(parts[0]), _unanchored(parts[-1])  # type: ignore[assignment]
        return Concat(tuple(parts))
    return path


def _written(interp: Interpreter, site: Site) -> tuple[Site | None, str]:
    """(where a pattern's route is written, its view as written), when the call spells them."""
    a = interp.ev.program.adapter(site.rel)
    node = a.node_at(site) if a is not None else None
    view = a.call_view(node) if a is not None and node is not None else None
    args = [n for n in view.args if n.type != "list_splat"] if view is not None else []
    if a is None or view is None or len(args) != len(view.args) or not args:
        return None, ""
    shown = " ".join(a.text(args[1]).split())[:120] if len(args) > 1 else ""
    return a.site(args[0]), shown


def django_settings(interp: Interpreter, rule, owner: Obj, call, src) -> list[Event]:
    """`ROOT_URLCONF = "…"` of the settings module: its MIDDLEWARE on the root URLconf."""
    root, settings = _settings(interp, owner.model)
    name = str(rule.data.get("middleware", "MIDDLEWARE"))
    rel = owner.origin.rel
    if rel != settings:
        return []  # another settings module (a test's): not the one the root is served by
    a = interp.ev.program.adapter(rel)
    binding = a.resolve(name, a.root) if a is not None else None
    if not root or binding is None or binding.value is None:
        return []
    chain = named_items(interp, rel, binding.value)
    target = urlconf(interp, owner.model, root)
    events: list[Event] = [UseEvent(owner.model, target, None, tuple(chain), a.site(binding.value),
                                    ordered=False)]  # fmt: skip
    for i, (value, where) in enumerate(chain):
        if isinstance(value, Klass):
            events += _answered(interp, owner.model, rule, value, where, tuple(chain[:i]))
    return events


def _answered(interp: Interpreter, model_id: str, rule, klass: Klass, where: Site,
              before: tuple) -> list[Event]:  # fmt: skip
    """Routes a middleware class answers itself: `if request.path == "/x": return …`."""
    ev = interp.ev
    a = ev.program.adapter(klass.site.rel)
    node = a.node_at(klass.site) if a is not None else None
    info = a.klass(node) if node is not None else None
    events: list[Event] = []
    for method in rule.data.get("answers_in", ("__call__",)):
        fn = info.methods.get(method) if info is not None else None
        params = a.function(fn).params if fn is not None else []
        if fn is None or len(params) < 2:
            continue
        request = params[1].name
        app = Obj(model_id, "root", where)  # its own root: only what runs before it applies
        for test in _nodes(fn, "if_statement"):
            path = _compared(a, test.child_by_field_name("condition"), f"{request}.path")
            if path is None:
                continue
            verb = _enclosing_method(a, test, f"{request}.method") or "ANY"
            handler = ev.class_member(klass, method, 1)
            body = test.child_by_field_name("consequence")
            for call in _nodes(body, "call") if body is not None else ():
                callee = a.text(call.child_by_field_name("function"))
                if callee.startswith("self."):
                    handler = ev.class_member(klass, callee[5:], 1)
                    break
            events.append(RouteEvent(model_id, app, Lit(verb), Lit(path), handler, before,
                                     a.site(test)))  # fmt: skip
    return events


def _nodes(root, kind: str) -> list:
    return [node for node in named_descendants(root) if node.type == kind]


def _compared(a, cond, subject: str) -> str | None:
    """`"/x"` of `subject == "/x"` (either side)."""
    if cond is None or cond.type != "comparison_operator" or cond.named_child_count != 2:
        return None
    if "==" not in a.text(cond):
        return None
    left, right = cond.named_children
    for this, other in ((left, right), (right, left)):
        if a.text(this) == subject and other.type == "string":
            value = a.view(other)
            return getattr(value, "value", None)
    return None


def _enclosing_method(a, node, subject: str) -> str | None:
    cur = node.parent
    while cur is not None and not a.is_function(cur):
        if cur.type == "if_statement":
            method = _compared(a, cur.child_by_field_name("condition"), subject)
            if method:
                return method.upper()
        cur = cur.parent
    return None


HOOKS = {"urlconf_patterns": urlconf_patterns, "django_settings": django_settings}
