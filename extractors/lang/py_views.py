"""What a Python expression node reads as (`lang/expr.py`'s views): strings and f-strings,
attributes, subscripts, calls with their keywords and splats, dicts, lists and
conditionals, and the name a callee ends in — kept apart from the file's scopes
(py_scopes.py) and declarations (python.py).
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

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
    Entry,
    EObject,
    EStr,
    ETemplate,
    EUnknown,
    Expr,
)

CONSTANTS = {"true": True, "false": False, "none": None}

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


class PyViews:
    """`PyFile`'s expression views."""

    def unwrap(self, node: TsNode) -> TsNode:
        while node.type in {"parenthesized_expression", "await"} and node.named_children:
            node = node.named_children[0]
        return node

    def read_view(self, node: TsNode) -> Expr:
        kind = node.type
        while kind in {"parenthesized_expression", "await"} and node.named_children:
            node = node.named_children[0]
            kind = node.type
        if kind == "string":
            parts = self._string_parts(node)
            if all(isinstance(p, str) for p in parts):
                return EStr("".join(parts))  # type: ignore[arg-type]
            return ETemplate(parts)
        if kind == "concatenated_string":
            parts: list = []
            for child in node.named_children:
                if child.type == "string":
                    parts += self._string_parts(child)
            return ETemplate(parts)
        if kind == "integer":
            try:
                return EConst(int(self.text(node).replace("_", ""), 0))
            except ValueError:
                return EConst(self.text(node))
        if kind == "float":
            return EConst(self.text(node))
        if kind == "unary_operator" and self.text(node).startswith("-"):  # a negative number
            inner = self.view(node.child_by_field_name("argument"))
            if isinstance(inner, EConst) and isinstance(inner.value, int):
                return EConst(-inner.value)
        if kind in CONSTANTS:
            return EConst(CONSTANTS[kind])
        if kind == "identifier":
            return EName(self.text(node))
        if kind == "attribute":
            obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
            if obj is None or attr is None:
                return EUnknown("attribute")
            return EMember(obj, self.text(attr))
        if kind == "subscript":
            obj, index = node.child_by_field_name("value"), node.child_by_field_name("subscript")
            if obj is None or index is None:
                return EUnknown("subscript")
            return EIndex(obj, index)
        if kind == "call":
            return self._call(node)
        if kind == "binary_operator":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            op = self.text(node.child_by_field_name("operator"))
            if left is None or right is None:
                return EUnknown("binary")
            return EBinary(op, left, right)
        if kind == "comparison_operator" and len(node.named_children) == 2:
            left, right = node.named_children  # `host is None`, `a == b`
            ops = [node.children[i] for i in range(node.child_count)
                   if node.field_name_for_child(i) == "operators"]  # fmt: skip
            return EBinary(" ".join(self.text(o) for o in ops), left, right)
        if kind == "boolean_operator":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            op = self.text(node.child_by_field_name("operator"))
            if left is None or right is None:
                return EUnknown("boolean")
            return ELogical(op, left, right)
        if kind == "conditional_expression":
            parts = [c for c in node.named_children if c.type != "comment"]
            if len(parts) != 3:
                return EUnknown("conditional")
            return ECond(parts[1], parts[0], parts[2])
        if kind == "dictionary":
            entries = []
            for child in node.named_children:
                if child.type == "pair":
                    key, value = (
                        child.child_by_field_name("key"),
                        child.child_by_field_name("value"),
                    )
                    if key is not None and value is not None:
                        label = self.view(key)
                        entries.append(
                            Entry(label.value if isinstance(label, EStr) else None, value)
                        )
                elif child.type == "dictionary_splat" and child.named_children:
                    entries.append(Entry(None, child.named_children[0], "spread"))
            return EObject(entries)
        if kind in {"list", "tuple", "set", "expression_list"}:
            items, spreads = [], []
            for child in node.named_children:
                if child.type == "list_splat" and child.named_children:
                    spreads.append(child.named_children[0])
                elif child.type != "comment":
                    items.append(child)
            return EArray(items, spreads, bare=kind == "expression_list")
        if kind in ("lambda", "function_definition"):
            return EFunc(node)
        if kind == "class_definition":
            return EClass(node)
        if kind == "decorated_definition":
            inner = node.child_by_field_name("definition")
            return self.view(inner) if inner is not None else EUnknown(kind)
        return EUnknown(kind)

    def _string_parts(self, node: TsNode) -> list:
        start = next((c for c in node.children if c.type == "string_start"), None)
        prefix = self.text(start).lower() if start is not None else ""
        formatted = "f" in prefix.rstrip("'\"")
        out: list = []
        for child in node.named_children:
            if child.type == "string_content":
                out.append(self.text(child))
            elif child.type == "escape_sequence":
                raw = self.text(child)
                out.append(ESCAPES.get(raw[1:], raw[1:]) if len(raw) == 2 else raw)
            elif child.type == "interpolation" and formatted:
                inner = child.child_by_field_name("expression")
                if inner is not None:
                    out.append(inner)
        return out

    def _call(self, node: TsNode) -> ECall | EUnknown:
        callee = node.child_by_field_name("function")
        args_node = node.child_by_field_name("arguments")
        if callee is None:
            return EUnknown("call")
        args, kwargs, spread, kwspread = [], {}, False, []
        for child in args_node.named_children if args_node is not None else []:
            if child.type == "keyword_argument":
                name, value = child.child_by_field_name("name"), child.child_by_field_name("value")
                if name is not None and value is not None:
                    kwargs[self.text(name)] = value
            elif child.type == "list_splat":  # `*args`: expanded when the list is known
                spread = True
                args.append(child)
            elif child.type == "dictionary_splat" and child.named_children:
                spread = True  # `**kwargs`: keywords read from it when it is a known dict
                kwspread.append(child.named_children[0])
            elif child.type != "comment":
                args.append(child)
        return ECall(callee, args, kwargs, False, spread, kwspread)

    def read_terminal(self, callee: TsNode) -> str | None:
        if callee.type == "identifier":
            return self.text(callee)
        if callee.type == "attribute":
            attr = callee.child_by_field_name("attribute")
            return self.text(attr) if attr is not None else None
        return None
