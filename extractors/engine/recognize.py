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

import re
from collections import defaultdict
from dataclasses import dataclass, replace

from tree_sitter import Node as TsNode

from extractors.engine.evaluate import Call, Evaluator
from extractors.engine.events import (
    Event,
    InvokeEvent,
    MountEvent,
    RequestEvent,
    RouteEvent,
    UseEvent,
)
from extractors.engine.interpret import Interpreter
from extractors.engine.values import (
    Activation,
    ArrLit,
    Choice,
    Concat,
    Func,
    Lit,
    Method,
    Obj,
    ObjLit,
    Param,
    Scope,
    Site,
    Unknown,
    Value,
    params_in,
)
from extractors.lang.expr import ECall

MAX_CHAIN = 6  # wrapper levels followed
# a guess of the heuristic tier whose URL is still a parameter is followed two levels up:
# a wrapper of an unknown client is one or two functions deep, while `get(key)` on a map in
# library code is called through every layer of it (followed to six levels, one framework's
# source took 4x the time of the rest of its extraction, for no request)
MAX_GUESS_CHAIN = 2
# a call on a parameter named like a registration (`server.route(…)`, the server passed in)
# waits for its callers three levels up: a module that registers on the app it is handed is
# called by the app's setup, rarely deeper, while bundled code calls `x.get(…)` on parameters
# everywhere
MAX_WAIT_CHAIN = 3
REGISTRATIONS = (RouteEvent, MountEvent, UseEvent)
MAX_CALLERS = 200  # callers of one function read
_WORDS = re.compile(r"[A-Za-z_$][\w$]*")  # the names an alias's value mentions
MAX_ROUNDS = 4
LITERALS = {
    "string",
    "template_string",
}  # JS and Python string literal nodes  # re-reads of open events while library invocations keep appearing


@dataclass(frozen=True)
class Found:
    """An event and the chain of call sites that bound its parameters (innermost first)."""

    event: Event
    chain: tuple[Site, ...] = ()
    uncalled: bool = False  # open on a parameter of a function nobody in the component calls
    invoked_by: str = ""  # the model of a library that calls a function of the chain (SWR)


