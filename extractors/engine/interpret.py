"""One call or decorator, interpreted by the models into events.

`at_call` evaluates the callee; a method of a model object (or the object called itself)
is looked up in the model's operations, whose selectors read the call's arguments. A
method called on a parameter whose name is an operation of some model is *pending*: the
wrapper fixed point (`recognize.py`) re-reads it at each caller with the parameter bound.
"""

from __future__ import annotations

from extractors.engine.evaluate import Call, Evaluator
from extractors.engine.events import (
    Event,
    InvokeEvent,
    MountEvent,
    PrefixEvent,
    RequestEvent,
    RouteEvent,
    UseEvent,
)
from extractors.engine.values import (
    STRINGISH,
    Activation,
    ArrLit,
    Choice,
    Ext,
    Func,
    Instance,
    Klass,
    Lit,
    Method,
    Obj,
    ObjLit,
    Param,
    Site,
    Value,
)
from extractors.lang.base import FileAdapter
from extractors.lang.expr import ECall, EName
from extractors.models.hooks import HOOKS
from extractors.models.runtime import CallSource, Library
from extractors.models.schema import Operation
from extractors.models.selectors import Selector, first_free

Pending = Param  # an event that waits for a parameter's argument


class Interpreter:
    def __init__(self, ev: Evaluator, library: Library):
        self.ev = ev
        self.lib = library

    # --- calls ----------------------------------------------------------------------
    def at_call(self, rel: str, a: FileAdapter, node, act: Activation | None,
                decorated: Value | None = None) -> tuple[list[Event], set]:  # fmt: skip
        """(events, scopes the call waits on)."""
        view = a.call_view(node)
        if view is None:
            return [], set()
        callee = self.ev.eval(rel, view.callee, act)
        receiver = callee.target if isinstance(callee, Method) else None
        call = Call(self.ev, rel, node, view, act, callee, receiver)
        if (
            isinstance(callee, Param) and "." in callee.name
        ):  # `server.route(…)`, server a parameter
            if callee.name.rsplit(".", 1)[1] in self.lib.vocabulary:
                return [], {callee.scope}
            return [], set()
        events: list[Event] = []
        callees = callee.options if isinstance(callee, Choice) else (callee,)
        for option in callees:  # `client[cond ? 'delete' : 'post'](url)`: each method
            target, name = self._target(option)
            if target is None:
                continue
            one = Call(self.ev, rel, node, view, act, option, target, call.depth, call._args)
            for op in self.lib.operations(target, name):
                events += self.operation(op, target, one, decorated)
        made = self.ev.eval(rel, node, act) if self._makes(callee) else None
        if isinstance(made, Obj) and made.origin == call.site:
            for op in self.lib.operations(made, "<init>"):
                events += self.operation(op, made, call, decorated)
        return events, set()

    def _target(self, callee: Value) -> tuple[Obj | None, str]:
        if isinstance(callee, Method) and isinstance(callee.target, Obj):
            return callee.target, callee.name
        if isinstance(callee, Obj):
            return callee, "()"
        if isinstance(callee, Ext):
            obj = self.lib.claim(callee)
            if obj is not None:
                return obj, "()"
            if callee.path:  # `import { useQuery } from 'react-query'`: the module's function
                owner = self.lib.claim(Ext(callee.package, callee.path[:-1]))
                if owner is not None:
                    return owner, callee.path[-1]
        return None, ""

    def _makes(self, callee: Value) -> bool:
        return isinstance(callee, (Ext, Klass)) or (
            isinstance(callee, Method) and isinstance(callee.target, Obj)
        )

    # --- one operation --------------------------------------------------------------
    def operation(
        self, op: Operation, obj: Obj, call: Call, decorated: Value | None
    ) -> list[Event]:
        src = CallSource(self.ev, call, obj, decorated)
        spec = op.spec
        model = obj.model
        site = call.site
        if op.hook:
            return HOOKS[op.hook](self, op, obj, call, src)
        if op.action == "request":
            url = src.select(spec.get("url"), STRINGISH)
            if url is None:
                return []
            method = src.select(spec.get("method"), STRINGISH) or Lit("GET")
            base = src.select(spec.get("base"), STRINGISH)
            return [RequestEvent(model, obj, method, url, base, site)]
        if op.action == "route":
            return self._routes(op, obj, call, src, decorated)
        if op.action in ("mount", "use"):
            return self._mounts(op, obj, call, src)
        if op.action == "prefix":
            path = src.select(spec.get("path"))
            return [PrefixEvent(model, obj, path, site)] if path is not None else []
        if op.action == "invoke":
            fn = src.select(spec.get("fn"), (Func,))
            args = tuple(
                v
                for key in ("arg0", "arg1", "arg2")
                if (v := src.select(spec.get(key))) is not None
            )
            return [InvokeEvent(model, fn, args, site)] if fn is not None else []
        return []

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
            handler, middleware = self._handlers(spec, s, call)
            if decorated is not None and handler is None:
                handler = decorated
            method = s.select(spec.get("method")) or Lit(s.method_name())
            router = s.select(spec.get("router")) or obj
            item = s.item()
            site = (
                item.site if isinstance(item, ObjLit) else call.site
            )  # a route object: its own line
            events.append(RouteEvent(obj.model, router, method, path, handler, middleware, site,
                                     decorated.site if isinstance(decorated, Func) else None))  # fmt: skip
        return events

    def _handlers(self, spec: dict[str, Selector], src: CallSource, call: Call):
        """(handler, middleware with sites): `handler` names it, else the last of `handlers`
        (the arguments after the path), the ones before it being middleware."""
        site_of = self._arg_sites(call)
        middleware: list[tuple[Value, Site]] = []
        for value in _as_list(src.select(spec.get("middleware"))):
            middleware.append((value, call.site))
        handler = src.select(spec.get("handler"))
        chain = spec.get("handlers")
        if chain is not None and any(t.kind == "rest" for t in chain.terms):
            start = first_free([spec.get("path")], src)
            args = [(call.arg(i), site_of(i)) for i in range(start, len(call.view.args))]
            args = [(v, s) for v, s in args if v is not None]
            if args and handler is None:
                handler = args[-1][0]
                args = args[:-1]
            middleware += args  # type: ignore[arg-type]
        return handler, tuple(middleware)

    def _arg_sites(self, call: Call):
        a = self.ev.program.adapter(call.rel)

        def site(i: int) -> Site:
            return (
                a.site(call.view.args[i])
                if a is not None and i < len(call.view.args)
                else call.site
            )

        return site

    def _mounts(self, op: Operation, obj: Obj, call: Call, src: CallSource) -> list[Event]:
        spec = op.spec
        model = obj.model
        path = src.select(spec.get("path"))
        if path is not None and not isinstance(path, STRINGISH):
            path = None
        site_of = self._arg_sites(call)
        items: list[tuple[Value, Site]] = []
        for key in ("child", "children"):
            value = src.select(spec.get(key))
            for item in _as_list(value):
                items.append((item, call.site))
        chain = spec.get("items")
        if chain is not None and any(t.kind == "rest" for t in chain.terms):
            start = first_free([spec.get("path")], src)
            for i in range(start, len(call.view.args)):
                value = call.arg(i)
                for item in _as_list(value):
                    items.append((item, site_of(i)))
        middleware = tuple(
            (v, s) for v in _as_list(src.select(spec.get("middleware"))) for s in [call.site]
        )
        events: list[Event] = []
        uses: list[tuple[Value, Site]] = []
        for value, where in items:
            if self._mountable(value, op) or op.action == "mount" and key_is_child(spec, value):
                before = tuple(uses)  # `use('/api', auth, router)`: auth guards the router
                events.append(MountEvent(model, obj, value, path, middleware + before, call.site))
            elif op.action == "use" or chain is not None:
                uses.append((value, where))
        if uses and not any(isinstance(e, MountEvent) for e in events):
            events.append(UseEvent(model, obj, path, tuple(uses), call.site))
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


def key_is_child(spec: dict, value: Value) -> bool:
    """An explicitly named child (`include_router(router)`) is mounted whatever it is."""
    return ("child" in spec or "children" in spec) and isinstance(
        value, (Obj, Func, Klass, Instance, Param)
    )


def _as_list(value: Value | None) -> list[Value]:
    if value is None:
        return []
    if isinstance(value, ArrLit):
        return list(value.items)
    if isinstance(value, Choice):
        return list(value.options)
    return [value]


__all__ = ["Interpreter", "Pending", "EName", "ECall", "ObjLit"]
