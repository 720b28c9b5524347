"""The JS / TS / TSX adapter (also a Vue or Svelte `<script>` block, padded in place).

Scopes are function-level (plus `for…of/in` loop variables and `catch` parameters): a name
declared twice in one function is a choice of both values, as reassignment is. Queries are
in `queries/js.scm`.
"""

from __future__ import annotations

from functools import cached_property

from tree_sitter import Node as TsNode

from extractors.lang.base import Binding, ClassInfo, FileAdapter, FunctionInfo
from extractors.lang.js_scopes import JsScopes
from extractors.lang.js_views import CLASSES, FUNCTIONS, WRAPPERS, JsViews, dotted
from extractors.source import matches


class JsFile(JsViews, JsScopes, FileAdapter):
    """A JS / TS file: its expressions (js_views.py), scopes (js_scopes.py), and here its
    functions, classes and decorators."""

    family = "js"

    @cached_property
    def call_names(self) -> list[tuple[TsNode, TsNode | None, str | None]]:
        """(call, callee node, dotted callee name: `a.b.c` or None) for every call and `new`,
        once per file for every pass that dispatches on the callee's name."""
        data = self.sf.data
        out = []
        for call in self.calls():
            fn = call.child_by_field_name(
                "function" if call.type == "call_expression" else "constructor"
            )
            out.append((call, fn, dotted(data, fn)))
        return out

    def is_function(self, node: TsNode) -> bool:
        return node.type in FUNCTIONS

    def read_function(self, node: TsNode) -> FunctionInfo:
        params = node.child_by_field_name("parameters")
        if params is not None:
            bindings = self._params(node, params)
        elif (single := node.child_by_field_name("parameter")) is not None:
            bindings = [Binding(self.text(single), "param", node, single, index=0)]
        else:
            bindings = []
        decorators = self._member_decorators(node) if node.type == "method_definition" else []
        return FunctionInfo(node, self.function_name(node), bindings,
                            node.child_by_field_name("body"), node.type == "method_definition",
                            decorators)  # fmt: skip

    def function_name(self, node: TsNode) -> str:
        name = node.child_by_field_name("name")
        if name is not None:
            return self._key(name) or ""
        parent = node.parent
        while parent is not None and parent.type in WRAPPERS:
            parent = parent.parent
        if parent is None:
            return ""
        if parent.type == "variable_declarator":
            target = parent.child_by_field_name("name")
            return self.text(target) if target is not None and target.type == "identifier" else ""
        if parent.type == "pair":
            key = parent.child_by_field_name("key")
            return (self._key(key) or "") if key is not None else ""
        if parent.type in {"public_field_definition", "field_definition"}:
            key = parent.child_by_field_name("name") or parent.child_by_field_name("property")
            return self.text(key) if key is not None else ""
        if parent.type == "assignment_expression":
            left = parent.child_by_field_name("left")
            return self.terminal(left) or "" if left is not None else ""
        return ""

    def returns(self, info: FunctionInfo) -> list[TsNode]:
        if info._returns is None:
            body = info.body
            if body is None:
                info._returns = []
            elif body.type != "statement_block":
                info._returns = [body]  # an arrow function's expression body
            else:
                found = []
                for _, m in matches(
                    self.sf.language or "typescript", "(return_statement) @r", body
                ):
                    ret = m["r"][0]
                    if self.function_at(ret) == info.node and ret.named_children:
                        found.append(ret.named_children[0])
                info._returns = found
        return info._returns

    def read_class(self, node: TsNode) -> ClassInfo | None:
        if node.type not in CLASSES:
            return None
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        bases = []
        for child in node.named_children:
            if child.type == "class_heritage":
                for clause in child.named_children:
                    if clause.type == "extends_clause":
                        bases += [c for c in clause.named_children if c.type != "type_arguments"]
        decorators = [d for d in node.named_children if d.type == "decorator"]
        if node.parent is not None and node.parent.type == "export_statement":
            decorators = [
                d for d in node.parent.named_children if d.type == "decorator"
            ] + decorators
        methods, fields, types, method_decorators = {}, {}, {}, {}
        pending: list[TsNode] = []
        for child in body.named_children if body is not None else []:
            if child.type == "decorator":
                pending.append(child)
                continue
            if child.type == "comment":
                continue
            key = child.child_by_field_name("name") or child.child_by_field_name("property")
            label = self._key(key) if key is not None else None
            if label is None:
                pending = []
                continue
            if child.type == "method_definition":
                if not (label in methods and self.is_setter(child)):  # `get x` keeps the name
                    methods[label] = child
                    method_decorators[label] = [self._decorator_expr(d) for d in pending]
            elif child.type in {"public_field_definition", "field_definition"}:
                value = child.child_by_field_name("value")
                if value is not None:
                    fields[label] = value
                annotation = child.child_by_field_name("type")
                if annotation is not None:
                    types[label] = annotation
            pending = []
        ctor = methods.get("constructor")
        params_of: dict[str, TsNode] = {}
        if ctor is not None:  # TS parameter properties: `constructor(private http: HttpClient)`
            params = ctor.child_by_field_name("parameters")
            for child in params.named_children if params is not None else []:
                if any(c.type == "accessibility_modifier" for c in child.named_children):
                    pattern = child.child_by_field_name("pattern")
                    annotation = child.child_by_field_name("type")
                    if pattern is not None and pattern.type == "identifier":
                        params_of[self.text(pattern)] = child
                        if annotation is not None:
                            types.setdefault(self.text(pattern), annotation)
        return ClassInfo(node, self.text(name) if name is not None else "", bases,
                         [self._decorator_expr(d) for d in decorators], methods, fields, types,
                         method_decorators, params_of)  # fmt: skip

    def is_getter(self, method: TsNode) -> bool:
        return any(c.type == "get" for c in method.children)

    def is_setter(self, method: TsNode) -> bool:
        return any(c.type == "set" for c in method.children)

    def _decorator_expr(self, decorator: TsNode) -> TsNode:
        inner = [c for c in decorator.named_children if c.type != "comment"]
        return inner[0] if inner else decorator

    def _member_decorators(self, method: TsNode) -> list[TsNode]:
        out: list[TsNode] = []
        sibling = method.prev_named_sibling
        while sibling is not None and sibling.type in ("decorator", "comment"):
            if sibling.type == "decorator":
                out.insert(0, self._decorator_expr(sibling))
            sibling = sibling.prev_named_sibling
        return out

    def class_of_method(self, fn: TsNode) -> TsNode | None:
        parent = fn.parent
        if fn.type == "method_definition" and parent is not None and parent.type == "class_body":
            return parent.parent
        if parent is not None and parent.type in {"public_field_definition", "field_definition"}:
            body = parent.parent
            return body.parent if body is not None else None
        return None

    def class_of_field(self, node: TsNode) -> TsNode | None:
        parent = node.parent
        while parent is not None:
            if parent.type in FUNCTIONS and parent.type != "arrow_function":
                return None
            if parent.type in {"public_field_definition", "field_definition"}:
                body = parent.parent
                return body.parent if body is not None and body.type == "class_body" else None
            parent = parent.parent
        return None

    def param_decorators(self, param: TsNode) -> list[TsNode]:
        return [self._decorator_expr(c) for c in param.named_children if c.type == "decorator"]

    def decorated(self) -> list[tuple[TsNode, TsNode]]:
        out = []
        for decorator in self._index["decorated"]:
            target = decorator.parent
            if target is None:
                continue
            if target.type == "export_statement":
                target = target.child_by_field_name("declaration") or target
            elif target.type == "class_body":
                target = decorator.next_named_sibling
                while target is not None and target.type in ("decorator", "comment"):
                    target = target.next_named_sibling
            if target is not None:
                out.append((self._decorator_expr(decorator), target))
        return out

    def loop_binding(self, binding: Binding) -> tuple[TsNode, TsNode | None] | None:
        if binding.kind != "loop":
            return None
        return binding.node, binding.node.child_by_field_name("body")

    def settled_by(self, fn: TsNode) -> TsNode | None:
        """`p.then((v) => …)`, `p.then(function (v) {…})`: `v` is what `p` resolves to."""
        holder = fn.parent
        while holder is not None and holder.type == "parenthesized_expression":
            fn, holder = holder, holder.parent
        if holder is None or holder.type != "arguments" or holder.named_children[:1] != [fn]:
            return None
        call = holder.parent
        callee = call.child_by_field_name("function") if call is not None else None
        if callee is None or callee.type != "member_expression":
            return None
        prop = callee.child_by_field_name("property")
        return callee.child_by_field_name("object") if self.text(prop) == "then" else None
