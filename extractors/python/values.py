"""Where a Python name or attribute is bound, for type inference (`python.infer`): the
class an expression is an instance of (constructor calls, annotations, `Model.query...first()`,
`get_object_or_404(Model, ...)`), which `symbols` uses to resolve `repo.method(...)`. What a
value *is* (strings, env reads, settings) is the engine's evaluator's (extractors/engine/)."""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.python.infer import Types
from extractors.python.scope import Cls, Defs, enclosing_function, unwrap

__all__ = ["Cls", "Defs", "Values", "enclosing_function", "unwrap"]
_DEPTH = 8


class Values(Types):
    """Bindings over the symbol table (see the module docstring)."""

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
