"""What a language adapter tells the engine about one file, in language-neutral records.

An adapter answers, for its grammar: the view of an expression node (`lang.expr`), which
declaration a name at a position refers to (`resolve`), the calls and decorators of the
file, the parameters and returns of a function, the members of a class, the assignments to
object members, and the loops around a node. Everything is computed when first asked and
kept for the file (one component's extraction).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from tree_sitter import Node as TsNode

from extractors.engine.values import Scope, Site
from extractors.lang.branches import exits_before, guards, unconditional
from extractors.lang.expr import ECall, EMember, Expr
from extractors.source import SourceFile, named_descendants

SHARED_TEXT = 40  # characters up to which a node's text is interned (names, keys, short strings)


@dataclass(slots=True)
class Binding:
    """A name's declaration: what kind, in which scope, and how to compute its value."""

    name: str
    kind: str  # decl | assign | param | function | class | loop | catch
    scope: TsNode  # the scope node the name lives in
    node: TsNode  # the declaring node (declarator, function, class, parameter, loop)
    value: TsNode | None = None  # initializer; a loop's iterable
    path: tuple = ()  # destructuring path into the value: keys, indexes, "..." for a rest
    index: int = -1  # a parameter's position
    default: TsNode | None = None
    type: TsNode | None = None  # a declared type annotation


@dataclass(slots=True)
class FunctionInfo:
    node: TsNode
    name: str
    params: list[Binding]
    body: TsNode | None
    is_method: bool = False
    decorators: list[TsNode] = field(default_factory=list)
    _returns: list[TsNode] | None = None


@dataclass(slots=True)
class ClassInfo:
    node: TsNode
    name: str
    bases: list[TsNode]
    decorators: list[TsNode]
    methods: dict[str, TsNode]  # name -> function node
    fields: dict[str, TsNode]  # name -> initializer (class fields, Python class attributes)
    field_types: dict[str, TsNode]  # name -> type annotation
    method_decorators: dict[str, list[TsNode]]
    field_params: dict[str, TsNode] = field(default_factory=dict)  # parameter properties