class Recognizer:
    def __init__(self, ev: Evaluator, interpreter: Interpreter, generated: set[str]):
        self.ev = ev
        self.interp = interpreter
        self.program = ev.program
        self.generated = generated  # rels of generated client code
        self._by_name: dict[str, list[tuple[str, TsNode]]] | None = None
        self._by_target: dict[str, list[tuple[str, str]]] | None = None
        self._aliases: list[tuple[str, TsNode, str]] = []  # calls of a local holding a function
        self._alias_words: dict[str, list[tuple[str, TsNode]]] = defaultdict(list)
        self._callers: dict[Scope, list[tuple[str, TsNode | None, tuple]]] = {}
        self.invokes: list[InvokeEvent] = []
        self._invoked: set = set()
        self.unresolved: list[tuple[str, int, str, str, str]] = []  # rows the emitter writes
        self._reported: set = set()
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
                self.site(rel, node, None)
            for expr, target in pairs:
                self.decorator(rel, expr, target)
        self._first_pass = False
        settled = len(self.found)
        for _ in range(MAX_ROUNDS):  # a plugin registered inside a plugin: more invocations
            known = len(self.invokes)
            for rel, node, decorated, event, opened, waits in self._opened:
                if event is None:
                    self._wait(rel, node, decorated, (), waits)
                else:
                    self._settle(rel, node, decorated, (), event, opened)
            if len(self.invokes) == known:
                break
            del self.found[settled:]
            self._callers.clear()
        return self.found

    def _make_objects(self) -> None:
        """Every call that makes a library object, first: a default a query hook or a
        client reads (`new QueryClient({defaultOptions})`) is known wherever it is written."""
        makers = self.interp.lib.maker_names
        for rel in self.program.rels():
            a = self.program.adapter(rel)
            for node in a.calls() if a is not None else []:
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
        base = self.activation(chain)
        for act in unrolled(self.ev, rel, a, node, base):
            self._site(rel, a, node, decorated, chain, act)

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
        callers = self.callers(scope)[:MAX_CALLERS]
        for caller in callers:
            self.site(rel, node, decorated, chain + ((scope, caller),))
        if not callers and not chain:
            self._unbound_router(rel, node, decorated, scope)

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
        fn = a.node_at(Site(scope.rel, 0, 0, 0, scope.start, scope.end))
        params = a.function(fn).params if fn is not None and a.is_function(fn) else []
        index = next((b.index for b in params if b.name == name and not b.path), None)
        if index is None:
            return
        act = Activation(scope, ((f"#{index}", router),))
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
        if opened is None and isinstance(event, RequestEvent):
            opened = self._generated_scope(rel, node, chain)
        limit = MAX_GUESS_CHAIN if getattr(event, "confidence", "") == "low" else MAX_CHAIN
        if opened is not None and len(chain) < limit:
            callers = self.callers(opened)[:MAX_CALLERS]
            if callers:
                for caller in callers:
                    self.site(rel, node, decorated, chain + ((opened, caller),))
                return
        if len(self.found) < 200_000:
            sites = tuple(self._caller_site(c) for _, c in chain)
            if sites and isinstance(event, (RouteEvent, MountEvent, UseEvent)):
                event = replace(event, when=sites[-1])  # registered when the outermost call runs
            library = next((c[2][0].model for _, c in chain if c[1] is None and c[2]), "")
            self.found.append(
                Found(event, sites, opened is not None and len(chain) < MAX_CHAIN, library)
            )

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

    # --- open events ----------------------------------------------------------------
    def open_scope(self, event: Event, rel: str, node: TsNode, waits: set) -> Scope | None:
        scopes: set[Scope] = set(waits)
        if isinstance(event, RequestEvent):
            scopes |= params_in(event.method)
            if isinstance(event.client, Param):
                scopes.add(event.client.scope)
            shape, values = shape_params(event.url)
            if event.base is not None:
                scopes |= params_in(event.base)
            scopes |= shape
            if not scopes and values:
                scopes = {s for s in values if self._wrapper_by_evidence(s, rel)}
        elif isinstance(event, RouteEvent):
            if isinstance(event.router, Param):
                scopes.add(event.router.scope)
            scopes |= params_in(event.path) | params_in(event.method)
        elif isinstance(event, MountEvent):
            for value in (event.parent, event.child):
                if isinstance(value, Param):
                    scopes.add(value.scope)
            if event.path is not None:
                scopes |= params_in(event.path)
        elif isinstance(event, UseEvent) and isinstance(event.target, Param):
            scopes.add(event.target.scope)
        return self._innermost(scopes, node)

    def _generated_scope(self, rel: str, node: TsNode, chain: tuple) -> Scope | None:
        """A request in generated client code is that code's: its caller is the call site
        (the innermost function of the chain so far that is generated and called)."""
        where = chain[-1][1][0] if chain else rel
        if where not in self.generated:
            return None
        at = chain[-1][1][1] if chain else node
        a = self.program.adapter(where)
        fn = a.function_at(at) if a is not None and at is not None else None
        if fn is None:
            return None
        scope = a.scope_of(fn)
        return scope if self.callers(scope) else None

    def _generated_caller(self, event: Event, rel: str, node: TsNode, chain: tuple) -> Scope | None:
        """A request read in generated client code (`getPet: () => client.get({ url })`) moves
        to the callers of the generated function it is read in, whatever its URL: the SDK's
        functions are wrappers, the application's calls of them the call sites."""
        if not isinstance(event, RequestEvent) or not self.generated:
            return None
        where_rel, where = (chain[-1][1][0], chain[-1][1][1]) if chain else (rel, node)
        if where is None or where_rel not in self.generated:
            return None
        a = self.program.adapter(where_rel)
        fn = a.function_at(where) if a is not None else None
        while fn is not None and not self.callers(a.scope_of(fn)):
            fn = a.function_at(fn)  # `const getPet = (o) => (o?.client ?? client).get(…)`
        return a.scope_of(fn) if fn is not None else None

    def _wrapper_by_evidence(self, scope: Scope, rel: str) -> bool:
        """A function whose parameter fills a path segment is still a wrapper when it is
        generated client code, or when a caller passes a path (`/x/y`) for it."""
        if scope.rel in self.generated:
            return bool(self.callers(scope))
        for caller_rel, node, _ in self.callers(scope)[:MAX_CALLERS]:
            a = self.program.adapter(caller_rel)
            view = a.call_view(node) if a is not None and node is not None else None
            for arg in view.args if view is not None else ():
                if _path_shaped(self.ev.eval(caller_rel, arg, None)):
                    return True
        return False

    def _innermost(self, scopes: set[Scope], node: TsNode) -> Scope | None:
        inside = [s for s in scopes if s.start <= node.start_byte and node.end_byte <= s.end]
        if inside:
            return min(inside, key=lambda s: s.end - s.start)
        return min(scopes, key=lambda s: s.end - s.start) if scopes else None

    # --- callers ------------------------------------------------------------------
    def callers(self, scope: Scope) -> list[tuple[str, TsNode | None, tuple]]:
        """(rel, call node, extra) of every call of the function at `scope`; a library's own
        invocation has no node and carries its arguments."""
        found = self._callers.get(scope)
        if found is not None:
            return found
        self._callers[scope] = []  # recursion guard
        a = self.program.adapter(scope.rel)
        node = a.node_at(Site(scope.rel, 0, 0, 0, scope.start, scope.end)) if a else None
        out: list[tuple[str, TsNode | None, tuple]] = []
        if a is not None and node is not None and a.is_function(node):
            target = Site(scope.rel, 0, 0, 0, scope.start, scope.end)
            for rel, call in self._candidates(self.names_of(scope.rel, node)):
                b = self.program.adapter(rel)
                view = b.call_view(call) if b is not None else None
                if view is None or _names_another_function(b, rel, view.callee, target):
                    continue
                callee = self.ev.eval(rel, view.callee, None)
                if _is(callee, target):
                    out.append((rel, call, ()))
            for event in self.invokes:
                if (
                    isinstance(event.fn, Func)
                    and (event.fn.site.start, event.fn.site.end) == (scope.start, scope.end)
                    and event.fn.site.rel == scope.rel
                ):
                    out.append((event.site.rel, None, (event,)))
        self._callers[scope] = out
        return out

    def names_of(self, rel: str, fn: TsNode) -> set[str]:
        a = self.program.adapter(rel)
        names = {a.function(fn).name} - {""} if a is not None else set()
        mod = self.program.js.get(rel)
        if mod is not None:
            exported = {e for e, local in mod.exports.items() if local in names}
            if (
                mod.consts.get("default") is not None
                and mod.consts["default"].start_byte
                <= fn.start_byte
                < mod.consts["default"].end_byte
            ):
                exported.add("default")
            for local, imported in self._importers().get(rel, ()):
                if imported in exported or imported == "*":
                    names.add(local)
        holder = a.function_at(fn) if a is not None else None
        if holder is not None:  # a function returned by a factory: the factory's results
            names |= self._results_of(a.function(holder).name)
        return names

    def _importers(self) -> dict[str, list[tuple[str, str]]]:
        """file -> (local name, imported name) of every import of it, indexed once."""
        if self._by_target is None:
            self._by_target = defaultdict(list)
            for other in self.program.js.values():
                for local, binding in other.imports.items():
                    if binding.target is not None:
                        self._by_target[binding.target].append((local, binding.imported))
        return self._by_target

    def _results_of(self, factory: str) -> set[str]:
        if not factory:
            return set()
        out: set[str] = set()
        for rel, call in self._candidates({factory}):
            parent = call.parent
            while parent is not None and parent.type in {
                "await_expression",
                "await",
                "parenthesized_expression",
            }:
                parent = parent.parent
            if parent is None:
                continue
            target = parent.child_by_field_name("name") or parent.child_by_field_name("left")
            if target is None:
                continue
            a = self.program.adapter(rel)
            text = a.text(target) if a is not None else ""
            out |= {w.strip("{}[] ").split(":")[-1].strip() for w in text.split(",")} - {""}
        return out

    def _candidates(self, names: set[str]) -> list[tuple[str, TsNode]]:
        if self._by_name is None:
            index: dict[str, list[tuple[str, TsNode]]] = defaultdict(list)
            for rel in self.program.rels():
                a = self.program.adapter(rel)
                for call in a.calls() if a is not None else []:
                    view = a.call_view(call)
                    if view is None:
                        continue
                    name = a.terminal(view.callee)
                    index[name or "\0call"].append((rel, call))
                    if name and view.callee.type == "identifier":  # `const f = a ? x.g : x.h; f()`
                        binding = a.resolve(name, view.callee)
                        if (
                            binding is not None
                            and binding.kind in ("decl", "assign")
                            and binding.value is not None
                        ):
                            self._aliases.append((rel, call, a.text(binding.value)))
            self._by_name = dict(index)
            for rel, call, text in self._aliases:  # each alias under the names it mentions
                for word in set(_WORDS.findall(text)):
                    self._alias_words[word].append((rel, call))
        out = [c for name in sorted(names) for c in self._by_name.get(name, ())]
        seen = set(out)
        for name in sorted(names):
            for found in self._alias_words.get(name, ()):
                if found not in seen:
                    seen.add(found)
                    out.append(found)
        return out + list(self._by_name.get("\0call", ()))

    # --- binding a chain ------------------------------------------------------------
    def activation(self, chain: tuple) -> Activation | None:
        """The activation of the innermost function of a chain, each level's parameters
        bound to its caller's arguments evaluated in the level above."""
        act: Activation | None = None
        for scope, (rel, node, extra) in reversed(chain):
            act = self._bind(scope, rel, node, extra, act)
        return act

    def _bind(self, scope: Scope, rel: str, node, extra, outer: Activation | None):
        a = self.program.adapter(scope.rel)
        fn_node = a.node_at(Site(scope.rel, 0, 0, 0, scope.start, scope.end)) if a else None
        if a is None or fn_node is None:
            return outer
        if node is None:  # a library's invocation: its arguments by position
            event = extra[0]
            values = tuple((f"#{i}", v) for i, v in enumerate(event.args))
            return Activation(scope, values, None, outer)
        b = self.program.adapter(rel)
        view = b.call_view(node) if b is not None else None
        if view is None:
            return outer
        callee = self.ev.eval(rel, view.callee, outer)
        fn_value = _func_in(callee, Site(scope.rel, 0, 0, 0, scope.start, scope.end))
        if fn_value is None:
            fn_value = Func(a.site(fn_node))
        receiver = callee.target if isinstance(callee, Method) else fn_value.this
        call = Call(self.ev, rel, node, view, outer, callee, receiver)
        return self.ev.bind_call(fn_value, call)

    def _caller_site(self, caller) -> Site:
        rel, node, extra = caller
        if node is None:
            return extra[0].site
        a = self.program.adapter(rel)
        return site_line(a, node)


