"""Decorators a model names (`@Controller('users')`, `@Get(':id')`, `@UseGuards(…)`,
Litestar's `@get('/x')`): routes of a class's methods or of a function, the object a
decorated class becomes, and the middleware a decorator attaches (to a method, or to every
route of the class)."""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node as TsNode

from extractors.engine.evaluate import Call, Evaluator
from extractors.engine.events import Event, MountEvent, RouteEvent, UseEvent
from extractors.engine.values import ArrLit, Ext, Func, Klass, Lit, Obj, Site, Value
from extractors.lang.base import FileAdapter
from extractors.models.runtime import CallSource, ClassSource, Library
from extractors.models.schema import Decorator


class Decorators:
    def __init__(self, ev: Evaluator, library: Library):
        self.ev = ev
        self.lib = library
        self._by_name: dict[str, list[tuple[str, Decorator]]] = {}
        for model in library.models:
            for deco in model.decorators:
                for name in deco.names:
                    self._by_name.setdefault(name, []).append((model.id, deco))

    def lookup(
        self, rel: str, a: FileAdapter, expr: TsNode
    ) -> tuple[str, Decorator, Call | None] | None:
        """(model id, decorator, its call) for a decorator expression a model names."""
        callee_node, view = a.decorator_callee(expr)
        callee = self.ev.eval(rel, callee_node, None)
        if not isinstance(callee, Ext) or not callee.path:
            return None
        name = callee.path[-1]
        for model_id, deco in self._by_name.get(name, ()):
            if not deco.modules or any(
                callee.package == m or callee.package.startswith((m + "/", m + "."))
                for m in deco.modules
            ):
                call = Call(self.ev, rel, expr, view, None, callee) if view is not None else None
                return model_id, deco, call
        return None

    def class_object(self, rel: str, a: FileAdapter, cls: TsNode) -> Obj | None:
        """The object a class is: made by a class decorator, or by deriving a library class."""
        info = a.klass(cls)
        if info is None:
            return None
        for expr in info.decorators:
            found = self.lookup(rel, a, expr)
            if found is None or found[1].action != "makes":
                continue
            model_id, deco, call = found
            src = CallSource(self.ev, call, None) if call is not None else None
            props = tuple((k, v) for k, sel in deco.spec.items()
                          if src is not None and (v := src.select(sel)) is not None)  # fmt: skip
            return Obj(model_id, deco.role or "controller", a.site(cls), props, info.name)
        made = self.lib.subclass(self.ev, Klass(a.site(cls), info.name))
        return replace(made, name=info.name) if made is not None else None

    def class_object_of(self, klass: Klass) -> Obj | None:
        a = self.ev.program.adapter(klass.site.rel)
        node = a.node_at(klass.site) if a is not None else None
        return (
            self.class_object(klass.site.rel, a, node)
            if a is not None and node is not None
            else None
        )

    def at(self, rel: str, a: FileAdapter, expr: TsNode, target: TsNode,
           decorated: Value | None) -> list[Event]:  # fmt: skip
        found = self.lookup(rel, a, expr)
        if found is None:
            return []
        model_id, deco, call = found
        src = CallSource(self.ev, call, None, decorated) if call is not None else None
        site = a.site(expr)
        if deco.action == "route":
            return self._route(rel, a, expr, target, decorated, model_id, deco, src, site)
        if deco.action == "makes" and deco.children and src is not None:
            owner = self.class_object(rel, a, target)
            return self._children(owner, deco, src, site) if owner is not None else []
        if deco.action == "use" and target.type in {
            "class_declaration",
            "class_definition",
            "class",
        }:
            owner = self.class_object(rel, a, target)
            items = self._items(src, deco)
            if owner is not None and items:
                return [UseEvent(model_id, owner, None, tuple(items), site)]
        return []

    def _children(self, owner: Obj, deco: Decorator, src: CallSource, site: Site) -> list[Event]:
        """What a made object mounts: classes it lists (`@Module({ controllers, imports })`),
        and route tables a library object carries (a model operation's `children` hook)."""
        from extractors.models.hooks import HOOKS

        events: list[Event] = []
        for selector in deco.children:
            value = src.select(selector)
            items = (
                value.items
                if isinstance(value, ArrLit)
                else ((value,) if value is not None else ())
            )
            for item in items:
                if isinstance(item, Klass):
                    events.append(MountEvent(owner.model, owner, item, None, (), site))
                elif isinstance(item, Obj):
                    for op in self.lib.operations(item, "<children>"):
                        if op.hook:
                            events += HOOKS[op.hook](self, op, owner, item, site)
        return events

    def _route(self, rel, a, expr, target, decorated, model_id, deco, src, site) -> list[Event]:
        if not isinstance(decorated, Func):
            return []
        cls = a.class_of_method(target) if a.is_function(target) else None
        router: Value | None = self.class_object(rel, a, cls) if cls is not None else None
        if router is None:
            router = decorated  # a function route, mounted where it is listed
        name = self._name(rel, expr, a)
        method = Lit(deco.names.get(name) or "") if deco.names.get(name) else None
        if method is None and src is not None:
            method = src.select(deco.spec.get("method"))
        path = src.select(deco.spec.get("path")) if src is not None else None
        middleware = self._method_middleware(rel, a, target, cls)
        return [RouteEvent(model_id, router, method or Lit("GET"), path if path is not None else Lit(""),
                           decorated, tuple(middleware), site, decorated.site,
                           values=self._method_descriptions(rel, a, target, cls))]  # fmt: skip

    def _method_exprs(self, a: FileAdapter, method: TsNode, cls) -> list[TsNode]:
        """The decorators written on a method (or on a function)."""
        if cls is None:
            return a.function(method).decorators
        info = a.klass(cls)
        return info.method_decorators.get(a.function(method).name, []) if info is not None else []

    def _method_descriptions(self, rel, a: FileAdapter, method: TsNode, cls) -> tuple:
        """What the method's `describes` decorators say of its route (NestJS `@Version('2')`:
        its `version`), read when the route is named and placed."""
        out = []
        for expr in self._method_exprs(a, method, cls):
            found = self.lookup(rel, a, expr)
            if found is None or found[1].action != "describes" or found[2] is None:
                continue
            src = CallSource(self.ev, found[2], None)
            out += [(key, value) for key, selector in found[1].spec.items()
                    if key != "operation_id" and (value := src.select(selector)) is not None]  # fmt: skip
        return tuple(out)

    def _name(self, rel: str, expr: TsNode, a: FileAdapter) -> str:
        """The decorator's name where the library defines it (`Post` imported as `P`)."""
        callee, _ = a.decorator_callee(expr)
        value = self.ev.eval(rel, callee, None)
        if isinstance(value, Ext) and value.path:
            return value.path[-1]
        return a.terminal(callee) or ""

    def _items(self, src: CallSource | None, deco: Decorator) -> list[tuple[Value, Site]]:
        """Each argument of a middleware decorator with the site it is written at."""
        if src is None:
            return []
        a = self.ev.program.adapter(src.call.rel)
        items = []
        for i, node in enumerate(src.call.view.args):
            value = src.arg(i)
            if value is not None and a is not None:
                items.append((value, a.site(node)))
        return items

    def _method_middleware(
        self, rel, a: FileAdapter, method: TsNode, cls
    ) -> list[tuple[Value, Site]]:
        """Middleware decorators of the method itself (the class's come through its UseEvent)."""
        out: list[tuple[Value, Site]] = []
        for expr in self._method_exprs(a, method, cls):
            found = self.lookup(rel, a, expr)
            if found is None or found[1].action != "use":
                continue
            _, deco, call = found
            src = CallSource(self.ev, call, None) if call is not None else None
            items = self._items(src, deco)
            out += items if items else [(self.ev.eval(rel, expr, None), a.site(expr))]
        return out

    def function_middleware(
        self, handler: Value, route_expr: TsNode | None
    ) -> list[tuple[Value, Site]]:
        """The decorators that guard a route's handler function, top to bottom, after the
        route's own: a model's guard decorator (`@login_required`), or a decorator of the
        component that wraps the function (it returns an inner function that runs first)."""
        if not isinstance(handler, Func):
            return []
        a = self.ev.program.adapter(handler.site.rel)
        node = a.node_at(handler.site) if a is not None else None
        if (
            a is None
            or node is None
            or not a.is_function(node)
            or a.class_of_method(node) is not None
        ):
            return []
        rel = handler.site.rel
        out: list[tuple[Value, Site]] = []
        for expr in a.function(node).decorators:
            if route_expr is not None and (expr.start_byte, expr.end_byte) == (
                route_expr.start_byte,
                route_expr.end_byte,
            ):
                continue
            found = self.lookup(rel, a, expr)
            if found is not None:
                if found[1].action == "use":
                    out.append((self.ev.eval(rel, expr, None), a.site(expr)))
                continue
            view = a.call_view(expr)
            head = self.ev.eval(rel, view.callee if view is not None else expr, None)
            if isinstance(head, Func) and self._wraps(head):
                out.append((head, a.site(expr)))
        return out

    def _wraps(self, fn: Func) -> bool:
        """A decorator that wraps: it defines a function and returns one."""
        a = self.ev.program.adapter(fn.site.rel)
        node = a.node_at(fn.site) if a is not None else None
        if a is None or node is None:
            return False
        info = a.function(node)
        for ret in a.returns(info):
            value = self.ev.eval(fn.site.rel, ret, None)
            if isinstance(value, Func) and value.site != fn.site:
                return True
        return False


__all__ = ["Decorators", "ClassSource"]
