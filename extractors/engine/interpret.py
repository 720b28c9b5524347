"""One call or decorator, interpreted by the models into events.

`at_call` evaluates the callee; a method of a model object (or the object called itself)
is looked up in the model's operations, whose selectors read the call's arguments. A
method called on a parameter whose name is an operation of some model is *pending*: the
wrapper fixed point (`recognize.py`) re-reads it at each caller with the parameter bound.
"""

from __future__ import annotations

from dataclasses import replace

from extractors.engine.evaluate import SPREADS, Call, Evaluator
from extractors.engine.events import (
    DefineEvent,
    Event,
    InvokeEvent,
    MountEvent,
    NamingEvent,
    PrefixEvent,
    RequestEvent,
    RouteEvent,
    UseEvent,
)
from extractors.engine.heuristic_calls import heuristic_request
from extractors.engine.transforms import transform_events
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
    Unknown,
    UseSite,
    Value,
)
from extractors.engine.written import written_site
from extractors.lang.base import FileAdapter
from extractors.lang.expr import EArray, ECall, EName
from extractors.models.hooks import HOOKS
from extractors.models.runtime import CallSource, Library
from extractors.models.schema import Operation
from extractors.models.selectors import Selector, first_free

Pending = Param  # an event that waits for a parameter's argument


class DecoratorCall(Call):
    """The call a decorator reference stands for: its one argument is what it decorates."""

    def arg(self, i: int) -> Value | None:
        return self._args.get(i)