MAX_UNROLL = 64  # bindings of the loops around one call


def unrolled(
    ev: Evaluator, rel: str, a, node: TsNode, act: Activation | None
) -> list[Activation | None]:
    """One activation per element of every static list the call is looped over — a
    `for…of` / `for … in` over a list, `list.forEach(cb)` / `.map(cb)` with the call in `cb`,
    Python's `for x in LIST` — so that `[{ path, route }].forEach(r => app.use(r.path, r.route))`
    registers each route at its own path. A loop over what is not known statically leaves
    the call as it is (its variable reads as the choice of what it could be)."""
    loops = _loops_around(a, node)
    acts: list[Activation | None] = [act]
    for loop, body_fn, bindings, iterable in reversed(loops):  # outermost first
        grown: list[Activation | None] = []
        for outer in acts:
            items = ev.eval(rel, iterable, outer)
            if not isinstance(items, ArrLit) or not items.items:
                grown.append(outer)
                continue
            for item in items.items[:MAX_UNROLL]:
                if body_fn is not None:  # a callback: its first parameter is the element
                    values = (("#0", item),)
                    scope = a.scope_of(body_fn)
                else:
                    values = tuple(
                        (b.name, ev.path_of(item, b.path, rel, node, 0)) for b in bindings
                    )
                    scope = a.scope_of(loop)
                at = getattr(item, "site", None) if isinstance(item, (ArrLit, ObjLit)) else None
                grown.append(
                    Activation(scope, values, None, outer, outer.depth if outer else 0, at)
                )
        acts = grown[:MAX_UNROLL]
    return acts


