"""Django REST framework routers (models/server/django-rest-framework.yaml):
`router.register(prefix, ViewSet)` is one route per action the viewset has, as DRF's
SimpleRouter names them (`data.list`: `{prefix}/`; `data.detail`: `{prefix}/{lookup}/`),
an action being the class's (or a component base's) method, or the class itself when a DRF
base gives it (`data.inherited`); plus each method marked `@action(detail=, methods=,
url_path=)` (`data.extra`: the decorator names), at the decorator's line. The lookup is the
class's `lookup_url_kwarg` / `lookup_field` (`data.lookup`), else `pk`; `trailing_slash=False`
on the router drops the final slash. Guards as for any DRF view (hooks/django_views.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.events import Event, RouteEvent
from extractors.engine.values import ArrLit, Ext, Func, Klass, Lit, Obj, Value
from extractors.models.hooks.django_views import (
    class_attr,
    guards_of,
    handler_of,
    op_data,
)

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation

MAX_BASES = 6


def viewset_routes(interp: Interpreter, op: Operation, router: Obj, call: Call,
                   src: CallSource) -> list[Event]:  # fmt: skip
    prefix = src.select(op.spec.get("path"))
    klass = src.select(op.spec.get("handler"))
    if not isinstance(prefix, Lit) or not isinstance(klass, Klass):
        return []
    data = op.data
    slash = "" if router.prop("trailing_slash") == Lit(False) else "/"
    base = str(prefix.value).strip("/")
    lookup = f"<{_lookup(interp, klass, data)}>"
    guards = tuple(guards_of(interp, klass, op_data(interp, router.model, "as_view")))
    events: list[Event] = []
    for kind, below in (("list", ""), ("detail", f"/{lookup}")):
        for verb, action in data.get(kind, ()):
            handler = handler_of(interp, klass, action, data)
            if handler is not None:
                path = Lit(f"{base}{below}{slash}")
                events.append(RouteEvent(router.model, router, Lit(verb), path, handler, guards,
                                         call.site, attrs=(("action", action),)))  # fmt: skip
    for fn, detail, methods, url_path, site in _extra(interp, klass, data, 0):
        path = Lit(f"{base}/{lookup}/{url_path}{slash}" if detail else f"{base}/{url_path}{slash}")
        for verb in methods:
            events.append(RouteEvent(router.model, router, Lit(verb), path, fn, guards, site))
    return events


def _lookup(interp: Interpreter, klass: Klass, data: dict) -> str:
    for attr in data.get("lookup", ()):
        found = class_attr(interp, klass, attr)
        value = interp.ev.eval(found[0], found[1], None) if found is not None else None
        if isinstance(value, Lit) and isinstance(value.value, str) and value.value:
            return value.value
    return str(data.get("default_lookup", "pk"))


def _extra(interp: Interpreter, klass: Klass, data: dict, depth: int) -> list:
    """(method, detail, HTTP methods, url_path, decorator site) per extra action."""
    ev = interp.ev
    a = ev.program.adapter(klass.site.rel)
    node = a.node_at(klass.site) if a is not None else None
    info = a.klass(node) if node is not None else None
    if info is None or depth > MAX_BASES:
        return []
    marks = set(data.get("extra", ()))
    out = []
    for name, decorators in info.method_decorators.items():
        for expr in decorators:
            view = a.call_view(expr)
            head = ev.eval(klass.site.rel, view.callee if view is not None else expr, None)
            mark = head.path[-1] if isinstance(head, Ext) and head.path else ""
            if mark not in marks:
                continue
            fn = ev.class_member(klass, name, 1)
            detail, methods, url_path = _action_options(interp, klass.site.rel, view, mark, data)
            out.append((fn if isinstance(fn, Func) else klass, detail, methods,
                        url_path or name, a.site(expr)))  # fmt: skip
    for base in info.bases:
        value = ev.eval(klass.site.rel, base, None)
        if isinstance(value, Klass):
            out += _extra(interp, value, data, depth + 1)
    return out


def _action_options(interp: Interpreter, rel: str, view, mark: str, data: dict):
    """(detail, HTTP methods, url_path) of `@action(detail=True, methods=[...], url_path=…)`
    (`@detail_route` / `@list_route`: detail by the name, `data.detail_marks`)."""
    ev = interp.ev

    def kw(name: str) -> Value | None:
        node = view.kwargs.get(name) if view is not None else None
        return ev.eval(rel, node, None) if node is not None else None

    detail = kw("detail") == Lit(True) or mark in data.get("detail_marks", ())
    given = kw("methods")
    items = given.items if isinstance(given, ArrLit) else ()
    methods = [str(v.value).upper() for v in items if isinstance(v, Lit)] or ["GET"]
    url_path = kw("url_path")
    return detail, methods, url_path.value if isinstance(url_path, Lit) else None


HOOKS = {"viewset_routes": viewset_routes}
__all__ = ["HOOKS", "Obj"]
