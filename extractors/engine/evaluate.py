"""The one evaluator: an expression node of either language -> a `Value`.

Follows names through function scopes, closures, module constants, imports and re-exports;
members of object literals, modules, classes and instances (fields, `this.x = …` /
`self.x = …`), assignments made to an object elsewhere (`OpenAPI.BASE = …` wins over the
literal it started as); `||` / `??` / `or` (an env var's default), ternaries and
reassignment (`Choice`), string concatenation, templates and f-strings, calls of the
component's functions (their returns, with the arguments bound), and loop variables (the
items of a static list). What a library does — `express.Router()`, `axios.create()`,
`process.env.X`, `ConfigService.get` — is asked of the models (`Library`). What stays
unknown is a `Param` (a wrapper's input) or an `Unknown` with its reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from tree_sitter import Node as TsNode

from extractors.engine import builtins
from extractors.engine.dependencies import Injector
from extractors.engine.eval_calls import SPREADS, Call, Calls
from extractors.engine.eval_classes import ClassMembers
from extractors.engine.eval_instances import Instances
from extractors.engine.eval_members import MAX_DEPTH, Members
from extractors.engine.eval_names import Names
from extractors.engine.program import Program
from extractors.engine.values import (
    STRINGISH,
    Activation,
    ArrLit,
    Choice,
    Env,
    Ext,
    Func,
    Instance,
    Klass,
    Lit,
    Obj,
    ObjLit,
    Param,
    Scope,
    Seq,
    Unknown,
    Value,
    choice,
    concat,
)
from extractors.lang.base import FileAdapter
from extractors.lang.expr import (
    EArray,
    EBinary,
    ECall,
    EClass,
    ECond,
    EConst,
    EFunc,
    EIndex,
    ELogical,
    EMember,
    EName,
    EObject,
    EStr,
    ETemplate,
    EThis,
)

EQUALS, UNEQUALS = {"==", "===", "is"}, {"!=", "!==", "is not"}  # tests against null / None
# Evaluations one outermost read may take. Library and bundled code multiplies them (a name
# set in many places, each read through calls of functions that read it again). Application
# code needs few: of the 91,533 reads of the development portfolio and RealWorld, 91,484
# take at most 100 steps, 49 at most 1,000, one ran out of 20,000 and changed no fact; in
# the scale portfolio's bundled Next.js half the steps went to 90 reads that ran out.
MAX_STEPS = 2_000
MAX_ITEMS = 64  # array items kept


class Library(Protocol):
    """What the models add to the language: library objects, their members and calls."""

    def member(self, ev: Evaluator, target: Value, name: str, rel: str = "") -> Value | None: ...

    def call(self, ev: Evaluator, call: Call) -> Value | None: ...

    def typed(self, ev: Evaluator, type_value: Value) -> Value | None: ...

    def subclass(self, ev: Evaluator, klass: Klass) -> Value | None: ...

    proxies: dict  # library globals standing for a registered loader's result

    def proxy(self, ev: Evaluator, value: Ext) -> Value | None: ...

    def fixture(self, ev: Evaluator, rel: str, b) -> Value | None: ...

    def class_member(self, ev: Evaluator, base: Value, klass: Klass, name: str) -> Value | None: ...

    def derived_from(self, base: Obj) -> Value | None: ...


class Evaluator(Names, Members, ClassMembers, Instances, Calls):
    """Expressions -> values; names, members, class members and calls are its parts
    (eval_names.py, eval_members.py, eval_classes.py, eval_calls.py)."""

    def __init__(self, program: Program, library: Library):
        self.program = program
        self.library = library
        self._cache: dict[int, Value] = {}  # tree-sitter node id -> its value, read unbound
        # (value node id, a loop pass's activation) -> what a loop body assigns in that pass
        self._loop_values: dict[tuple[int, Activation], Value] = {}
        self._open = 0  # evaluations in progress (0: the next one is an outermost read)
        self._steps = MAX_STEPS  # what the outermost read in progress may still take
        self._assigned: dict[tuple[Value, str], list[tuple[str, TsNode]]] | None = None
        self._building = False
        self._entered: set[Scope] = set()
        self._judged: set[int] = set()  # assignments whose branch conditions are being read
        self.injector = Injector(self)  # what dependency injection provides for a token
        self.defines: dict[str, Value] = {}  # names a bundler replaces (engine/defines.py)
        self.fixture_depth = 0  # test fixtures being read for a parameter (models/injected.py)
        if hasattr(library, "attach"):
            library.attach(self)

    @contextmanager
    def forgetting(self) -> Iterator[None]:
        """Values read meanwhile are not kept once it ends: a pass over one file's reads that
        later reads do not ask again (the env reads of every member read of a file)."""
        kept = len(self._cache)
        try:
            yield
        finally:
            while len(self._cache) > kept:
                self._cache.popitem()  # the newest first: what this pass added

    # --- entry --------------------------------------------------------------------
    def eval(self, rel: str, node: TsNode | None, act: Activation | None, depth: int = 0) -> Value:
        if node is None:
            return Unknown("", "nothing to evaluate")
        adapter = self.program.adapter(rel)
        if adapter is None:
            return Unknown("", f"{rel} is not code")
        if depth > MAX_DEPTH:
            return Unknown(adapter.text(node)[:80], "evaluation too deep")
        node = adapter.unwrap(node)  # one identity for `(x)`, `await x`, `x as T` and `x`
        key = node.id  # unique among the component's parsed files, which all stay alive
        if act is None and (known := self._cache.get(key)) is not None:
            return known
        if self._open == 0:
            self._steps = MAX_STEPS
        elif self._steps <= 0:
            return Unknown(adapter.text(node)[:80], "too costly to evaluate")
        self._steps -= 1
        self._open += 1
        try:
            value = self._eval(rel, adapter, node, act, depth)
        finally:
            self._open -= 1
        if act is None:
            self._cache[key] = value
        return value

    def _eval(self, rel: str, a: FileAdapter, node: TsNode, act, depth: int) -> Value:
        view = a.view(node)
        d = depth + 1
        if isinstance(view, EStr):
            return Lit(view.value)
        if isinstance(view, EConst):
            return Lit(view.value)
        if isinstance(view, ETemplate):
            return concat(*(Lit(p) if isinstance(p, str) else self._stringy(self.eval(rel, p, act, d), a, p)
                            for p in view.parts))  # fmt: skip
        if isinstance(view, EName):
            return self.name(rel, a, node, view.name, act, d)
        if isinstance(view, EThis):
            return self.this(rel, a, node, act)
        if isinstance(view, EMember):
            target = self.eval(rel, view.obj, act, d)
            return self.member(target, view.name, rel, node, d)
        if isinstance(view, EIndex):
            target = self.eval(rel, view.obj, act, d)
            index = self.eval(rel, view.index, act, d)
            if isinstance(index, Lit) and isinstance(index.value, (str, int)):
                return self.member(target, str(index.value), rel, node, d)
            if isinstance(index, Choice) and all(isinstance(o, Lit) for o in index.options):
                return choice(
                    [self.member(target, str(o.value), rel, node, d) for o in index.options],
                    index.condition,
                )  # `axios[cond ? 'delete' : 'post']`
            if isinstance(target, ObjLit):  # `urls[kind]`: one of the object's values
                return self.any_member(target, a.text(view.index), d)
            return Unknown(a.text(node)[:80], "computed member")
        if isinstance(view, ECall):
            return self.call(rel, a, node, view, act, d)
        if isinstance(view, EBinary):
            left, right = self.eval(rel, view.left, act, d), self.eval(rel, view.right, act, d)
            if view.op == "+" and (builtins.texty(left) or builtins.texty(right)):
                # text + anything is text: what is not a string reads as a named hole
                left, right = self._stringy(left, a, view.left), self._stringy(right, a, view.right)
            return builtins.binary(view.op, left, right, a.text(node))
        if isinstance(view, ELogical):
            left, right = self.eval(rel, view.left, act, d), self.eval(rel, view.right, act, d)
            return builtins.logical(view.op, left, right)
        if isinstance(view, ECond):
            decided = self._decided(rel, a, view.test, act, d)
            if decided is not None:  # `cfg.basePath != null ? cfg.basePath : BASE_PATH`
                return self.eval(rel, view.then if decided else view.other, act, d)
            then, other = self.eval(rel, view.then, act, d), self.eval(rel, view.other, act, d)
            return choice([then, other], " ".join(a.text(view.test).split())[:120])
        if isinstance(view, EObject):
            return ObjLit(a.site(node), act)
        if isinstance(view, EArray):
            if view.bare and not view.spreads:
                return Seq(a.site(node), act)
            items = [self.eval(rel, item, act, d) for item in view.items[:MAX_ITEMS]]
            for spread in view.spreads:
                inner = self.eval(rel, spread, act, d)
                if isinstance(inner, ArrLit):
                    items += list(inner.items)
            return ArrLit(tuple(items[:MAX_ITEMS]), a.site(node))
        if isinstance(view, EFunc):
            return Func(a.site(node), act, None, a.function(node).name)
        if isinstance(view, EClass):
            info = a.klass(node)
            return Klass(a.site(node), info.name if info else "")
        return Unknown(" ".join(a.text(node).split())[:120], view.why)  # type: ignore[attr-defined]

    def _decided(self, rel: str, a: FileAdapter, test: TsNode, act, depth: int) -> bool | None:
        """A condition known statically: a comparison with null / undefined of a value that
        is certainly set (a literal, an env var, text with a literal part), or of a literal
        with a literal (`if method == "GET"` in a client's dispatch), else None."""
        view = a.view(test)
        if _tests_text(a, view):  # `base.endsWith("/")`, `name.indexOf(".draft.") !== -1`
            found = self.eval(rel, test, act, depth)
            return builtins.truthy(found) if isinstance(found, Lit) else None
        if not (isinstance(view, EBinary) and view.op in EQUALS | UNEQUALS):
            return None
        right = a.view(view.right)
        if isinstance(right, EStr) or (isinstance(right, EConst) and right.value is not None):
            if not isinstance(a.view(view.left), EName):
                return None  # a name's value (`method`), not every expression: cost
            left = self.eval(rel, view.left, act, depth)
            return builtins.compared(view.op, left, Lit(right.value))
        if not (isinstance(right, EConst) and right.value is None):
            return None
        left = self.eval(rel, view.left, act, depth)
        present = left != Lit(None) and (
            isinstance(left, (Lit, Env, ObjLit, ArrLit, Func, Instance, Klass, Obj))
            or builtins.truthy(left) is True
        )
        if left == Lit(None):
            return view.op in EQUALS
        return (view.op in UNEQUALS) if present else None

    def judged_dead(
        self, rel: str, a: FileAdapter, node: TsNode, stop: TsNode | None, act, depth: int
    ) -> bool:
        """`dead`, with `node` itself left out of what its conditions read."""
        return self._judging(node, lambda: self.dead(rel, a, node, stop, act, depth))

    def judged_certain(
        self, rel: str, a: FileAdapter, node: TsNode, stop: TsNode | None, act, depth: int
    ) -> bool:
        """Whether `node` is under `if`s all decided to hold (and none before it leaves)."""
        tests, exits = a.branches_of(node, stop)

        def certain() -> bool:
            held = all(self._decided(rel, a, t, act, depth) == holds for t, holds in tests)
            return held and not any(self._decided(rel, a, t, act, depth) is True for t in exits)

        return bool(tests) and self._judging(node, certain)

    def _judging(self, node: TsNode, judge: Callable[[], bool]) -> bool:
        """`judge()` with `node` left out of what conditions read, one level deep: each
        judged condition would judge the branches of every name it reads, in bundled code
        without end; asked again meanwhile, the answer is no."""
        if self._judged:
            return False
        self._judged.add(node.id)
        try:
            return judge()
        finally:
            self._judged.discard(node.id)

    def dead(
        self, rel: str, a: FileAdapter, node: TsNode, stop: TsNode | None, act, depth: int
    ) -> bool:
        """Whether `node` (an assignment, a `return`) is in a branch that cannot run: under an
        `if` whose condition is decided against it, or after one that always leaves."""
        tests, exits = a.branches_of(node, stop)
        for test, holds in tests:
            decided = self._decided(rel, a, test, act, depth)
            if decided is not None and decided != holds:
                return True
        return any(self._decided(rel, a, test, act, depth) is True for test in exits)

    def _stringy(self, value: Value, a: FileAdapter, node: TsNode) -> Value:
        """A value interpolated into text: itself when it is text, each alternative of a
        choice likewise, anything else an unknown named by the expression."""
        if isinstance(value, Choice):
            return choice([self._stringy(o, a, node) for o in value.options], value.condition)
        if isinstance(value, STRINGISH):
            return value
        if builtins.same_origin(value):  # `${location.origin}/api`: a same-origin path
            return Lit("")
        return Unknown(" ".join(a.text(node).split())[:80], "not a string")


def lit_text(value: Value | None) -> str | None:
    if isinstance(value, Lit) and isinstance(value.value, str):
        return value.value
    return None


__all__ = ["SPREADS", "Call", "Evaluator", "Library", "lit_text", "Env", "Param"]


def _tests_text(a: FileAdapter, view) -> bool:
    """A condition asking what a text starts with, ends with or holds (`builtins.QUERIES`),
    alone or compared: decided when the text and what it asks for are literals."""
    if isinstance(view, EBinary) and view.op in builtins.COMPARE:
        view = a.view(view.left)
    if not isinstance(view, ECall):
        return False
    callee = a.view(view.callee)
    return isinstance(callee, EMember) and callee.name in builtins.QUERIES