def _loops_around(a, node: TsNode) -> list[tuple[TsNode, TsNode | None, list, TsNode]]:
    """(loop node, callback function or None, loop variable bindings, iterable), innermost
    first, for the loops whose variable the call can see."""
    out = []
    parent = node.parent
    child = node
    while parent is not None:
        kind = parent.type
        if kind in ("for_in_statement", "for_statement") and child == parent.child_by_field_name(
            "body"
        ):
            left, right = parent.child_by_field_name("left"), parent.child_by_field_name("right")
            if left is not None and right is not None:
                names = (
                    [b for b in a.bindings_of_loop(parent)]
                    if hasattr(a, "bindings_of_loop")
                    else []
                )
                out.append((parent, None, names, right))
        elif a.is_function(parent) and parent.parent is not None:
            call = (
                parent.parent.parent
                if parent.parent.type in ("arguments", "argument_list")
                else None
            )
            view = a.call_view(call) if call is not None else None
            if view is not None and view.args and view.args[0] == parent:
                callee = view.callee
                if (
                    a.terminal(callee) in ("forEach", "map", "flatMap")
                    and callee.type == "member_expression"
                ):
                    out.append((parent, parent, [], callee.child_by_field_name("object")))
        child, parent = parent, parent.parent
    return out


def _value_like(part: Value) -> bool:
    """A part that can only be one segment's value: a parameter, or a choice of parameters
    and unknowns (`article ? article.slug : slug`)."""
    if isinstance(part, Param):
        return True
    options = part.options if isinstance(part, Choice) else ()
    return all(isinstance(o, (Param, Unknown)) for o in options) and any(
        isinstance(o, Param) for o in options
    )


