"""The Python adapter. Scopes: module, function, lambda, class body (not seen from the
methods inside it, as Python rules), comprehension; a `for` target is a loop variable
bound by its loop. Queries are in `queries/python.scm`."""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.lang.base import Binding, ClassInfo, FileAdapter, FunctionInfo
from extractors.lang.py_scopes import FUNCTIONS, PyScopes
from extractors.lang.py_views import PyViews
from extractors.source import matches, named_descendants

GETTERS = {"property", "cached_property", "functools.cached_property"}  # decorators


class PyFile(PyViews, PyScopes, FileAdapter):
    """A Python file: its expressions (py_views.py), scopes (py_scopes.py), and here its
    functions, classes and decorators."""

    family = "py"

    def is_function(self, node: TsNode) -> bool:
        return node.type in FUNCTIONS

    def read_function(self, node: TsNode) -> FunctionInfo:
        params = node.child_by_field_name("parameters")
        bindings, position = [], 0
        for child in params.named_children if params is not None else []:
            kind = child.type
            if kind in {"keyword_separator", "positional_separator", "comment"}:
                continue
            name_node, default, annotation = child, None, None
            if kind in {"default_parameter", "typed_default_parameter"}:
                name_node = child.child_by_field_name("name") or child
                default = child.child_by_field_name("value")
                annotation = child.child_by_field_name("type")
            elif kind == "typed_parameter":
                name_node = next((c for c in child.named_children if c.type == "identifier"), child)
                annotation = child.child_by_field_name("type")
            elif (
                kind in {"list_splat_pattern", "dictionary_splat_pattern"} and child.named_children
            ):
                name_node = child.named_children[0]
            if name_node.type == "identifier":
                bindings.append(Binding(self.text(name_node), "param", node, child, None, (),
                                        position, default, annotation))  # fmt: skip
            position += 1
        decorators = []
        parent = node.parent
        if parent is not None and parent.type == "decorated_definition":
            decorators = [
                self._decorator_expr(d) for d in parent.named_children if d.type == "decorator"
            ]
        name = node.child_by_field_name("name")
        is_method = self.class_of_method(node) is not None
        return FunctionInfo(node, self.text(name) if name is not None else "", bindings,
                            node.child_by_field_name("body"), is_method, decorators)  # fmt: skip

    def returns(self, info: FunctionInfo) -> list[TsNode]:
        if info._returns is None:
            body = info.body
            if body is None:
                info._returns = []
            elif info.node.type == "lambda":
                info._returns = [body]
            else:
                found = []
                for _, m in matches("python", "(return_statement) @r", body):
                    ret = m["r"][0]
                    if self.function_at(ret) == info.node and ret.named_children:
                        found.append(ret.named_children[0])
                info._returns = found
        return info._returns

    def is_getter(self, method: TsNode) -> bool:
        """`@property` / `@cached_property` (`config.host` of a generated client)."""
        return any(text in GETTERS for text in self._decorations(method))

    def is_setter(self, method: TsNode) -> bool:
        """`@host.setter` (or `.deleter`): runs when the property is assigned."""
        return any(text.endswith((".setter", ".deleter")) for text in self._decorations(method))

    def _decorations(self, method: TsNode) -> list[str]:
        """The decorators of a method as written (`property`, `host.setter`)."""
        parent = method.parent
        if parent is None or parent.type != "decorated_definition":
            return []
        return [
            self.text(self._decorator_expr(c)) for c in parent.children if c.type == "decorator"
        ]

    def _decorator_expr(self, decorator: TsNode) -> TsNode:
        inner = [c for c in decorator.named_children if c.type != "comment"]
        return inner[0] if inner else decorator

    def read_class(self, node: TsNode) -> ClassInfo | None:
        if node.type != "class_definition":
            return None
        name = node.child_by_field_name("name")
        supers = node.child_by_field_name("superclasses")
        bases = [c for c in supers.named_children if c.type != "keyword_argument"] if supers else []
        parent = node.parent
        decorators = []
        if parent is not None and parent.type == "decorated_definition":
            decorators = [
                self._decorator_expr(d) for d in parent.named_children if d.type == "decorator"
            ]
        methods, fields, types, method_decorators = {}, {}, {}, {}
        body = node.child_by_field_name("body")
        for stmt in body.named_children if body is not None else []:
            target = stmt
            decos: list[TsNode] = []
            if stmt.type == "decorated_definition":
                decos = [
                    self._decorator_expr(d) for d in stmt.named_children if d.type == "decorator"
                ]
                target = stmt.child_by_field_name("definition") or stmt
            if target.type == "function_definition":
                label = target.child_by_field_name("name")
                if label is not None and not (
                    self.text(label) in methods and self.is_setter(target)
                ):
                    methods[self.text(label)] = target  # `@x.setter` keeps the getter's name
                    method_decorators[self.text(label)] = decos
            else:
                assign = stmt.named_children[0] if stmt.type == "expression_statement" else stmt
                if assign is not None and assign.type == "assignment":
                    left = assign.child_by_field_name("left")
                    if left is not None and left.type == "identifier":
                        right = assign.child_by_field_name("right")
                        annotation = assign.child_by_field_name("type")
                        if right is not None:
                            fields[self.text(left)] = right
                        if annotation is not None:
                            types[self.text(left)] = annotation
        return ClassInfo(node, self.text(name) if name is not None else "", bases, decorators,
                         methods, fields, types, method_decorators)  # fmt: skip

    def class_of_method(self, fn: TsNode) -> TsNode | None:
        parent = fn.parent
        if parent is not None and parent.type == "decorated_definition":
            parent = parent.parent
        if parent is not None and parent.type == "block":
            owner = parent.parent
            if owner is not None and owner.type == "class_definition":
                return owner
        return None

    def yielded(self, info: FunctionInfo) -> list[TsNode]:
        if info.body is None:
            return []
        return [node.named_children[0] for node in named_descendants(info.body)
                if node.type == "yield" and node.named_children
                and self.function_at(node) == info.node]  # fmt: skip

    def class_of_field(self, node: TsNode) -> TsNode | None:
        """The class whose body holds `node` outside any function (a class attribute)."""
        parent = node.parent
        while parent is not None:
            if parent.type == "class_definition":
                return parent
            if parent.type in FUNCTIONS:
                return None
            parent = parent.parent
        return None

    def decorated(self) -> list[tuple[TsNode, TsNode]]:
        out = []
        for decorator in self._index["dec"]:
            parent = decorator.parent
            if parent is None or parent.type != "decorated_definition":
                continue
            target = parent.child_by_field_name("definition")
            if target is not None:
                out.append((self._decorator_expr(decorator), target))
        return out

    def loop_binding(self, binding: Binding) -> tuple[TsNode, TsNode | None] | None:
        if binding.kind != "loop":
            return None
        return binding.node, binding.node.child_by_field_name("body")
