"""Calls of the evaluator: the `Call` a model reads (callee, receiver, arguments evaluated on
demand), what a call evaluates to, and the binding of a component function's parameters to
a call's arguments — the part of `Evaluator` that enters functions, kept apart from reading
names and members.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from tree_sitter import Node as TsNode

from extractors.engine import builtins
from extractors.engine.program import Program
from extractors.engine.values import (
    Activation,
    ArrLit,
    Choice,
    Func,
    Instance,
    Klass,
    Lit,
    Method,
    ObjLit,
    Param,
    Site,
    Unknown,
    Value,
    choice,
)
from extractors.lang.base import Binding, FileAdapter
from extractors.lang.expr import (
    ECall,
)

MAX_CALL_DEPTH = 6  # component functions entered to read their returns

SPREADS = ("spread_element", "list_splat")  # `...xs` (JS), `*xs` (Python) in a call


class Evaluating(Protocol):
    """The evaluator as a call reads it (`evaluate.Evaluator`, which is built on this module)."""

    program: Program

    def eval(
        self, rel: str, node: TsNode | None, act: Activation | None, depth: int = 0
    ) -> Value: ...

    def object_member(self, obj: ObjLit, name: str, depth: int) -> Value: ...


@dataclass
class Call:
    """A call being evaluated: its callee value, receiver, and arguments evaluated on demand."""

    ev: Evaluating
    rel: str
    node: TsNode
    view: ECall
    act: Activation | None
    callee: Value
    receiver: Value | None = None
    depth: int = 0
    _args: dict = field(default_factory=dict)

    @property
    def site(self) -> Site:
        return self.ev.program.adapter(self.rel).site(self.node)  # type: ignore[union-attr]

    @property
    def name(self) -> str:
        return self.callee.name if isinstance(self.callee, Method) else ""

    def arg(self, i: int) -> Value | None:
        if self.view.spread and any(n.type in SPREADS for n in self.view.args[: i + 1]):
            spread = self._spread()
            return spread[i] if i < len(spread) else None
        if i >= len(self.view.args):
            return None
        if i not in self._args:
            self._args[i] = self.ev.eval(self.rel, self.view.args[i], self.act, self.depth + 1)
        return self._args[i]

    def _spread(self) -> list[Value]:
        """The arguments with `...xs` expanded where `xs` is a known list (`fetch(...args)`
        forwarding a rest parameter); positions after an unknown spread are not known."""
        if "spread" not in self._args:
            out: list[Value] = []
            for node in self.view.args:
                if node.type not in SPREADS:
                    out.append(self.ev.eval(self.rel, node, self.act, self.depth + 1))
                    continue
                inner = self.ev.eval(self.rel, node.named_children[0], self.act, self.depth + 1) \
                    if node.named_children else None  # fmt: skip
                if isinstance(inner, Param):  # a rest parameter not bound yet: its items
                    out += [Param(f"{inner.name}.{k}", inner.scope) for k in range(4)]
                inner = self.ev.items_of(inner, self.depth + 1)  # `f(*t)`, `t` a returned tuple
                if not isinstance(inner, ArrLit):
                    break
                out += list(inner.items)
            self._args["spread"] = out
        return self._args["spread"]

    def kwarg(self, name: str) -> Value | None:
        node = self.view.kwargs.get(name)
        if node is None:
            return self._kwspread(name) if self.view.kwspread else None
        key = "kw:" + name
        if key not in self._args:
            self._args[key] = self.ev.eval(self.rel, node, self.act, self.depth + 1)
        return self._args[key]

    def _kwspread(self, name: str) -> Value | None:
        """A keyword read from `**kw` where `kw` is a known dict (the last one that has it)."""
        for node in reversed(self.view.kwspread):
            found = self.ev.eval(self.rel, node, self.act, self.depth + 1)
            if isinstance(found, ObjLit):
                value = self.ev.object_member(found, name, self.depth + 1)
                if not isinstance(value, (Method, Unknown)) and value != Lit(None):
                    return value
        return None

    def args(self) -> list[Value]:
        if self.view.spread and any(n.type in SPREADS for n in self.view.args):
            return list(self._spread())
        return [self.arg(i) for i in range(len(self.view.args))]  # type: ignore[misc]


class Calls:
    """`Evaluator`'s calls: a call's value, a component function's returns with its
    parameters bound, and a function a library calls (`apply`)."""

    def call(self, rel: str, a: FileAdapter, node: TsNode, view: ECall, act, depth: int) -> Value:
        callee = self.eval(rel, view.callee, act, depth)
        receiver = callee.target if isinstance(callee, Method) else None
        if isinstance(callee, Func) and callee.this is not None:
            receiver = callee.this
        call = Call(self, rel, node, view, act, callee, receiver, depth)
        found = self.library.call(self, call)
        if found is not None:
            return found
        found = builtins.call(self, call)
        if found is not None:
            return found
        if isinstance(callee, Func):
            return self.returns(callee, call)
        if isinstance(callee, Param):  # a parameter called: still the caller's to know
            return Param(f"{callee.name}()", callee.scope)
        if isinstance(callee, Klass):
            kwargs = tuple((k, call.kwarg(k)) for k in view.kwargs)
            return Instance(callee, tuple(call.args()), kwargs, made=True)  # type: ignore[arg-type]
        if isinstance(callee, Choice):
            return choice([self._call_option(o, call) for o in callee.options])
        if isinstance(callee, Method) and callee.name == "bind" and isinstance(callee.target, Func):
            return callee.target
        return Unknown(" ".join(a.text(node).split())[:120], "result of a call not modelled")

    def _call_option(self, callee: Value, call: Call) -> Value:
        """One alternative of a callee chosen at run time (`classes[env]()`)."""
        if isinstance(callee, Func):
            return self.returns(callee, call)
        if isinstance(callee, Klass):
            kwargs = tuple((k, call.kwarg(k)) for k in call.view.kwargs)
            return Instance(callee, tuple(call.args()), kwargs, made=True)  # type: ignore[arg-type]
        one = Call(
            self,
            call.rel,
            call.node,
            call.view,
            call.act,
            callee,
            call.receiver,
            call.depth,
            call._args,
        )
        return self.library.call(self, one) or Unknown("", "call of a choice")

    def bind_call(self, fn_value: Func, call: Call) -> Activation | None:
        """The activation a call makes for a component function: its parameters bound to the
        call's arguments (each evaluated where the call is)."""
        a = self.program.adapter(fn_value.site.rel)
        node = a.node_at(fn_value.site) if a is not None else None
        if a is None or node is None:
            return None
        info = a.function(node)
        args = call.args()
        kwargs = {k: call.kwarg(k) for k in call.view.kwargs}
        method = a.family == "py" and info.is_method and fn_value.this is not None
        values = self._bind(info, args, kwargs, method)  # type: ignore[arg-type]
        depth = (call.act.depth + 1) if call.act is not None else 1
        return Activation(a.scope_of(node), values, fn_value.this, fn_value.act, depth)

    def _bind(self, info, args: list[Value], kwargs: dict[str, Value], skip_self: bool):
        values: list[tuple[str, Value]] = []
        offset = 1 if skip_self else 0
        for param in info.params:
            if param.path:
                continue
            position = param.index - offset
            if 0 <= position < len(args) and args[position] is not None:
                values.append((f"#{param.index}", args[position]))
            elif param.name in kwargs and kwargs[param.name] is not None:
                values.append((f"#{param.index}", kwargs[param.name]))
        for param in info.params:  # destructured parameters read the whole argument
            position = param.index - offset
            if _rest(param) and 0 <= position <= len(args):  # `...args`: the rest, a list
                values.append(
                    (f"#{param.index}", ArrLit(tuple(a for a in args[position:] if a is not None)))
                )
            elif param.path and 0 <= position < len(args) and f"#{param.index}" not in dict(values):
                values.append((f"#{param.index}", args[position]))
        return tuple(values)

    def returns(self, fn_value: Func, call: Call) -> Value:
        a = self.program.adapter(fn_value.site.rel)
        node = a.node_at(fn_value.site) if a is not None else None
        if a is None or node is None:
            return Unknown("", "function not found")
        scope = a.scope_of(node)
        depth = call.act.depth if call.act is not None else 0
        if scope in self._entered or depth >= MAX_CALL_DEPTH:
            return Unknown(fn_value.name, "recursive or deep call")
        act = self.bind_call(fn_value, call)
        info = a.function(node)
        self._entered.add(scope)
        try:
            rel, found = fn_value.site.rel, a.returns(info)
            if len(found) > 1:  # a `return` in a branch that cannot run is no result
                found = [
                    r for r in found if not self.judged_dead(rel, a, r, node, act, call.depth + 1)
                ]
            outs = [self.eval(rel, r, act, call.depth + 1) for r in found]
        finally:
            self._entered.discard(scope)
        if not outs:
            return Unknown(fn_value.name, "returns nothing known")
        return choice(outs)

    def apply(self, fn: Func, args: list[Value]) -> tuple[list[Value], Activation | None]:
        """What a component function returns when called with these arguments (a library
        calling it: an interceptor, a provider factory), and the activation it ran in."""
        a = self.program.adapter(fn.site.rel)
        node = a.node_at(fn.site) if a is not None else None
        if a is None or node is None or not a.is_function(node):
            return [], None
        info = a.function(node)
        method = a.family == "py" and info.is_method and fn.this is not None
        act = Activation(a.scope_of(node), self._bind(info, args, {}, method), fn.this, fn.act, 1)
        scope = a.scope_of(node)
        if scope in self._entered:
            return [], act
        self._entered.add(scope)
        try:
            return [self.eval(fn.site.rel, r, act, 1) for r in a.returns(info)], act
        finally:
            self._entered.discard(scope)


def _rest(param: Binding) -> bool:
    """A rest parameter (`...args`, `...args: T[]`), not an object pattern's rest."""
    node = param.node
    pattern = node.child_by_field_name("pattern") if node.type != "rest_pattern" else node
    return param.path == ("...",) and pattern is not None and pattern.type == "rest_pattern"