class Interpreter:
    def __init__(self, ev: Evaluator, library: Library):
        self.ev = ev
        self.lib = library
        self.unresolved: set[tuple[str, int, str, str, str]] = set()  # rows hooks write

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
        for branch, option in enumerate(callees):  # `client[c ? 'delete' : 'post'](url)`
            for target, name in self._targets(option):
                one = Call(self.ev, rel, node, view, act, option, target, call.depth, call._args)
                for op in self.lib.operations(target, name):
                    found = self.operation(op, target, one, decorated)
                    events += _chosen(found, callee, branch) if len(callees) > 1 else found
        made = self.ev.eval(rel, node, act) if self._makes(callee) else None
        if isinstance(made, Obj) and made.origin == call.site:
            for op in self.lib.operations(made, "<init>"):
                events += self.operation(op, made, call, decorated)
        if not events and decorated is None and not isinstance(made, Obj):
            guess = heuristic_request(self.lib, call, a.terminal(view.callee))
            events = [guess] if guess is not None else []
        return events, set()

    def at_reference(self, rel: str, a: FileAdapter, expr, decorated: Value) -> list[Event]:
        """A decorator that is a method of a model object, not a call of one
        (`@bp.before_request`, `@app.errorhandler`): that method called with the function."""
        callee = self.ev.eval(rel, expr, None)
        target, name = self._target(callee)
        if target is None:
            return []
        call = DecoratorCall(
            self.ev, rel, expr, ECall(expr, []), None, callee, target, 0, {0: decorated}
        )
        events: list[Event] = []
        for op in self.lib.operations(target, name):
            events += self.operation(op, target, call, None)
        return events

    def _targets(self, callee: Value) -> list[tuple[Obj, str]]:
        """Every model object a call reaches: a function two models read is each one's."""
        if isinstance(callee, Ext) and len(held := self.lib.claims(callee)) > 1:
            return [(obj, "()") for obj in held]
        target, name = self._target(callee)
        return [(target, name)] if target is not None else []

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
            url = _text(src.select(spec.get("url"), STRINGISH))
            if url is None:
                return []
            method = src.select(spec.get("method"), STRINGISH) or Lit("GET")
            base = src.select(spec.get("base"), STRINGISH)

            def present(term):
                return src.select(Selector((term,))) is not None

            url_at = written_site(self.ev, call.rel, call.node, spec.get("url"), obj, present)
            base_at = written_site(self.ev, call.rel, call.node, spec.get("base"), obj, present)
            function = src.select(spec.get("function"), STRINGISH)
            protocol = src.select(spec.get("protocol"), STRINGISH)
            return [RequestEvent(model, obj, method, url, base, site, (), url_at, base_at,
                                 function, None, str(protocol.value) if isinstance(protocol, Lit) else "")]  # fmt: skip
        if op.action == "route":
            return self._routes(op, obj, call, src, decorated)
        if op.action == "names":  # a function naming the operations of the target's routes
            target = src.select(spec.get("target")) if spec.get("target") else obj
            fn = src.select(spec.get("fn"))
            weak = src.select(spec.get("weak")) if spec.get("weak") else None
            return [NamingEvent(model, target, fn, site, weak is not None)] if isinstance(
                fn, Func) and target is not None else []  # fmt: skip
        if op.action in ("mount", "use"):
            return self._mounts(op, obj, call, src)
        if op.action == "prefix":
            path = src.select(spec.get("path")) or (Lit("") if "version" in spec else None)
            where, _ = self.written(spec.get("path"), call, src)
            name = callee_name(call)
            overall = src.select(spec.get("overall")) == Lit("yes")
            exclude = tuple(str(v.value) for v in _as_list(src.select(spec.get("exclude")))
                            if isinstance(v, Lit) and isinstance(v.value, str))  # fmt: skip
            version = src.select(spec.get("version"))
            if version is not None and not (
                isinstance(version, Ext) and version.path[-1:] == ("URI",)
            ):
                return []  # header or media-type versioning: no path segment
            vprefix = (
                src.select(spec.get("version_prefix"), STRINGISH) if version is not None else None
            )
            events = [PrefixEvent(model, obj, path, site, where, name, overall, exclude,
                                  (vprefix.value if isinstance(vprefix, Lit) else "v") if version is not None else None,
                                  src.select(spec.get("default_version")))]  # fmt: skip
            return events if path is not None else []
        if op.action == "transform":
            return transform_events(op, obj, src, site)  # type: ignore[return-value]
        if op.action == "defines":
            table = src.select(spec.get("table"))
            return [DefineEvent(model, table, site)] if table is not None else []
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
            item = s.item()
            site = (
                item.site if isinstance(item, ObjLit) else call.site
            )  # a route object: its own line
            if isinstance(decorated, Func):
                where = decorated.site
            op_id = s.select(spec.get("operation_id")) if spec.get("operation_id") else None
            extra = (("operation_id", op_id.value),) if isinstance(op_id, Lit) and isinstance(
                op_id.value, str) and op_id.value else ()  # fmt: skip
            values = tuple((key, v) for key in ("tags", "operation_id_function")
                           if spec.get(key) and (v := s.select(spec[key])) is not None)  # fmt: skip
            for verb, view in self.class_view(handler) or [(method, handler)]:
                events.append(RouteEvent(obj.model, router, verb, path, view, middleware, site,
                                         where, attrs=extra, values=values))  # fmt: skip
        return events

    def class_view(self, handler: Value | None) -> list[tuple[Value, Value]] | None:
        """A class-based view (`PlantView.as_view()`: a model's `class_views` role) as one
        route per HTTP-method method its class defines or inherits: (method, handler)."""
        if not isinstance(handler, Obj):
            return None
        model = self.lib.by_id.get(handler.model)
        spec = model.class_views if model is not None else None
        if not spec or handler.role != spec.get("role"):
            return None
        klass = handler.prop("class")
        if isinstance(klass, Obj):  # the subclass object: its class
            klass = Klass(klass.origin, "")
        if not isinstance(klass, Klass):
            return None
        out = []
        for verb in spec.get("methods", ()):
            found = self.ev.class_member(klass, verb, 1)
            if isinstance(found, Func):
                out.append((Lit(verb.upper()), found))
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
        items: list[tuple[Value, Site]] = []
        for key in ("child", "children", "items"):
            items += self.selected(spec.get(key), call, src, spec.get("path"))
        middleware = tuple(self.selected(spec.get("middleware"), call, src))
        path_site, path_name = (
            self.written(spec.get("path"), call, src) if path is not None else (None, "")
        )
        events: list[Event] = []
        uses: list[tuple[Value, Site]] = []
        for value, where in items:
            if self._mountable(value, op) or op.action == "mount" and key_is_child(spec, value):
                before = tuple(uses)  # `use('/api', auth, router)`: auth guards the router
                events.append(MountEvent(model, obj, value, path, middleware + before, call.site,
                                         path_site, path_name))  # fmt: skip
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

    def selected(self, selector: Selector | None, call: Call, src: CallSource,
                 after: Selector | None = None) -> list[tuple[Value, Site]]:  # fmt: skip
        """The values a selector names, each with the site it is written at: the arguments
        after the named ones (`rest`), the items of a list literal (`dependencies=[…]`), or
        the one argument — an injection marker (`Depends(fn)`) standing for what it injects."""
        if selector is None:
            return []
        a = self.ev.program.adapter(call.rel)
        nodes: list = []
        spread = next((i for i, n in enumerate(call.view.args) if n.type in SPREADS), None)
        for term in selector.terms:
            if term.path or term.kind not in ("arg", "kw", "rest"):
                continue
            if term.kind == "rest":
                start = first_free([after], src)
                if spread is not None:  # `f(x, ...list)`, `f(*args)`: the arguments it expands to
                    return [(v, call.site) for v in call.args()[start:] if v is not None]
                nodes = list(call.view.args[start:])
                break
            if term.kind == "arg" and spread is not None and int(term.key) >= spread:
                break  # after a spread: the argument's value, not a node of its own
            node = (
                call.view.args[int(term.key)]
                if term.kind == "arg" and int(term.key) < len(call.view.args)
                else call.view.kwargs.get(term.key)
                if term.kind == "kw"
                else None
            )
            if node is not None:
                view = a.view(node) if a is not None else None
                nodes = list(view.items) if isinstance(view, EArray) else [node]
                break
        if not nodes or a is None:
            value = src.select(selector)
            if isinstance(call, DecoratorCall):  # the decorated function, where it is defined
                return [(v, v.site if isinstance(v, Func) else call.site) for v in _as_list(value)]
            return [(v, call.site) for v in _as_list(value)]
        flat = []
        for node in nodes:  # `[auth, validate]` passed as one argument: each element
            view = a.view(node)
            flat += list(view.items) if isinstance(view, EArray) else [node]
        out = []
        for node in flat:
            node = self.injected_node(call.rel, node) or node
            value = self.ev.eval(call.rel, node, call.act)
            items = (
                value.items if isinstance(value, ArrLit) else (value,)
            )  # one use per written item
            out += [(v, a.site(node)) for v in items]
        return out

    def written(
        self, selector: Selector | None, call: Call, src: CallSource
    ) -> tuple[Site | None, str]:
        """Where the value a selector takes is written, and what the code calls it: a
        keyword argument by its keyword (`prefix`), a positional one by the call (`app.use`,
        `setGlobalPrefix`)."""
        a = self.ev.program.adapter(call.rel)
        if selector is None or a is None:
            return None, ""
        for term in selector.terms:
            node = None
            if term.kind == "arg" and int(term.key) < len(call.view.args):
                node = call.view.args[int(term.key)]
                name = " ".join(a.text(call.view.callee).split())[:60]
            elif term.kind == "kw":
                node = call.view.kwargs.get(term.key)
                name = term.key
            if node is not None and src.select(Selector((term,))) is not None:
                return a.site(node), name
        return None, ""

    def injected_node(self, rel: str, node) -> object | None:
        """`Depends(fn)` / `Security(fn)` (a model's `injects`): the node of what it injects."""
        a = self.ev.program.adapter(rel)
        view = a.call_view(node) if a is not None else None
        if view is None or not view.args:
            return None
        callee = self.ev.eval(rel, view.callee, None)
        if isinstance(callee, Ext) and callee.dotted in self.lib.injects:
            return view.args[0]
        return None

    def injected_params(self, handler: Value) -> list[tuple[Value, Site]]:
        """What a handler's parameters inject, in order (`user = Depends(current_user)`,
        `Annotated[User, Depends(current_user)]`): middleware of its route."""
        if not isinstance(handler, Func):
            return []
        a = self.ev.program.adapter(handler.site.rel)
        node = a.node_at(handler.site) if a is not None else None
        if a is None or node is None or not a.is_function(node):
            return []
        out = []
        for param in a.function(node).params:
            for candidate in (param.default, param.type):
                found = self._marker_in(handler.site.rel, a, candidate)
                if found is not None:
                    where, marker = found  # the marker may sit in an alias declared elsewhere
                    value = self.ev.eval(where, marker, None)
                    named = self.ev.program.adapter(where).site(marker)  # type: ignore[union-attr]
                    line = a.site(param.node).line  # used on the parameter's line
                    out.append((value, UseSite(named.rel, named.line, named.end_line, named.col,
                                               named.start, named.end, handler.site.rel, line)))  # fmt: skip
                    break
        return out

    def _marker_in(self, rel: str, a, node, depth: int = 0):
        """(file, node) of what an annotation or default injects, through an alias."""
        if node is None or depth > 4:
            return None
        found = self.injected_node(rel, node)
        if found is not None:
            return rel, found
        for child in node.named_children:  # `Annotated[T, Depends(fn)]`, a type alias's value
            found = self._marker_in(rel, a, child, depth + 1)
            if found is not None:
                return found
        if (
            node.type in ("identifier", "type") and depth == 0
        ):  # an alias: `CurrentUser = Annotated[...]`
            value_node = self._alias_node(rel, a, node)
            if value_node is not None:
                return self._marker_in(*value_node, depth + 1)
        return None

    def _alias_node(self, rel: str, a, node):
        """An annotation that is a name (`CurrentUser`): the alias's value, where declared."""
        name_node = node.named_children[0] if node.type == "type" and node.named_children else node
        if name_node.type != "identifier":
            return None
        found = self.ev.program.declaration(rel, a.text(name_node), name_node)
        if found is None or found[1].value is None:
            return None
        where, binding = found
        return where, self.ev.program.adapter(where), binding.value

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