def _path_shaped(value: Value) -> bool:
    """A path a caller passes: text with a `/` in its literal parts (`'users/login'`,
    `` `articles/${slug}` ``, either branch of a choice)."""
    if isinstance(value, Lit):
        return isinstance(value.value, str) and "/" in value.value
    if isinstance(value, Concat):
        return any(_path_shaped(p) for p in value.parts if isinstance(p, (Lit, Choice)))
    if isinstance(value, Choice):
        return any(_path_shaped(o) for o in value.options)
    return False


def site_line(a, node: TsNode) -> Site:
    """Where a reader sees a call: a chained `.post(` on its own line is that line."""
    site = a.site(node)
    view = a.call_view(node)
    if view is not None and view.callee.type in {"member_expression", "attribute"}:
        prop = view.callee.child_by_field_name("property") or view.callee.child_by_field_name(
            "attribute"
        )
        if prop is not None and prop.start_point[0] + 1 != site.line:
            return Site(site.rel, prop.start_point[0] + 1, site.end_line, prop.start_point[1],
                        site.start, site.end)  # fmt: skip
    return site


def _names_another_function(a, rel: str, callee: TsNode, target: Site) -> bool:
    """A plain name whose own scope declares it a function other than `target`: not a call
    of it, seen without evaluating (bundled code declares `e`, `t`, `n` in every scope)."""
    if callee.type != "identifier":
        return False
    binding = a.resolve(a.text(callee), callee)
    if binding is None or binding.kind not in ("function", "class"):
        return False
    node = binding.node
    return (rel, node.start_byte, node.end_byte) != (target.rel, target.start, target.end)


def _is(callee: Value, target: Site) -> bool:
    return _func_in(callee, target) is not None


def _func_in(callee: Value, target: Site) -> Func | None:
    if isinstance(callee, Func):
        s = callee.site
        if s.rel == target.rel and (s.start, s.end) == (target.start, target.end):
            return callee
        return None
    if isinstance(callee, Choice):
        for option in callee.options:
            found = _func_in(option, target)
            if found is not None:
                return found
    return None


def shape_params(url: Value) -> tuple[set[Scope], set[Scope]]:
    """(scopes of parameters that shape the URL, scopes of parameters that only fill a path
    segment): `base + path` is shaped by `path`; `/articles/${slug}` is not by `slug`."""
    if isinstance(url, Choice):
        shape, values = set(), set()
        for option in url.options:
            s, v = shape_params(option)
            shape |= s
            values |= v
        return shape, values - shape
    parts = list(url.parts) if isinstance(url, Concat) else [url]
    shape: set[Scope] = set()
    values: set[Scope] = set()
    in_query = False
    for i, part in enumerate(parts):
        inner = params_in(part)
        if not inner:
            if isinstance(part, Lit) and "?" in str(part.value or ""):
                in_query = True
            continue
        before = parts[i - 1] if i > 0 else None
        after = parts[i + 1] if i + 1 < len(parts) else None
        prev = before.value if isinstance(before, Lit) and isinstance(before.value, str) else None
        nxt = after.value if isinstance(after, Lit) and isinstance(after.value, str) else None
        segment = _value_like(part) and (
            in_query  # a query parameter's value
            or (
                prev is not None
                and prev.endswith("/")
                and len(prev.strip("/")) > 0
                and (nxt is None or nxt.startswith(("/", "?", "&", ".")))
            )
        )
        (values if segment else shape).update(inner)
    return shape, values
