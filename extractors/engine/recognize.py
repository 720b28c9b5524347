"""The pass over a component's calls and decorators, and the one wrapper fixed point.

Every call the models could care about is interpreted once with nothing bound. An event
that depends on a parameter of the function it is in — a request whose URL starts with a
parameter, a route registered on a router passed in, a method chosen by the caller — is
*open* at that function: it is read again at every caller with the parameters bound to the
caller's arguments (each caller's own arguments evaluated where it is), and again at the
callers' callers while it stays open, to a fixed point (bounded). A parameter that only
fills a path segment (`/articles/${slug}`) keeps the call where it is, unless a caller
passes a path there (a literal with a `/`) or the function is generated client code.
Callers are found by the names a function can be called by (its name, the key or method
it is, the names it is imported as, the variables a factory's result is kept in) and
confirmed by evaluating their callee; a library that calls a function itself (a plugin
registered on an app, `useSWR(key, fetcher)`) is a caller too.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from tree_sitter import Node as TsNode

from extractors.engine.callers import MAX_CALLERS, CallerIndex
from extractors.engine.chains import ChainBinding, unrolled
from extractors.engine.evaluate import Evaluator
from extractors.engine.events import (
    Event,
    InvokeEvent,
    MountEvent,
    RequestEvent,
    RouteEvent,
    UseEvent,
)
from extractors.engine.flows import MAX_WAIT_CHAIN, ParameterFlows
from extractors.engine.interpret import Interpreter
from extractors.engine.open_events import OpenEvents
from extractors.engine.values import (
    Activation,
    Choice,
    Func,
    Obj,
    Scope,
    Site,
    Value,
)
from extractors.lang.expr import ECall

MAX_CHAIN = 6  # wrapper levels followed
# a guess of the heuristic tier whose URL is still a parameter is followed two levels up:
# a wrapper of an unknown client is one or two functions deep, while `get(key)` on a map in
# library code is called through every layer of it (followed to six levels, one framework's
# source took 4x the time of the rest of its extraction, for no request)
MAX_GUESS_CHAIN = 2
MAX_SDK_CHAIN = 3 * MAX_CHAIN  # levels in all, generated client code's own included
REGISTRATIONS = (RouteEvent, MountEvent, UseEvent)
MAX_ROUNDS = 4  # re-reads of open events while library invocations keep appearing
# readings of one call through its callers' chains, per round: a call open on a parameter
# of a function called from everywhere (a validator that recurses through a table of
# validators) fans out as callers^levels; the benchmarks' largest is about 110 (bundled
# framework code), one library's own validators took 5,000 each and 60 s
MAX_READINGS = 256
LITERALS = {"string", "template_string"}  # JS and Python string literal nodes


@dataclass(frozen=True)
class Found:
    """An event and the chain of call sites that bound its parameters (innermost first)."""

    event: Event
    chain: tuple[Site, ...] = ()
    uncalled: bool = False  # open on a parameter of a function nobody in the component calls
    invoked_by: str = ""  # the model of a library that calls a function of the chain (SWR)


class Recognizer(CallerIndex, OpenEvents, ChainBinding, ParameterFlows):
    """The pass and the fixed point; where an event is open (open_events.py), who calls a
    function (callers.py) and the activation of a chain (chains.py) are its parts."""

    def __init__(self, ev: Evaluator, interpreter: Interpreter, generated: set[str]):
        self.ev = ev
        self.interp = interpreter
        self.program = ev.program
        self.generated = generated  # rels of generated client code
        self._by_name: dict[str, list[tuple[str, TsNode]]] | None = None
        self._by_target: dict[str, list[tuple[str, str]]] | None = None
        self._aliases: list[tuple[str, TsNode, str]] = []  # calls of a local holding a function
        self._alias_words: dict[str, list[tuple[str, TsNode]]] = defaultdict(list)
        self._declared: dict[int, tuple[str, int, int]] = {}  # call id -> function it names
        self._spots: dict[tuple[str, bool], dict] = {}  # callers.py: calls by function called
        self._results: dict[str, frozenset[str]] = {}  # callers.py: names a factory's results get
        self._callers: dict[Scope, list[tuple[str, TsNode | None, tuple]]] = {}
        self._flow_memo: dict[tuple, bool] = {}  # flows.py, per round like the callers
        self._activations: dict[tuple, tuple[tuple, Activation | None]] = {}  # chains.py
        self._caller_scopes: dict[int, Scope | None] = {}  # call node id -> its function
        self._branched_at: dict[int, TsNode | None] = {}  # call id -> its function, if branched
        self.invokes: list[InvokeEvent] = []
        self._invoked: set = set()
        self.unresolved: list[tuple[str, int, str, str, str]] = []  # rows the emitter writes
        self._reported: set = set()
        self._readings: dict[tuple[str, int], int] = defaultdict(int)  # per round
        self.found: list[Found] = []

    # --- the pass -------------------------------------------------------------------
    def run(self) -> list[Found]:
        """Every site once with nothing bound, then every open event at its callers (by
        then every library invocation is known, wherever it is written)."""
        vocabulary = self.interp.lib.vocabulary
        self._opened: list[tuple[str, TsNode, Value | None, Event, Scope | None, set]] = []
        self._first_pass = True
        self._make_objects()
        for rel in self.program.rels():
            a = self.program.adapter(rel)
            if a is None:
                continue
            pairs = a.decorated()
            decorated = {(expr.start_byte, expr.end_byte) for expr, _ in pairs}
            for node in a.calls():
                if (node.start_byte, node.end_byte) in decorated:
                    continue  # read below with what it decorates
                view = a.call_view(node)
                if view is None:
                    continue
                name = a.terminal(view.callee)
                if name is None:
                    if view.callee.type not in {
                        "subscript_expression",
                        "subscript",
                        "call_expression",
                        "call",
                    }:
                        continue  # `client[method](url)`, `factory()(url)`: read them
                elif name not in vocabulary and not self._maybe_client(a, view):
                    continue
                if view.callee.type == "identifier" and _functions(
                    self.ev.eval(rel, view.callee, None)
                ):
                    continue  # a function of the component: its calls are no event
                self.site(rel, node, None)
            for expr, target in pairs:
                self.decorator(rel, expr, target)
        self._first_pass = False
        settled = len(self.found)
        for _ in range(MAX_ROUNDS):  # a plugin registered inside a plugin: more invocations
            known = len(self.invokes)
            self._readings.clear()
            for rel, node, decorated, event, opened, waits in self._opened:
                if event is None:
                    self._wait(rel, node, decorated, (), waits)
                else:
                    self._settle(rel, node, decorated, (), event, opened)
            if len(self.invokes) == known:
                break
            del self.found[settled:]
            self._callers.clear()
            self._flow_memo.clear()
            self._activations.clear()
        return self.found

    def _make_objects(self) -> None:
        """Every call that makes a library object, first: a default a query hook or a
        client reads (`new QueryClient({defaultOptions})`) is known wherever it is written."""
        by_family = self.interp.lib.maker_names
        for rel in self.program.rels():
            a = self.program.adapter(rel)
            makers = by_family.get(a.family, set()) if a is not None else set()
            for node in a.calls() if makers else []:
                view = a.call_view(node)
                if view is not None and a.terminal(view.callee) in makers:
                    made = self.ev.eval(rel, node, None)
                    if isinstance(made, Obj) and made.origin == a.site(node):
                        self.interp.lib.made.setdefault((made.model, made.role), []).append(made)

    def _maybe_client(self, a, view: ECall) -> bool:
        """A plain name called (`api(config)`, `http(url)`): possibly a client object; or
        an absolute URL literal handed over (the heuristic tier reads it)."""
        return view.callee.type == "identifier" or any(
            arg.type in LITERALS and b"://" in (arg.text or b"") for arg in view.args[:2]
        )

    def site(self, rel: str, node: TsNode, decorated: Value | None, chain: tuple = ()) -> None:
        a = self.program.adapter(rel)
        if a is None:
            return
        if chain and not self._within_budget(rel, a, node):
            return
        base = self.activation(chain)
        for act in unrolled(self.ev, rel, a, node, base):
            self._site(rel, a, node, decorated, chain, act)

    def _within_budget(self, rel: str, a, node: TsNode) -> bool:
        """False past MAX_READINGS readings of the call this round; said once, as an
        `unresolved` row at the call."""
        key = (rel, node.start_byte)
        self._readings[key] += 1
        if self._readings[key] <= MAX_READINGS:
            return True
        if ("budget", key) not in self._reported:
            self._reported.add(("budget", key))
            self.unresolved.append((rel, a.site(node).line, "call_chain", a.text(node)[:80],
                                    f"called through more than {MAX_READINGS} chains of callers: "
                                    "the rest are not followed"))  # fmt: skip
        return False

    def _site(self, rel, a, node, decorated, chain, act) -> None:
        events, waits = self.interp.at_call(rel, a, node, act, decorated)
        element = act.element_site() if act is not None else None
        if element is not None:  # registered in a loop: at the line of its element
            here = a.site(node)
            events = [replace(e, site=element) if isinstance(e, REGISTRATIONS) and e.site == here
                      else e for e in events]  # fmt: skip
        for event in events:
            if isinstance(event, InvokeEvent):
                key = (
                    event.fn.site if isinstance(event.fn, Func) else None,
                    event.site,
                    event.args,
                )
                if key not in self._invoked:
                    self._invoked.add(key)
                    self.invokes.append(event)
                continue
            opened = self.open_scope(event, rel, node, waits) or self._generated_caller(
                event, rel, node, chain
            )
            if self._first_pass and opened is not None:
                self._opened.append((rel, node, decorated, event, opened, waits))
            else:
                self._settle(rel, node, decorated, chain, event, opened)
        if not events and waits:
            if self._first_pass:
                self._opened.append((rel, node, decorated, None, None, waits))
            else:
                self._wait(rel, node, decorated, chain, waits)

    def _wait(self, rel, node, decorated, chain, waits: set) -> None:
        scope = self._innermost(waits, node)
        if scope is None or len(chain) >= MAX_WAIT_CHAIN:
            return
        callers = self._from_outside(self.callers(scope), scope, chain)[:MAX_CALLERS]
        if callers and not self.worth_waiting(rel, node, chain, scope, len(chain) + 1):
            return  # no caller chain hands the receiver anything a model reads (flows.py)
        for caller in callers:
            self.site(rel, node, decorated, chain + ((scope, caller),))
        if not callers and not chain:
            self._unbound_router(rel, node, decorated, scope)

    def _from_outside(self, callers: list, scope: Scope, chain: tuple) -> list:
        """The callers that are not inside a function already on the chain: a recursive
        call (a parser's `parse(source)` calling itself) hands on what its own callers gave
        it, and following it multiplies the chains (callers^levels) for nothing new."""
        on_chain = {scope, *(level for level, _ in chain)}
        return [c for c in callers if self._caller_scope(c) not in on_chain]

    def _caller_scope(self, caller) -> Scope | None:
        """The function a call of a chain is made in (None: top level, or a library's own
        invocation), once per call."""
        rel, node, _ = caller
        if node is None:
            return None
        if node.id not in self._caller_scopes:
            a = self.program.adapter(rel)
            fn = a.function_at(node) if a is not None else None
            self._caller_scopes[node.id] = a.scope_of(fn) if fn is not None else None  # type: ignore[union-attr]
        return self._caller_scopes[node.id]

    def _unbound_router(self, rel, node, decorated, scope: Scope) -> None:
        """Routes registered on a parameter nobody in the component passes (`module.exports =
        (app) => app.get(…)`): kept, on a router of the server library the component uses,
        as a root of their own — the mount that would prefix them is not known — with an
        `unresolved` row saying so."""
        a = self.program.adapter(rel)
        view = a.call_view(node) if a is not None else None
        if view is None or view.callee.type not in ("member_expression", "attribute"):
            return
        receiver = view.callee.child_by_field_name("object")
        if receiver is None or receiver.type != "identifier":
            return
        method = a.terminal(view.callee) or ""
        if method in self.interp.lib.mount_names and (rel, node.start_byte) not in self._reported:
            self._reported.add((rel, node.start_byte))  # a mount on a parameter nobody passes
            self.unresolved.append((rel, a.site(node).line, "route_mount", a.text(receiver),
                                    f"`{a.text(receiver)}.{method}(…)` mounts on a parameter nothing in the "
                                    "component passes: the mount is not followed"))  # fmt: skip
            return
        router = self.interp.lib.unbound_router(self.program, method, a.site(receiver))
        if router is None:
            return
        name = a.text(receiver)
        param = self.param_of(scope, name)
        if param is None:
            return
        act = Activation(scope, ((f"#{param[0]}", router),))
        events, _ = self.interp.at_call(rel, a, node, act, decorated)
        events = [e for e in events if isinstance(e, RouteEvent) and isinstance(e.handler, Func)]
        for event in events:  # a route takes a handler; a client's `post(url, data)` does not
            self.found.append(Found(event))
        if events and (rel, name, scope) not in self._reported:
            self._reported.add((rel, name, scope))
            self.unresolved.append((rel, a.site(receiver).line, "route_mount", name,
                                    f"router parameter `{name}` is not followed: nothing in the component "
                                    "passes it, so the prefix it is mounted under is not known"))  # fmt: skip

    def _settle(self, rel, node, decorated, chain, event: Event, opened: Scope | None) -> None:
        if chain and self.impossible(chain, rel, node):
            return  # a caller on the chain sits in a branch the chain's own values rule out
        if isinstance(event, RequestEvent) and (opened is None or not self.callers(opened)):
            opened = self._generated_scope(rel, node, chain) or opened  # the SDK's caller
        limit = MAX_GUESS_CHAIN if getattr(event, "confidence", "") == "low" else MAX_CHAIN
        levels = self._levels(chain)
        if opened is not None and levels < limit and len(chain) < MAX_SDK_CHAIN:
            callers = self._from_outside(self.callers(opened), opened, chain)[:MAX_CALLERS]
            if callers:
                if not self.guess_reaches(event, opened):
                    return  # a guess no caller hands a URL (flows.py)
                for caller in callers:
                    self.site(rel, node, decorated, chain + ((opened, caller),))
                return
        if len(self.found) < 200_000:
            sites = tuple(self._caller_site(c) for _, c in chain)
            if sites and isinstance(event, (RouteEvent, MountEvent, UseEvent)):
                event = replace(event, when=sites[-1])  # registered when the outermost call runs
            library = next((c[2][0].model for _, c in chain if c[1] is None and c[2]), "")
            self.found.append(
                Found(event, sites, opened is not None and levels < MAX_CHAIN, library)
            )

    def _levels(self, chain: tuple) -> int:
        """The wrapper levels of a chain that count against its limit: a hop inside generated
        client code is the SDK's own layering (OpenAPI Generator's Python client is six
        deep), not a wrapper of the application's."""
        if not self.generated:
            return len(chain)
        return sum(1 for scope, _ in chain if scope.rel not in self.generated)

    def decorator(self, rel: str, expr: TsNode, target: TsNode) -> None:
        a = self.program.adapter(rel)
        if a is None:
            return
        decorated = self.ev.eval(rel, target, None) if a.is_function(target) else None
        if decorated is None and target.type in {"class_declaration", "class_definition", "class"}:
            decorated = self.ev.eval(rel, target, None)
        if expr.type in {"call_expression", "call"}:
            self.site(rel, expr, decorated)
        elif decorated is not None:  # `@bp.before_request`: the method called with the function
            for event in self.interp.at_reference(rel, a, expr, decorated):
                self.found.append(Found(event))
        for event in self.interp.decorators.at(rel, a, expr, target, decorated):
            self.found.append(Found(event))


def _functions(value: Value) -> bool:
    """A function of the component, or a choice of them: what a call of it does is read
    where it is written, and calling it is no event of any model."""
    if isinstance(value, Choice):
        return all(_functions(o) for o in value.options)
    return isinstance(value, Func)