def _chosen(events: list[Event], callee: Value, branch: int) -> list[Event]:
    """The events of one alternative of a callee chosen at run time, their HTTP method
    carrying the condition that chose it (the other branches left as nothing known)."""
    if not isinstance(callee, Choice) or not callee.condition:
        return events
    out: list[Event] = []
    for event in events:
        if isinstance(event, (RouteEvent, RequestEvent)) and isinstance(event.method, Lit):
            other = Unknown("", "another branch of the callee")
            held = tuple(event.method if i == branch else other for i in range(len(callee.options)))
            event = replace(event, method=Choice(held, callee.condition))
        out.append(event)
    return out


def callee_name(call: Call) -> str:
    """The method a call names (`setGlobalPrefix`), else its callee as written."""
    if isinstance(call.callee, Method):
        return call.callee.name
    a = call.ev.program.adapter(call.rel)
    return " ".join(a.text(call.view.callee).split())[:60] if a is not None else ""


def _at_line(where: Site, call: Site) -> Site:
    """An argument's node, read as used on the line of the call that applies it."""
    return Site(where.rel, call.line, call.line, where.col, where.start, where.end)


def key_is_child(spec: dict, value: Value) -> bool:
    """An explicitly named child (`include_router(router)`) is mounted whatever it is."""
    return ("child" in spec or "children" in spec) and isinstance(
        value, (Obj, Func, Klass, Instance, Param)
    )


def _text(value: Value | None) -> Value | None:
    """A URL as text: a choice's alternatives that are not text (a member of an unknown
    response) stay unknown, so they become `unresolved` rows, never a `{Method}` hole."""
    if isinstance(value, Choice):
        return Choice(
            tuple(_text(o) or Unknown("", "not text") for o in value.options), value.condition
        )
    return value if isinstance(value, STRINGISH) else None


def _as_list(value: Value | None) -> list[Value]:
    if value is None:
        return []
    if isinstance(value, ArrLit):
        return list(value.items)
    if isinstance(value, Choice):
        return list(value.options)
    return [value]


__all__ = ["Interpreter", "Pending", "EName", "ECall", "ObjLit"]
