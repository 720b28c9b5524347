"""Small static evaluation over a component's Python modules: string values and types.

Paths and prefixes are expressions, not literals: `prefix=settings.api_prefix` where
`settings = get_app_settings()` and `get_app_settings() -> AppSettings` whose field
`api_prefix: str = "/api"`; `f"{API_V1}/users"`; `BASE + "/x"`. `Values.string(rel, node)`
evaluates such an expression over the symbol table (module assignments, imports across
files, class attributes through base classes, function locals and parameter annotations,
return annotations); a part it cannot know stays symbolic (`{settings.api_prefix}`) and the
result says so (`Value.known`). `Values.type_of` gives the class an expression is an
instance of (constructor calls, annotations, `Model.query...first()`,
`get_object_or_404(Model, ...)`), which `symbols` uses to resolve `repo.method(...)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node as TsNode

from extractors.python.infer import Types
from extractors.python.scope import Cls, Defs, enclosing_function, unwrap

__all__ = ["Cls", "Defs", "Value", "Values", "enclosing_function", "unwrap"]
_DEPTH = 8


@dataclass
class Value:
    text: str
    known: bool


class Values(Types):
    """String evaluation over the symbol table (see the module docstring)."""

    def string(self, rel: str, node: TsNode | None, fn: TsNode | None = None) -> Value | None:
        """The string an expression evaluates to; None when it is not a string expression."""
        if node is None:
            return None
        if fn is None:
            fn = enclosing_function(node)
        return self._string(rel, node, fn, 0)

    def _string(self, rel: str, node: TsNode, fn: TsNode | None, depth: int) -> Value | None:
        if depth > _DEPTH:
            return None
        kind = node.type
        if kind == "string":
            parts, known = [], True
            for child in node.children:
                if child.type == "string_content":
                    parts.append(self.text(rel, child))
                elif child.type == "interpolation":
                    expr = child.named_children[0] if child.named_children else None
                    got = self._string(rel, expr, fn, depth + 1) if expr is not None else None
                    if got is None or not got.known:
                        parts.append("{" + self.text(rel, expr) + "}")
                        known = False
                    else:
                        parts.append(got.text)
                elif child.type == "escape_sequence":
                    parts.append(self.text(rel, child)[1:])
            return Value("".join(parts), known)
        if kind == "concatenated_string":
            return _join([self._string(rel, c, fn, depth + 1) for c in node.named_children])
        if kind == "parenthesized_expression" and node.named_children:
            return self._string(rel, node.named_children[0], fn, depth + 1)
        if (
            kind == "binary_operator"
            and self.text(rel, node.child_by_field_name("operator")) == "+"
        ):
            left = self._string(rel, node.child_by_field_name("left"), fn, depth + 1)
            right = self._string(rel, node.child_by_field_name("right"), fn, depth + 1)
            if left is None and right is None:
                return None
            return _join([left or self._unknown(rel, node.child_by_field_name("left")),
                          right or self._unknown(rel, node.child_by_field_name("right"))])  # fmt: skip
        if kind in {"identifier", "attribute"}:
            found = self.value_of(rel, node, fn, depth)
            if found is None:
                return None
            vrel, vnode, vfn = found
            return self._string(vrel, vnode, vfn, depth + 1)
        return None

    def _unknown(self, rel: str, node: TsNode | None) -> Value:
        return Value("{" + self.text(rel, node) + "}", False)

    def value_of(self, rel: str, node: TsNode, fn: TsNode | None, depth: int = 0):
        """(rel, value node, its function) a name or attribute is bound to, if known."""
        if depth > _DEPTH:
            return None
        if node.type == "identifier":
            name = self.text(rel, node)
            local = self.local(fn, name, node.start_byte, rel)
            if local is not None:
                return rel, local, fn
            if fn is not None and self.parameter(fn, name) is not None:
                default = self.parameter(fn, name)[1]
                return (
                    (rel, default, fn) if default is not None and default.type == "string" else None
                )
            defs = self.defs(rel)
            if name in defs.assigns:
                return rel, defs.assigns[name], None
            found = self.where(rel, name)
            if found and found[0] != rel and found[1] in self.defs(found[0]).assigns:
                return found[0], self.defs(found[0]).assigns[found[1]], None
            return None
        if node.type != "attribute":
            return None
        obj, attr = (
            node.child_by_field_name("object"),
            self.text(rel, node.child_by_field_name("attribute")),
        )
        dotted = self.text(rel, node)
        if obj.type in {"identifier", "attribute"} and (
            fn is None or self.local(fn, dotted.split(".")[0], node.start_byte, rel) is None
        ):
            found = self.where(rel, dotted)
            if found and found[0] != rel or (found and "." not in found[1]):
                target, name = found
                if name in self.defs(target).assigns:
                    return target, self.defs(target).assigns[name], None
        cls = self.type_of(rel, obj, fn, depth + 1)
        if cls is not None:
            return self.class_attr(cls, attr)
        return None


def _join(parts: list[Value | None]) -> Value | None:
    if any(p is None for p in parts):
        return None
    return Value("".join(p.text for p in parts), all(p.known for p in parts))
