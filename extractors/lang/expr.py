"""Language-neutral views of one expression node, made by a language adapter.

The evaluator never looks at a grammar's node types: it asks the file's adapter for the view
of a node, a shallow record whose children are still tree-sitter nodes (so a view costs one
node's inspection, never a tree conversion). Both languages map onto the same few shapes:
JS template literals and Python f-strings are `ETemplate`, `a || b` and `a or b` are
`ELogical`, `cond ? a : b` and `a if cond else b` are `ECond`, `{...}` and `dict(...)`
literals are `EObject`, arrow functions and lambdas are `EFunc`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node as TsNode


class Expr:
    __slots__ = ()


@dataclass(slots=True)
class EStr(Expr):
    value: str


@dataclass(slots=True)
class ETemplate(Expr):
    parts: list[str | TsNode]  # literal text and embedded expressions, in order


@dataclass(slots=True)
class EConst(Expr):
    value: object  # numbers, True/False, None/null/undefined


@dataclass(slots=True)
class EName(Expr):
    name: str


@dataclass(slots=True)
class EThis(Expr):
    pass


@dataclass(slots=True)
class EMember(Expr):
    obj: TsNode
    name: str


@dataclass(slots=True)
class EIndex(Expr):
    obj: TsNode
    index: TsNode


@dataclass(slots=True)
class ECall(Expr):
    callee: TsNode
    args: list[TsNode]
    kwargs: dict[str, TsNode] = field(default_factory=dict)
    new: bool = False
    spread: bool = False  # an argument is `...xs` / `*xs` / `**kw`
    kwspread: list[TsNode] = field(default_factory=list)  # `**kw` operands (Python)


@dataclass(slots=True)
class EBinary(Expr):
    op: str
    left: TsNode
    right: TsNode


@dataclass(slots=True)
class ELogical(Expr):
    op: str  # "or" | "and" | "??"
    left: TsNode
    right: TsNode


@dataclass(slots=True)
class ECond(Expr):
    test: TsNode
    then: TsNode
    other: TsNode


@dataclass(slots=True)
class Entry:
    """One member of an object literal: `key: value`, a method, a shorthand or a spread."""

    key: str | None  # None for a spread or a computed key
    value: TsNode  # the value expression, the method node, or the spread operand
    kind: str = "prop"  # prop | method | spread
    key_node: TsNode | None = None  # a computed key's expression (`{[KIND.a]: …}`, `{Enum.x: …}`)


@dataclass(slots=True)
class EObject(Expr):
    entries: list[Entry]


@dataclass(slots=True)
class EArray(Expr):
    items: list[TsNode]
    spreads: list[TsNode] = field(default_factory=list)
    bare: bool = False  # a tuple written without brackets (`return method, url`)


@dataclass(slots=True)
class EFunc(Expr):
    node: TsNode


@dataclass(slots=True)
class EClass(Expr):
    node: TsNode


@dataclass(slots=True)
class EUnknown(Expr):
    why: str
