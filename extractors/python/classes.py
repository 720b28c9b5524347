"""Classes of the component: attributes and field defaults, bases (through aliases such as
`Model = db.Model` with `db = SQLAlchemy(model_class=CRUDMixin)`), and where a method is
defined (the class or its first base defining it)."""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.python.scope import Cls, Scope, _body, unwrap

_DEPTH = 8


class Classes(Scope):
    def class_attr(self, cls: Cls, attr: str, depth: int = 0):
        """(rel, value node, None) of a class attribute or field default, through bases."""
        if depth > _DEPTH:
            return None
        rel, name = cls
        node = self.defs(rel).classes.get(name)
        if node is None:
            return None
        for stmt in _body(node):
            expr = unwrap(stmt)
            if expr is not None and expr.type == "assignment":
                left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
                if left is not None and self.text(rel, left) == attr and right is not None:
                    return rel, _field_default(self, rel, right), None
        for base in self.bases(cls):
            found = self.class_attr(base, attr, depth + 1)
            if found:
                return found
        return None

    def _superclasses(self, cls: Cls) -> list[tuple[TsNode, Cls | None]]:
        """(base expression, the component's class it names or None) per base of `cls`."""
        rel, name = cls
        node = self.defs(rel).classes.get(name)
        sup = node.child_by_field_name("superclasses") if node is not None else None
        out = []
        for b in sup.named_children if sup is not None else []:
            if b.type in {"identifier", "attribute"}:
                found = self.class_named(rel, self.text(rel, b)) or self._base_alias(rel, b)
                out.append((b, found if found != cls else None))
        return out

    def bases(self, cls: Cls) -> list[Cls]:
        return [found for _, found in self._superclasses(cls) if found]

    def _base_alias(self, rel: str, node: TsNode, depth: int = 0) -> Cls | None:
        """A base named through an alias: `Model = db.Model`, `db = SQLAlchemy(model_class=C)`."""
        found = self.value_of(rel, node, None) if depth < 4 else None
        if found is None:
            return None
        vrel, value, _ = found
        if value.type in {"identifier", "attribute"}:
            named = self.class_named(vrel, self.text(vrel, value))
            if named:
                return named
            if (
                value.type == "attribute"
                and self.text(vrel, value.child_by_field_name("attribute")) == "Model"
            ):
                owner = self.value_of(vrel, value.child_by_field_name("object"), None)
                if owner is not None and owner[1].type == "call":
                    for arg in owner[1].child_by_field_name("arguments").named_children:
                        if (
                            arg.type == "keyword_argument"
                            and self.text(owner[0], arg.child_by_field_name("name"))
                            == "model_class"
                        ):
                            return self.class_named(
                                owner[0], self.text(owner[0], arg.child_by_field_name("value"))
                            )
            return self._base_alias(vrel, value, depth + 1)
        return None

    def base_names(self, cls: Cls, depth: int = 0) -> list[str]:
        """Last segment of every base class name, through local bases (packages' names kept)."""
        out = []
        for node, found in self._superclasses(cls):
            out.append(self.text(cls[0], node).rsplit(".", 1)[-1])
            if found and depth < _DEPTH:
                out.extend(self.base_names(found, depth + 1))
        return out

    def method(self, cls: Cls, name: str, depth: int = 0) -> str | None:
        """Symbol id of `name` on the class or its first base that defines it."""
        rel, cname = cls
        sym = self.mods[rel].symbols.get(f"{cname}.{name}")
        if sym is not None or depth > _DEPTH:
            return sym
        for base in self.bases(cls):
            sym = self.method(base, name, depth + 1)
            if sym:
                return sym
        return None

    # ---- types -------------------------------------------------------------------------
    def method_def(self, cls: Cls, name: str, depth: int = 0) -> tuple[str, TsNode] | None:
        """(rel, function_definition) of a method on the class or its first base defining it."""
        found = self.defs(cls[0]).defs.get(f"{cls[1]}.{name}")
        if found is not None or depth > _DEPTH:
            return (cls[0], found) if found is not None else None
        for base in self.bases(cls):
            hit = self.method_def(base, name, depth + 1)
            if hit:
                return hit
        return None

    def backref(self, cls: Cls, attr: str) -> Cls | None:
        """SQLAlchemy: the class whose `relationship("Cls", backref="attr")` (or
        `backref=backref("attr", ...)`) gives `cls` the attribute `attr`."""
        index = self.__dict__.get("_backrefs")
        if index is None:
            index = self.__dict__["_backrefs"] = _backrefs(self)
        return index.get((cls[1], attr))


def _backrefs(values: Classes) -> dict[tuple[str, str], Cls]:
    """(target class name, backref name) → the class that declares the relationship."""
    out: dict[tuple[str, str], Cls] = {}
    for rel, mod in values.mods.items():
        if b"backref" not in mod.sf.data:
            continue
        for name, node in values.defs(rel).classes.items():
            for stmt in _body(node):
                expr = unwrap(stmt)
                right = (
                    expr.child_by_field_name("right")
                    if expr is not None and expr.type == "assignment"
                    else None
                )
                if right is None or right.type != "call":
                    continue
                if (
                    values.text(rel, right.child_by_field_name("function")).rsplit(".", 1)[-1]
                    != "relationship"
                ):
                    continue
                args = right.child_by_field_name("arguments").named_children
                target = values.text(rel, args[0]).strip("'\"") if args else ""
                for arg in args:
                    if (
                        arg.type != "keyword_argument"
                        or values.text(rel, arg.child_by_field_name("name")) != "backref"
                    ):
                        continue
                    value = arg.child_by_field_name("value")
                    if value.type == "call":
                        inner = value.child_by_field_name("arguments").named_children
                        value = inner[0] if inner else value
                    if value.type == "string" and target:
                        out[(target.rsplit(".", 1)[-1], values.text(rel, value).strip("'\""))] = (
                            rel,
                            name,
                        )
    return out


def _field_default(values: Classes, rel: str, right: TsNode) -> TsNode:
    """`Field("/api", ...)` / `Field(default="/api")` → the default's node."""
    if (
        right.type == "call"
        and values.text(rel, right.child_by_field_name("function")).rsplit(".", 1)[-1] == "Field"
    ):
        args = right.child_by_field_name("arguments")
        for arg in args.named_children if args is not None else []:
            if (
                arg.type == "keyword_argument"
                and values.text(rel, arg.child_by_field_name("name")) == "default"
            ):
                return arg.child_by_field_name("value")
            if arg.type != "keyword_argument":
                return arg
    return right
