"""Binding a chain of call sites: the activation of the innermost function of a chain, each
level's parameters bound to its caller's arguments; one activation per element of the
static lists a call is looped over; and the line a reader sees a call on. What turns the
callers (callers.py) the pass follows into values (recognize.py).
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.engine.callers import func_in
from extractors.engine.eval_names import UNROLLED
from extractors.engine.evaluate import Call, Evaluator
from extractors.engine.values import (
    Activation,
    ArrLit,
    Func,
    Method,
    ObjLit,
    Scope,
    Site,
)


class ChainBinding:
    """`Recognizer`'s activations of a chain of callers."""

    def activation(self, chain: tuple) -> Activation | None:
        """The activation of the innermost function of a chain, each level's parameters
        bound to its caller's arguments evaluated in the level above. Kept per chain: the
        calls of one function waiting on its callers share their chains, and a chain one
        level longer binds one level more."""
        if not chain:
            return None
        # the value keeps the chain, so the ids in the key stay its own
        key = tuple((s, r, n.id if n is not None else None, id(x)) for s, (r, n, x) in chain)
        found = self._activations.get(key)
        if found is not None:
            return found[1]
        scope, (rel, node, extra) = chain[0]
        act = self._bind(scope, rel, node, extra, self.activation(chain[1:]))
        self._activations[key] = (chain, act)
        return act

    def impossible(self, chain: tuple, rel: str, node: TsNode) -> bool:
        """Whether the call at `node`, or a caller of the chain, sits in a branch the chain's
        own bound values rule out (`if method == "GET": rest.GET(url)` reached from a call
        that passes "POST")."""
        levels = [(chain, rel, node)] + [
            (chain[i + 1 :], r, n) for i, (_, (r, n, _)) in enumerate(chain)
        ]
        for outer_chain, rel, node in levels:
            b = self.program.adapter(rel) if node is not None else None
            fn = self._branched(b, node) if b is not None else None
            if fn is None:
                continue
            outer = self.activation(outer_chain)
            if outer is not None and self.ev.judged_dead(rel, b, node, fn, outer, 0):
                return True
        return False

    def _branched(self, a, node: TsNode) -> TsNode | None:
        """The function around a call when the call sits under an `if` (or after one that
        leaves), else None: most calls do not, and are not judged."""
        if node.id not in self._branched_at:
            fn = a.function_at(node)
            tests, exits = a.branches_of(node, fn) if fn is not None else ((), ())
            self._branched_at[node.id] = fn if (tests or exits) else None
        return self._branched_at[node.id]

    def _bind(self, scope: Scope, rel: str, node, extra, outer: Activation | None):
        a = self.program.adapter(scope.rel)
        fn_node = a.node_of(scope) if a else None
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
        fn_value = func_in(callee, Site(scope.rel, 0, 0, 0, scope.start, scope.end))
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
        if kind in UNROLLED and child == parent.child_by_field_name("body"):
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
