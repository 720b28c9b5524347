"""The values an operation's selector names at a call, each with the site it is written at:
arguments after the named ones, the items of a list literal, an injection marker
(`Depends(fn)`, `Annotated[T, Depends(fn)]`, through a type alias) standing for what it
injects, and where a selected value is written and what the code calls it. Shared by
the interpreter's registrations and the model hooks, which read calls the same way.
"""

from __future__ import annotations

from extractors.engine.evaluate import SPREADS, Call
from extractors.engine.values import (
    ArrLit,
    Ext,
    Func,
    Site,
    UseSite,
    Value,
    as_list,
)
from extractors.lang.expr import EArray
from extractors.models.runtime import CallSource
from extractors.models.selectors import Selector, first_free


class DecoratorCall(Call):
    """The call a decorator reference stands for: its one argument is what it decorates."""

    def arg(self, i: int) -> Value | None:
        return self._args.get(i)


class Arguments:
    """`Interpreter`'s reading of the arguments a selector names."""

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
                return [(v, v.site if isinstance(v, Func) else call.site) for v in as_list(value)]
            return [(v, call.site) for v in as_list(value)]
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
