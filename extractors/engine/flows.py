"""What the callers of a function can hand one of its parameters, read before the pass
follows them: a call waiting on a parameter (`server.route(…)` with `server` passed in) is
read again at every caller, and at the callers' callers, up to MAX_WAIT_CHAIN levels — in
bundled library code that is callers^levels readings of `map.get(key)` calls whose map is a
parameter handed down through three functions. When nothing any caller chain hands that
parameter can be a value a model reads (only literals, lists, text, env reads, unknowns where
no heuristic guess can start, or parameters past the last level), no reading can find
anything, and none is made.

Each caller's argument is evaluated unbound (the evaluator keeps those values), which over-
approximates what it is under any chain: a parameter of the caller is followed to its own
callers instead. One answer per (function, parameter, level), shared by every call waiting
on that parameter.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.engine.eval_calls import SPREADS
from extractors.engine.events import Event, RequestEvent
from extractors.engine.heuristic_calls import could_guess, url_shape
from extractors.engine.values import (
    Lit,
    Method,
    Param,
    Scope,
    Value,
    params_in,
)
from extractors.lang.expr import EIndex, EMember, EThis

# a call on a parameter named like a registration (`server.route(…)`, the server passed in)
# waits for its callers three levels up: a module that registers on the app it is handed is
# called by the app's setup, rarely deeper, while bundled code calls `x.get(…)` on parameters
# everywhere
MAX_WAIT_CHAIN = 3


class ParameterFlows:
    """`Recognizer`'s answer to "can a caller chain hand this parameter a model's object"."""

    def worth_waiting(self, rel: str, node: TsNode, chain: tuple, scope: Scope, level: int) -> bool:
        """False when no caller chain of `scope` can make the callee of the call at `node`
        (a member of one of its parameters) anything the models or the heuristic tier read,
        at `level` and above."""
        a = self.program.adapter(rel)
        view = a.call_view(node) if a is not None else None
        if view is None or a.family != "js":
            return True
        callee = self.ev.eval(rel, view.callee, self.activation(chain))
        if not isinstance(callee, Param) or callee.scope != scope or "." not in callee.name:
            return True
        first = view.args[0] if view.args else None
        guessable = could_guess(a.terminal(view.callee), first, rel)
        return self._flows(scope, callee.name, level, guessable)

    def _flows(self, scope: Scope, name: str, level: int, guessable: bool) -> bool:
        """Whether some caller of `scope` binds the callee `name` (`param.member…`) to
        something read, here or — handed on as a parameter — further up."""
        key = (scope, name, level, guessable)
        memo = self._flow_memo
        if key not in memo:
            memo[key] = True  # a cycle of callers: assume it can
            memo[key] = self._flows_now(scope, name, level, guessable)
        return memo[key]

    def _flows_now(self, scope: Scope, name: str, level: int, guessable: bool) -> bool:
        root, _, members = name.partition(".")
        param = self.param_of(scope, root)
        if param is None:
            return True
        for rel, call, _ in self.callers(scope):
            callee = self._argument(rel, call, param, members)
            if callee is None:
                return True
            if isinstance(callee, Param):  # handed on: read again one level up, if any is left
                if level < MAX_WAIT_CHAIN and self._flows(
                    callee.scope, callee.name, level + 1, guessable
                ):
                    return True
            elif self.interp.may_read(callee, guessable):
                return True
        return False

    def guess_reaches(self, event: Event, opened: Scope) -> bool:
        """False for a guess of the heuristic tier open only on its URL, one parameter of
        `opened` (`map.get(key)` in a function taking `key`), when no caller hands that
        parameter anything URL-shaped: read again at each caller, the guess is dropped there
        (`heuristic_request` asks for a URL-shaped argument), so no reading can find it."""
        if not isinstance(event, RequestEvent) or event.confidence != "low":
            return True
        url, client = event.url, event.client
        receiver = client.target if isinstance(client, Method) else client
        if not isinstance(url, Param) or url.scope != opened or isinstance(receiver, Param):
            return True
        if opened in params_in(event.method) or opened in params_in(event.base or Lit("")):
            return True
        root, _, members = url.name.partition(".")
        param = self.param_of(opened, root)
        if param is None:
            return True
        for rel, call, _ in self.callers(opened):
            value = self._argument(rel, call, param, members)
            if value is None or url_shape(value) != "no":
                return True
        return False

    def _argument(
        self, rel: str, call: TsNode | None, param: tuple[int, tuple | None], members: str
    ) -> Value | None:
        """What a caller passes for the parameter (its index, and its default as (file,
        node)), read down `members` (`opts.url`), unbound; the default when it passes
        nothing; None when that is not known here: a library's own call, a spread, Python,
        or the caller's `this`."""
        index, default = param
        b = self.program.adapter(rel) if call is not None else None
        view = b.call_view(call) if b is not None else None
        if view is None or b.family != "js" or any(n.type in SPREADS for n in view.args):
            return None
        if index >= len(view.args):  # not passed: undefined, or the parameter's default
            value = self.ev.eval(default[0], default[1], None) if default else Lit(None)
        else:
            if _on_this(b, view.args[index]):
                return None  # `this` (or a member of it) is bound only on the chain
            value = self.ev.eval(rel, view.args[index], None)
        for member in members.split(".") if members else ():
            value = self.ev.member(value, member, rel, None, 1)
        return value

    def param_of(self, scope: Scope, name: str) -> tuple[int, tuple | None] | None:
        """The position of the parameter `name` of the function at `scope`, and its default
        (file, node) if it has one; None for a name no plain parameter has (destructured,
        `arguments`)."""
        a = self.program.adapter(scope.rel)
        fn = a.node_of(scope) if a else None
        if fn is None or not a.is_function(fn):
            return None
        return next(((b.index, (scope.rel, b.default) if b.default is not None else None)
                     for b in a.function(fn).params if b.name == name and not b.path), None)  # fmt: skip


def _on_this(a, node: TsNode) -> bool:
    """`this`, or a member of it (`this.router`, `this.routes[0]`)."""
    view = a.view(a.unwrap(node))
    while isinstance(view, (EMember, EIndex)):
        view = a.view(a.unwrap(view.obj))
    return isinstance(view, EThis)
