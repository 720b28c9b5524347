"""What the builtins and the program ask of the evaluator and of a call being evaluated,
as protocols: the evaluator depends on them, they depend on nothing above `values`."""

from __future__ import annotations

from typing import Any, Protocol

from tree_sitter import Node as TsNode

from extractors.engine.values import Activation, ObjLit, Value
from extractors.lang.base import Binding, FileAdapter
from extractors.lang.expr import ECall


class Evaluates(Protocol):
    program: Any  # the component's Program

    def eval(
        self, rel: str, node: TsNode | None, act: Activation | None, depth: int = 0
    ) -> Value: ...

    def binding_value(
        self, rel: str, a: FileAdapter, b: Binding, act: Any, at: Any, depth: int
    ) -> Value: ...

    def object_member(self, obj: ObjLit, name: str, depth: int) -> Value: ...


class EvaluatedCall(Protocol):
    ev: Evaluates
    rel: str
    view: ECall
    callee: Value

    def arg(self, i: int) -> Value | None: ...

    def kwarg(self, name: str) -> Value | None: ...

    def args(self) -> list[Value]: ...