class FileAdapter:
    """The language-specific half; one instance per source file."""

    family = ""

    def __init__(self, sf: SourceFile):
        self.sf = sf
        self.root = sf.tree.root_node
        # what a function or class node reads as, once per node: the evaluator asks for the
        # same class for every member it looks up (quadratic on large files otherwise)
        self._functions: dict[int, FunctionInfo] = {}
        self._classes: dict[int, ClassInfo | None] = {}
        self._views: dict[int, Expr] = {}
        self._branches: dict[tuple[int, int], tuple] = {}  # (node, function) -> its conditions
        self._exits: dict[int, list] = {}  # block id -> its `if`s that always leave
        self._always: dict[tuple[int, int], bool] = {}  # (node, function) -> runs always
        self._terminals: dict[int, str | None] = {}
        self._assigned_by_name: dict[str, list[tuple[TsNode, TsNode]]] | None = None
        self._functions_by_name: dict[str, list[TsNode]] | None = None

    # --- plumbing shared by both languages
    def text(self, node: TsNode | None) -> str:
        """The node's source text; a short one (a name, a key) is one shared string however
        often it is read: views, bindings and caches of a large file keep hundreds of
        thousands of them."""
        if node is None:
            return ""
        text = self.sf.node_text(node)
        return sys.intern(text) if len(text) <= SHARED_TEXT else text

    def site(self, node: TsNode) -> Site:
        return Site(
            self.sf.rel,
            node.start_point[0] + 1,
            node.end_point[0] + 1,
            node.start_point[1],
            node.start_byte,
            node.end_byte,
        )

    def scope_of(self, node: TsNode) -> Scope:
        return Scope(self.sf.rel, node.start_byte, node.end_byte)

    def node_of(self, scope: Scope) -> TsNode | None:
        """The node a scope is (a function, a class body, the module): `scope_of` undone."""
        return self.node_at(Site(scope.rel, 0, 0, 0, scope.start, scope.end))

    def node_at(self, site: Site) -> TsNode | None:
        """The node a site was made from (same byte span)."""
        node = self.root.descendant_for_byte_range(site.start, site.end)
        while node is not None and (node.start_byte, node.end_byte) != (site.start, site.end):
            if node.start_byte < site.start or node.end_byte > site.end:
                return None
            node = node.parent
        return node

    # --- the grammar-specific half
    def unwrap(self, node: TsNode) -> TsNode:
        """The expression inside parentheses, `await`, type assertions: what `view` reads."""
        return node

    def view(self, node: TsNode) -> Expr:
        """What an expression node reads as, once per node (views are never changed)."""
        found = self._views.get(node.id)
        if found is None:
            found = self._views[node.id] = self.read_view(node)
        return found

    def read_view(self, node: TsNode) -> Expr:
        raise NotImplementedError

    def call_view(self, node: TsNode) -> ECall | None:
        view = self.view(node)
        return view if isinstance(view, ECall) else None

    def decorator_callee(self, expr: TsNode) -> tuple[TsNode, ECall | None]:
        """What a decorator expression names, and its call when it is called:
        `pytest.fixture` and None for `@pytest.fixture`, the same and the call for
        `@pytest.fixture(name="db")`."""
        view = self.call_view(expr)
        return (view.callee if view is not None else expr), view

    def resolve(self, name: str, at: TsNode) -> Binding | None:
        raise NotImplementedError

    # `_scopes`: each adapter's scope tables, (scope start, end) -> name -> bindings
    _scopes: dict[tuple[int, int], dict[str, list[Binding]]]

    def bindings(self, binding: Binding) -> list[Binding]:
        """Every declaration and assignment of the same name in the same scope."""
        key = (binding.scope.start_byte, binding.scope.end_byte)
        return self._scopes.get(key, {}).get(binding.name, [binding])

    def bindings_of_loop(self, loop: TsNode) -> list[Binding]:
        """The variables a loop binds (with their destructuring paths)."""
        table = self._scopes.get((loop.start_byte, loop.end_byte), {})
        return [b for found in table.values() for b in found if b.kind == "loop" and b.node == loop]

    def calls(self) -> list[TsNode]:
        raise NotImplementedError

    def reads(self) -> list[TsNode]:
        """The file's member reads and subscripts (JS: and object patterns)."""
        raise NotImplementedError

    def classes(self) -> list[TsNode]:
        """The file's class definitions, in document order."""
        raise NotImplementedError

    def terminal(self, callee: TsNode) -> str | None:
        """The name a callee ends in (`post` of `api.client.post`), once per node: every
        pass asks it of every call to decide whether a model may know the call."""
        key = callee.id
        if key in self._terminals:
            return self._terminals[key]
        found = self._terminals[key] = self.read_terminal(callee)
        return found

    def read_terminal(self, callee: TsNode) -> str | None:
        raise NotImplementedError

    def is_function(self, node: TsNode) -> bool:
        raise NotImplementedError

    def function_at(self, node: TsNode) -> TsNode | None:
        """The innermost function containing `node` (not `node` itself)."""
        parent = node.parent
        while parent is not None:
            if self.is_function(parent):
                return parent
            parent = parent.parent
        return None

    def functions_named(self, name: str) -> list[TsNode]:
        """The file's functions of that name (declarations, methods, named function values),
        in document order: one walk of the file for every name asked."""
        if self._functions_by_name is None:
            table: dict[str, list[TsNode]] = {}
            for node in named_descendants(self.root):
                if self.is_function(node):
                    table.setdefault(self.function(node).name, []).append(node)
            self._functions_by_name = table
        return self._functions_by_name.get(name, [])

    def function(self, node: TsNode) -> FunctionInfo:
        info = self._functions.get(node.id)
        if info is None:
            info = self._functions[node.id] = self.read_function(node)
        return info

    def read_function(self, node: TsNode) -> FunctionInfo:
        raise NotImplementedError

    def returns(self, info: FunctionInfo) -> list[TsNode]:
        raise NotImplementedError

    def yielded(self, info: FunctionInfo) -> list[TsNode]:
        """What a generator function yields (`yield session`), its own yields only."""
        return []

    def klass(self, node: TsNode) -> ClassInfo | None:
        if node.id not in self._classes:
            self._classes[node.id] = self.read_class(node)
        return self._classes[node.id]

    def read_class(self, node: TsNode) -> ClassInfo | None:
        raise NotImplementedError

    def class_of_method(self, fn: TsNode) -> TsNode | None:
        raise NotImplementedError

    def class_of_field(self, node: TsNode) -> TsNode | None:
        """The class whose field initializer `node` is in (outside any function), else None."""
        return None

    def is_getter(self, method: TsNode) -> bool:
        """A method read as the value it returns (a JS `get x()`, a Python `@property`)."""
        return False

    def branches_of(self, node: TsNode, stop: TsNode | None) -> tuple:
        """(the `if` conditions around `node` with whether each must hold, the conditions
        of the `if`s before it that always leave) inside the function `stop`, once per
        node: each read of a name asks them of every assignment of it again."""
        key = (node.id, stop.id if stop is not None else -1)
        found = self._branches.get(key)
        if found is None:
            found = self._branches[key] = (
                guards(node, stop),
                exits_before(node, stop, self._exits),
            )
        return found

    def runs_always(self, node: TsNode, stop: TsNode | None) -> bool:
        """Whether `node` runs whenever the function `stop` does (no branch or loop between)."""
        key = (node.id, stop.id if stop is not None else -1)
        if key not in self._always:
            self._always[key] = unconditional(node, stop)
        return self._always[key]

    def is_setter(self, method: TsNode) -> bool:
        """A method run when its property is assigned (a JS `set x(v)`, a Python `@x.setter`)."""
        return False

    def param_decorators(self, param: TsNode) -> list[TsNode]:
        """The decorator expressions on a parameter (`@Inject(TOKEN) url: string`)."""
        return []

    def member_assignments(self) -> list[tuple[TsNode, TsNode]]:
        """(member target, value) of every `a.b.c = value` in the file."""
        raise NotImplementedError

    def assignments_to(self, name: str) -> list[tuple[TsNode, TsNode]]:
        """(target, value) of the member assignments `….name = value` of the file, by name:
        a class's members are looked up by name once per read of `self.name`, and a file
        of large classes has thousands of both."""
        if self._assigned_by_name is None:
            self._assigned_by_name = {}
            for target, value in self.member_assignments():
                view = self.view(target)
                if isinstance(view, EMember):
                    self._assigned_by_name.setdefault(view.name, []).append((target, value))
        return self._assigned_by_name.get(name, [])

    def decorated(self) -> list[tuple[TsNode, TsNode]]:
        """(decorator expression, decorated function or class) in source order."""
        raise NotImplementedError

    def loop_binding(self, binding: Binding) -> tuple[TsNode, TsNode | None] | None:
        """(loop node, body) when the binding is a loop variable."""
        return None

    def settled_by(self, fn: TsNode) -> TsNode | None:
        """The expression whose settled value a callback's first parameter receives
        (`p.then((v) => …)`: `p`), else None."""
        return None


def add_binding(tables: dict[tuple[int, int], dict[str, list[Binding]]], binding: Binding) -> None:
    """File `binding` under its scope in an adapter's scope tables."""
    key = (binding.scope.start_byte, binding.scope.end_byte)
    tables.setdefault(key, {}).setdefault(binding.name, []).append(binding)
