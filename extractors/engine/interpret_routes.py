"""Registrations read from a call by a model's `route`, `mount` and `use` operations: the
routes (one per item of a route table, one per HTTP method of a class-based view) with
their handler, middleware, guards and injected parameters; the mounts of routers, and
what is used where the call is. The part of the interpreter that builds the mount tree's
edges, kept apart from dispatching a call to its operations.
"""

from __future__ import annotations

from extractors.engine.evaluate import Call
from extractors.engine.events import (
    Event,
    MountEvent,
    RouteEvent,
    UseEvent,
)
from extractors.engine.interpret_args import DecoratorCall
from extractors.engine.paths import join
from extractors.engine.values import (
    STRINGISH,
    ArrLit,
    Func,
    Instance,
    Klass,
    Lit,
    Obj,
    ObjLit,
    Param,
    Seq,
    Site,
    Value,
    literal_names,
)
from extractors.models.runtime import CallSource
from extractors.models.schema import Operation
from extractors.models.selectors import Selector


class Registrations:
    """`Interpreter`'s route, mount and use operations."""

    def _routes(self, op: Operation, obj: Obj, call: Call, src: CallSource,
                decorated: Value | None) -> list[Event]:  # fmt: skip
        spec = op.spec
        items_value = src.select(spec.get("items"))
        sources = [src]
        if items_value is not None:
            items = items_value.items if isinstance(items_value, ArrLit) else (items_value,)
            sources = [CallSource(self.ev, call, obj, decorated, item) for item in items]
        events: list[Event] = []
        for s in sources:
            path = s.select(spec.get("path"))
            if path is None:
                path = Lit("")
            handler, where, middleware = self._handlers(spec, s, call)
            if decorated is not None and handler is None:
                handler = decorated
            guards = (
                self.decorators.function_middleware(handler, call.node)
                if decorated is not None
                else []
            )
            middleware = tuple(middleware + guards + self.injected_params(handler))
            method = s.select(spec.get("method")) or Lit(s.method_name())
            router = s.select(spec.get("router")) or obj
            site = _item_site(s.item()) or call.site  # a route object or tuple: its own line
            if isinstance(decorated, Func):
                where = decorated.site
            op_id = s.select(spec.get("operation_id")) if spec.get("operation_id") else None
            extra = (("operation_id", op_id.value),) if isinstance(op_id, Lit) and isinstance(
                op_id.value, str) and op_id.value else ()  # fmt: skip
            values = tuple((key, v) for key in ("tags", "operation_id_function")
                           if spec.get(key) and (v := s.select(spec[key])) is not None)  # fmt: skip
            exposed = literal_names(s.select(spec.get("exposes"))) if spec.get("exposes") else None
            views = self.class_view(handler, obj.model, exposed)
            # a list of paths (Express's `app.get(['/a', '/b'], h)`): one route per path
            paths = path.items if isinstance(path, ArrLit) and path.items else (path,)
            for verb, view, below in views or [(method, handler, "")]:
                for one in paths:
                    at_path = join(one, Lit(below)) if below else one
                    events.append(RouteEvent(obj.model, router, verb, at_path, view, middleware,
                                             site, where, attrs=extra, values=values))  # fmt: skip
        return events

    def class_view(
        self, handler: Value | None, route_model: str = "", exposed: list[str] | None = None
    ) -> list[tuple[Value, Value, str]] | None:
        """A class-based view as one route per HTTP-method method its class defines or
        inherits: (method, handler, path below the route's). The view is an object of a
        model's `class_views` role (`PlantView.as_view()`, a class deriving from `Resource`),
        or — where the route's own model reads any class that way (Falcon's resources,
        Feathers' services) — a class, an instance of one or an object literal. `exposed`
        names the methods the registration says it serves, whether or not the class is read
        (a service deriving from a library's class)."""
        if isinstance(handler, ObjLit):
            return self._object_view(handler, route_model, exposed)
        if isinstance(handler, Instance):  # `add_route('/x', Things())`
            handler = handler.klass
        made = self.lib.subclass(self.ev, handler) if isinstance(handler, Klass) else handler
        spec, klass = None, None
        if isinstance(made, Obj):
            model = self.lib.by_id.get(made.model)
            found = model.class_views if model is not None else {}
            roles = found.get("role")
            if found and made.role in (roles if isinstance(roles, list) else [roles]):
                spec, klass = found, made.prop("class") or made  # a view function's class
        if spec is None and isinstance(handler, Klass):
            model = self.lib.by_id.get(route_model)
            found = model.class_views if model is not None else {}
            if found and "role" not in found:
                spec, klass = found, handler
        if spec is None:
            return None
        if isinstance(klass, Obj):  # the subclass object: its class
            klass = Klass(klass.origin, "")
        if not isinstance(klass, Klass):
            return None
        return self._view_routes(spec, exposed, lambda name: self.ev.class_member(klass, name, 1))

    def _object_view(self, view: ObjLit, route_model: str, exposed: list[str] | None):
        """An object literal of methods read as a view (`app.use('kites', { find() {…} })`),
        where the route's model reads any class or object so."""
        model = self.lib.by_id.get(route_model)
        spec = model.class_views if model is not None else {}
        if not spec or "role" in spec:
            return None
        return self._view_routes(spec, exposed, lambda name: self.ev.object_member(view, name, 1))

    def _view_routes(self, spec: dict, exposed: list[str] | None, member) -> list | None:
        """(method, handler, path below) per view method: those the view defines, or those
        `exposed` names (its handler then the view's method where it has one). A method maps
        to an HTTP method, or to one and a path below the route's (`get: GET /:id`)."""
        methods = spec.get("methods", ())
        pairs = methods.items() if isinstance(methods, dict) else [(m, m) for m in methods]
        out = []
        for name, mapped in pairs:
            if exposed is not None and name not in exposed:
                continue
            found_method = member(name)
            if exposed is None and not isinstance(found_method, Func):
                continue
            verb, _, below = str(mapped).partition(" ")
            handler = found_method if isinstance(found_method, Func) else None
            out.append((Lit(verb.upper()), handler, below.strip()))
        return out or None

    def _handlers(self, spec: dict[str, Selector], src: CallSource, call: Call):
        """(handler, its site, middleware with sites): `handler` names it, else the last of
        `handlers` (the arguments after the path), the ones before it being middleware; a
        handler's injected parameters (`Depends(fn)`) come after."""
        middleware = self.selected(spec.get("middleware"), call, src)
        handler = src.select(spec.get("handler"))
        where = None
        if spec.get("handlers") is not None:
            args = self.selected(spec.get("handlers"), call, src, spec.get("path"))
            if args and handler is None:
                handler, where = args[-1]
                args = args[:-1]
            middleware += args
        return handler, where, middleware

    def _mounts(self, op: Operation, obj: Obj, call: Call, src: CallSource) -> list[Event]:
        spec = op.spec
        model = obj.model
        path = src.select(spec.get("path"))
        if path is not None and not isinstance(path, STRINGISH):
            path = None
        items: list[tuple[Value, Site]] = []
        for key in ("child", "children", "items"):
            items += self.selected(spec.get(key), call, src, spec.get("path"))
        middleware = tuple(self.selected(spec.get("middleware"), call, src))
        path_site, path_name = (
            self.written(spec.get("path"), call, src) if path is not None else (None, "")
        )
        events: list[Event] = []
        uses: list[tuple[Value, Site]] = []
        # the parent a call names (`Api(app)`: the app the new object hangs off), else the receiver
        parent = (src.select(spec.get("parent")) if spec.get("parent") else None) or obj
        for value, where in items:
            if self._mountable(value, op) or op.action == "mount" and key_is_child(spec, value):
                before = tuple(uses)  # `use('/api', auth, router)`: auth guards the router
                events.append(MountEvent(model, parent, value, path, middleware + before,
                                         call.site, path_site, path_name))  # fmt: skip
            elif op.action == "use" or "items" in spec:
                # used where the call is (a decorator reference: where the function is)
                uses.append(
                    (
                        value,
                        where if isinstance(call, DecoratorCall) else _at_line(where, call.site),
                    )
                )
        if uses and not any(isinstance(e, MountEvent) for e in events):
            target = src.select(spec.get("target")) or obj  # `cors.init_app(blueprint)`
            ordered = src.select(spec.get("ordered")) != Lit("no")
            events.append(UseEvent(model, target, path, tuple(uses), call.site, ordered=ordered))
        return events

    def _mountable(self, value: Value, op: Operation) -> bool:
        """A router-like value: a model object that can hold routes or mounts, a class the
        models make one of, or a plugin function where the operation takes plugins."""
        if isinstance(value, Obj):
            return self.lib.holds_routes(value)
        if isinstance(value, Func):
            return "plugin" in op.spec
        if isinstance(value, Klass):
            made = self.lib.subclass(self.ev, value)
            return made is not None and self.lib.holds_routes(made)
        return False


def _item_site(item: Value | None) -> Site | None:
    """Where an item of a route table is written: an object literal, a tuple or list, or
    the call that made a route spec (Tornado's `url(…)`)."""
    if isinstance(item, (ObjLit, ArrLit, Seq)):
        return item.site
    if isinstance(item, Obj) and item.origin is not None and not item.origin.rel.startswith("<"):
        return item.origin
    return None


def _at_line(where: Site, call: Site) -> Site:
    """An argument's node, read as used on the line of the call that applies it."""
    return Site(where.rel, call.line, call.line, where.col, where.start, where.end)


def key_is_child(spec: dict, value: Value) -> bool:
    """An explicitly named child (`include_router(router)`) is mounted whatever it is."""
    return ("child" in spec or "children" in spec) and isinstance(
        value, (Obj, Func, Klass, Instance, Param)
    )
