"""What a JS / TS expression node reads as (`lang/expr.py`'s views): strings, templates,
members, calls, object entries and keys, and the name a callee ends in — the grammar's
expressions, kept apart from the file's scopes (js_scopes.py) and declarations (js.py).
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
    EThis,
    EUnknown,
    Expr,
)

FUNCTIONS = {
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
}

CLASSES = {"class_declaration", "class", "abstract_class_declaration"}

WRAPPERS = {
    "parenthesized_expression",
    "await_expression",
    "as_expression",
    "satisfies_expression",
    "non_null_expression",
    "type_assertion",
}

LOGICAL = {"||": "or", "&&": "and", "??": "??"}

CONSTANTS = {"true": True, "false": False, "null": None, "undefined": None}

ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def unescape(raw: str) -> str:
    return ESCAPES.get(raw[1:], raw[1:]) if raw.startswith("\\") and len(raw) == 2 else raw[1:]


def unwrapped(node: TsNode) -> TsNode:
    """The expression inside parentheses, `await`, `as` / `satisfies` / non-null wrappers and
    `<T>x` type assertions (whose expression comes after the type)."""
    while node.type in WRAPPERS:
        inner = [c for c in node.named_children if c.type != "comment"]
        if not inner:
            return node
        node = inner[-1] if node.type == "type_assertion" else inner[0]
    return node


def dotted(data: bytes, node: TsNode | None) -> str | None:
    """`a`, `a.b`, `a.b.c` for identifiers and plain member chains, else None (iterative:
    minified or generated code can chain thousands deep)."""
    if node is None:
        return None
    node = unwrapped(node)
    kind = node.type
    if kind == "identifier":  # the common case: a plain name
        return data[node.start_byte : node.end_byte].decode("utf-8", "replace")
    parts: list[str] = []
    while kind == "member_expression":
        prop = node.child_by_field_name("property")
        obj = node.child_by_field_name("object")
        if prop is None or prop.type != "property_identifier" or obj is None:
            return None
        parts.append(data[prop.start_byte : prop.end_byte].decode("utf-8", "replace"))
        node = unwrapped(obj)
        kind = node.type
    if kind != "identifier" and kind != "this":
        return None
    parts.append(data[node.start_byte : node.end_byte].decode("utf-8", "replace"))
    parts.reverse()
    return ".".join(parts)


class JsViews:
    """`JsFile`'s expression views."""

    def unwrap(self, node: TsNode) -> TsNode:
        return unwrapped(node)

    def read_view(self, node: TsNode) -> Expr:
        kind = node.type
        while kind in WRAPPERS:
            inner = [c for c in node.named_children if c.type != "comment"]
            if not inner:
                return EUnknown("empty")
            node = inner[-1] if kind == "type_assertion" else inner[0]
            kind = node.type
        if kind == "string":
            return EStr(self._string(node))
        if kind == "template_string":
            parts: list = []
            for child in node.named_children:
                if child.type == "string_fragment":
                    parts.append(self.text(child))
                elif child.type == "escape_sequence":
                    parts.append(unescape(self.text(child)))
                elif child.type == "template_substitution" and child.named_children:
                    parts.append(child.named_children[0])
            return ETemplate(parts)
        if kind in {"identifier", "shorthand_property_identifier", "property_identifier"}:
            name = self.text(node)
            return EConst(None) if name == "undefined" else EName(name)
        if kind == "number":
            raw = self.text(node)
            try:
                return EConst(int(raw) if raw.isdigit() else float(raw))
            except ValueError:
                return EConst(raw)
        if kind in CONSTANTS:
            return EConst(CONSTANTS[kind])
        if kind == "unary_expression" and self.text(node).startswith("-"):  # a negative number
            inner = self.view(node.child_by_field_name("argument"))
            if isinstance(inner, EConst) and isinstance(inner.value, (int, float)):
                return EConst(-inner.value)
            return EUnknown(kind)
        if kind in {"this", "super"}:
            return EThis()
        if kind == "meta_property":
            return EName("import.meta")
        if kind == "member_expression":
            obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
            if obj is None or prop is None:
                return EUnknown("member")
            return EMember(obj, self.text(prop))
        if kind == "subscript_expression":
            obj, index = node.child_by_field_name("object"), node.child_by_field_name("index")
            if obj is None or index is None:
                return EUnknown("subscript")
            return EIndex(obj, index)
        if kind in {"call_expression", "new_expression"}:
            return self._call(node)
        if kind == "binary_expression":
            op = self.text(node.child_by_field_name("operator"))
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None:
                return EUnknown("binary")
            if op in LOGICAL:
                return ELogical(LOGICAL[op], left, right)
            return EBinary(op, left, right)
        if kind == "ternary_expression":
            test, then = (
                node.child_by_field_name("condition"),
                node.child_by_field_name("consequence"),
            )
            other = node.child_by_field_name("alternative")
            if test is None or then is None or other is None:
                return EUnknown("ternary")
            return ECond(test, then, other)
        if kind == "object":
            return EObject(self._entries(node))
        if kind == "array":
            items, spreads = [], []
            for child in node.named_children:
                if child.type == "spread_element" and child.named_children:
                    spreads.append(child.named_children[0])
                elif child.type != "comment":
                    items.append(child)
            return EArray(items, spreads)
        if kind in FUNCTIONS:
            return EFunc(node)
        if kind in CLASSES:
            return EClass(node)
        if kind == "sequence_expression" and node.named_children:
            return self.view(node.named_children[-1])
        if kind == "assignment_expression" and (right := node.child_by_field_name("right")):
            return self.view(right)
        return EUnknown(kind)

    def _string(self, node: TsNode) -> str:
        out = []
        for child in node.named_children:
            if child.type == "string_fragment":
                out.append(self.text(child))
            elif child.type == "escape_sequence":
                out.append(unescape(self.text(child)))
        return "".join(out)

    def _call(self, node: TsNode) -> ECall | EUnknown:
        new = node.type == "new_expression"
        callee = node.child_by_field_name("constructor" if new else "function")
        if callee is None:
            return EUnknown("call")
        args_node = node.child_by_field_name("arguments")
        args, spread = [], False
        if args_node is not None and args_node.type == "arguments":
            for child in args_node.named_children:
                if child.type == "comment":
                    continue
                if child.type == "spread_element":
                    spread = True
                args.append(child)
        elif args_node is not None:  # a tagged template
            args.append(args_node)
        return ECall(callee, args, {}, new, spread)

    def _entries(self, node: TsNode) -> list[Entry]:
        entries = []
        for child in node.named_children:
            kind = child.type
            if kind == "pair":
                key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
                if key is not None and value is not None:
                    computed = (
                        key.named_children[0]
                        if key.type == "computed_property_name" and key.named_children
                        else None
                    )
                    entries.append(Entry(self._key(key), value, "prop", computed))
            elif kind == "shorthand_property_identifier":
                entries.append(Entry(self.text(child), child))
            elif kind == "method_definition":
                name = child.child_by_field_name("name")
                entries.append(Entry(self._key(name) if name else None, child, "method"))
            elif kind == "spread_element" and child.named_children:
                entries.append(Entry(None, child.named_children[0], "spread"))
        return entries

    def _key(self, key: TsNode) -> str | None:
        if key.type == "string":
            return self._string(key)
        if key.type == "computed_property_name":
            inner = key.named_children[0] if key.named_children else None
            return self._string(inner) if inner is not None and inner.type == "string" else None
        return self.text(key)

    def read_terminal(self, callee: TsNode) -> str | None:
        kind = callee.type
        while (kind in WRAPPERS or kind == "sequence_expression") and callee.named_children:
            # `(0, _api.get)(…)`, what compilers write for an imported function: the last
            # expression of a sequence is the one called
            callee = callee.named_children[-1 if kind == "sequence_expression" else 0]
            kind = callee.type
        if kind == "identifier":
            return self.text(callee)
        if kind == "member_expression":
            prop = callee.child_by_field_name("property")
            return self.text(prop) if prop is not None else None
        if kind == "subscript_expression":
            index = callee.child_by_field_name("index")
            return self._string(index) if index is not None and index.type == "string" else None
        return None
