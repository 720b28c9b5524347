"""One call or decorator, interpreted by the models into events.

`at_call` evaluates the callee; a method of a model object (or the object called itself)
is looked up in the model's operations, whose selectors read the call's arguments. A
method called on a parameter whose name is an operation of some model is *pending*: the
wrapper fixed point (`recognize.py`) re-reads it at each caller with the parameter bound.
"""

from __future__ import annotations

from dataclasses import replace

from extractors.engine.evaluate import Call, Evaluator
from extractors.engine.events import (
    DefineEvent,
    Event,
    InvokeEvent,
    NamingEvent,
    PrefixEvent,
    RequestEvent,
    RouteEvent,
)
from extractors.engine.heuristic_calls import heuristic_request, unknown_callee
from extractors.engine.interpret_args import Arguments, DecoratorCall
from extractors.engine.interpret_routes import Registrations
from extractors.engine.transforms import transform_events
from extractors.engine.values import (
    STRINGISH,
    Activation,
    ArrLit,
    Choice,
    Concat,
    Config,
    Env,
    Ext,
    Func,
    Klass,
    Lit,
    Method,
    Obj,
    ObjLit,
    Param,
    Seq,
    Site,
    Unknown,
    Value,
    as_list,
)
from extractors.engine.written import written_site
from extractors.lang.base import FileAdapter
from extractors.lang.expr import ECall, EName
from extractors.models.hooks import HOOKS
from extractors.models.runtime import CallSource, Library
from extractors.models.schema import Operation
from extractors.models.selectors import Selector

Pending = Param  # an event that waits for a parameter's argument


class Interpreter(Registrations, Arguments):
    """A call or decorator -> events; registrations (interpret_routes.py) and the reading of
    selected arguments (interpret_args.py) are its parts."""

    def __init__(self, ev: Evaluator, library: Library):
        self.ev = ev
        self.lib = library
        self.unresolved: set[tuple[str, int, str, str, str]] = set()  # rows hooks write

    def cannot_read(self, site: Site, kind: str, expr: str, why: str) -> None:
        """An `unresolved` row a hook writes: what it could not read at `site`, and why."""
        self.unresolved.add((site.rel, site.line, kind, expr[:200], why))

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
            for target, name in self.targets(option):
                one = Call(self.ev, rel, node, view, act, option, target, call.depth, call._args)
                for op in self.lib.operations(target, name):
                    found = self.operation(op, target, one, decorated)
                    events += _chosen(found, callee, branch) if len(callees) > 1 else found
        made = self.ev.eval(rel, node, act) if self.makes(callee) else None
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

    def targets(self, callee: Value) -> list[tuple[Obj, str]]:
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

    def makes(self, callee: Value) -> bool:
        return isinstance(callee, (Ext, Klass)) or (
            isinstance(callee, Method) and isinstance(callee.target, Obj)
        )

    def may_read(self, callee: Value, guessable: bool) -> bool:
        """Whether `at_call` can make an event of a call of `callee`, whatever the call's
        arguments: a model object's operation, an object a model makes, or (`guessable`:
        the call has a guess's name) a guess of the heuristic tier. A parameter makes
        none: alone it waits for its callers, in a choice it is nothing yet."""
        if isinstance(callee, Choice):
            return any(self.may_read(o, guessable) for o in callee.options)
        if isinstance(callee, (Param, Lit, Concat, Env, Config, ArrLit, Seq)):
            return False  # no model object is ever one of these
        if self.targets(callee) or self.makes(callee):
            return True
        return guessable and unknown_callee(self.lib, callee)

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
            exclude = tuple(str(v.value) for v in as_list(src.select(spec.get("exclude")))
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


def _text(value: Value | None) -> Value | None:
    """A URL as text: a choice's alternatives that are not text (a member of an unknown
    response) stay unknown, so they become `unresolved` rows, never a `{Method}` hole."""
    if isinstance(value, Choice):
        return Choice(
            tuple(_text(o) or Unknown("", "not text") for o in value.options), value.condition
        )
    return value if isinstance(value, STRINGISH) else None


__all__ = ["Interpreter", "Pending", "EName", "ECall", "ObjLit"]
