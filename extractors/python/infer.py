"""Which class an expression is an instance of, and where a method of it is defined.

`Types.type_of(rel, node, fn)`: constructor calls, parameter and return annotations
(`Optional[User]`, `"User"`), locals, `Model.query...first()`, `Cls.objects.get()`,
`get_object_or_404(Model, ...)`, SQLAlchemy `relationship("Model")` attributes, a
classmethod factory returning `cls...`, and flask-login / flask-jwt-extended
`current_user` (the type the component's user loader returns). Bases follow aliases
(`Model = db.Model` with `db = SQLAlchemy(model_class=CRUDMixin)`).
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.python.aliases import import_aliases
from extractors.python.classes import Classes
from extractors.python.scope import Cls

_DEPTH = 8
_QUERY_ROW = {"first", "one", "one_or_none", "first_or_404", "get", "get_or_404", "scalar"}
_WRAPPERS = {"Optional", "Annotated", "Type", "type", "Union", "ClassVar", "Final"}


class Types(Classes):
    def current_user(self) -> Cls | None:
        """flask-login / flask-jwt-extended `current_user`: what the user loader returns
        (`jwt.user_loader_callback_loader(f)`, `@login_manager.user_loader`...)."""
        if "_current_user" in self.__dict__:
            return self.__dict__["_current_user"]
        self.__dict__["_current_user"] = None
        for rel, mod in self.mods.items():
            if b"user_loader" not in mod.sf.data and b"user_lookup_loader" not in mod.sf.data:
                continue
            for loader in _loaders(mod.sf.tree.root_node):
                fn = self._loader_function(rel, loader)
                if fn is not None:
                    self.__dict__["_current_user"] = self._returns(fn[0], fn[1])
                    return self.__dict__["_current_user"]
        return None

    def _spelled(self, rel: str, name: str) -> str:
        """A name as its library spells it (`current_user as viewer`: `current_user`;
        `get_object_or_404 as fetch_or_404`: `get_object_or_404`)."""
        if rel not in self.mods:
            return name
        found = self.__dict__.setdefault("_aliases", {})
        if rel not in found:
            found[rel] = import_aliases(self.mods[rel].sf)
        return found[rel].get(name, name).rsplit(".", 1)[-1]

    def _loader_function(self, rel: str, node: TsNode) -> tuple[str, TsNode] | None:
        if node.type == "function_definition":
            return rel, node
        return (
            self.function(rel, self.text(rel, node))
            if node.type in {"identifier", "attribute"}
            else None
        )

    def _returns(self, rel: str, fn: TsNode) -> Cls | None:
        ret = fn.child_by_field_name("return_type")
        if ret is not None:
            return self.annotation_class(rel, ret)
        body = fn.child_by_field_name("body")
        for stmt in body.named_children if body is not None else []:
            if stmt.type == "return_statement" and stmt.named_children:
                return self.type_of(rel, stmt.named_children[0], fn)
        return None

    def annotation_class(self, rel: str, node: TsNode | None) -> Cls | None:
        """The class an annotation names (`Optional[User]`, `"User"`, `Annotated[User, ...]`)."""
        while node is not None and node.type in {"type", "generic_type", "subscript"}:
            if node.type == "type":
                node = node.named_children[0] if node.named_children else None
            elif node.type == "generic_type":
                head = node.named_children[0] if node.named_children else None
                args = node.named_children[1] if node.named_child_count > 1 else None
                if head is None or self.text(rel, head) not in _WRAPPERS or args is None:
                    return None
                node = args.named_children[0] if args.named_children else None
            else:
                head = node.child_by_field_name("value")
                if self.text(rel, head).rsplit(".", 1)[-1] not in _WRAPPERS:
                    return None
                node = node.child_by_field_name("subscript")
        if node is None:
            return None
        if node.type == "string":
            raw = self.text(rel, node).strip("'\"")
            return self.class_named(rel, raw) if raw.replace(".", "").isidentifier() else None
        if node.type in {"identifier", "attribute"}:
            return self.class_named(rel, self.text(rel, node))
        return None

    def function(self, rel: str, dotted: str) -> tuple[str, TsNode] | None:
        found = self.where(rel, dotted)
        if found and found[1] in self.defs(found[0]).defs:
            return found[0], self.defs(found[0]).defs[found[1]]
        return None

    def type_of(
        self, rel: str, node: TsNode | None, fn: TsNode | None, depth: int = 0
    ) -> Cls | None:
        if node is None or depth > _DEPTH:
            return None
        key = (rel, node.id, "")
        if key in self._types:
            return self._types[key]
        self._types[key] = None  # cycle guard
        found = self._type_of(rel, node, fn, depth)
        self._types[key] = found
        return found

    def _module_name_type(self, rel: str, node: TsNode, name: str, depth: int) -> Cls | None:
        """Type of a module-level name of `rel` (a class, or an instance assigned there or in
        the module it is imported from); the same for every use, so computed once."""
        key = (rel, -1, name)
        if key in self._types:
            return self._types[key]
        self._types[key] = None
        mod, defs = self.mods[rel], self.defs(rel)
        local = name in defs.assigns or name in defs.classes or name in mod.bindings
        if not local and not any(k.startswith("*") for k in mod.bindings):
            return None  # a builtin or a package's name
        found = self.class_named(rel, name)
        if found is None:
            value = self.value_of(rel, node, None, depth + 1)
            found = self.type_of(value[0], value[1], None, depth + 1) if value else None
        self._types[key] = found
        return found

    def _type_of(self, rel: str, node: TsNode, fn: TsNode | None, depth: int) -> Cls | None:
        kind = node.type
        if kind == "identifier":
            name = self.text(rel, node)
            if name == "self" and fn is not None:
                return self._own_class(rel, fn)
            if (
                self._spelled(rel, name) == "current_user"
                and self.where(rel, name) == (rel, name)
                and name not in self.defs(rel).assigns
            ):
                return self.current_user()
            local = self.local(fn, name, node.start_byte, rel)
            if local is not None:
                return self.type_of(rel, local, fn, depth + 1)
            param = self.parameter(fn, name) if fn is not None else None
            if param is not None:
                return self.annotation_class(rel, param[0])
            return self._module_name_type(rel, node, name, depth)
        if kind == "attribute":
            cls = self.class_named(rel, self.text(rel, node))
            if cls:
                return cls
            found = self.value_of(rel, node, fn, depth + 1)
            if found:
                return self.type_of(found[0], found[1], found[2], depth + 1)
            owner = self.type_of(rel, node.child_by_field_name("object"), fn, depth + 1)
            attr = self.text(rel, node.child_by_field_name("attribute"))
            return self.backref(owner, attr) if owner is not None else None
        if kind == "parenthesized_expression" and node.named_children:
            return self.type_of(rel, node.named_children[0], fn, depth + 1)
        if kind == "await" and node.named_children:
            return self.type_of(rel, node.named_children[0], fn, depth + 1)
        if kind != "call":
            return None
        callee = node.child_by_field_name("function")
        if callee is None:
            return None
        if callee.type in {"identifier", "attribute"}:
            dotted = self.text(rel, callee)
            cls = self.class_named(rel, dotted)
            if cls:
                return cls
            spelled = self._spelled(rel, dotted) if callee.type == "identifier" else dotted
            if spelled.rsplit(".", 1)[-1] == "relationship":  # SQLAlchemy: relationship("Comment")
                args = node.child_by_field_name("arguments")
                first = args.named_children[0] if args is not None and args.named_children else None
                if first is not None and first.type in {"string", "identifier", "attribute"}:
                    return self.class_named(rel, self.text(rel, first).strip("'\""))
                return None
            if spelled.rsplit(".", 1)[-1] in {"get_object_or_404", "get_list_or_404"}:
                args = node.child_by_field_name("arguments")
                first = args.named_children[0] if args is not None and args.named_children else None
                return self.type_of(rel, first, fn, depth + 1) if first is not None else None
            func = self.function(rel, dotted)
            if func is not None:
                ret = func[1].child_by_field_name("return_type")
                return self.annotation_class(func[0], ret)
        if callee.type == "attribute":
            obj = callee.child_by_field_name("object")
            attr = self.text(rel, callee.child_by_field_name("attribute"))
            if attr in _QUERY_ROW:
                root = _query_root(obj)
                if root is not None:
                    return self.type_of(rel, root, fn, depth + 1)
            cls = self.type_of(rel, obj, fn, depth + 1)
            found = self.method_def(cls, attr) if cls is not None else None
            if found is not None:
                where, sym_def = found
                ret = sym_def.child_by_field_name("return_type")
                if ret is not None:
                    return self.annotation_class(where, ret)
                if _is_factory(self, where, sym_def):
                    return cls
        return None

    def _own_class(self, rel: str, fn: TsNode) -> Cls | None:
        cur = fn.parent
        while cur is not None and cur.type != "class_definition":
            if cur.type == "function_definition":
                return None
            cur = cur.parent
        if cur is None:
            return None
        name = self.text(rel, cur.child_by_field_name("name"))
        return (rel, name) if name in self.defs(rel).classes else None


_BUILDERS = {b"filter", b"filter_by", b"order_by", b"limit", b"offset", b"join", b"options",
             b"exclude", b"select_related", b"prefetch_related", b"where", b"distinct"}  # fmt: skip


def _query_root(obj: TsNode | None) -> TsNode | None:
    """`User` of `User.query.filter_by(...).first()` / `User.objects.filter(...).get()`, and
    `article.comments` of `article.comments.filter_by(...).first()` (a relationship)."""
    node = obj
    while node is not None:
        if node.type == "call":
            node = node.child_by_field_name("function")
        elif node.type == "attribute":
            attr = node.child_by_field_name("attribute")
            inner = node.child_by_field_name("object")
            if attr is not None and attr.text in {b"query", b"objects"}:
                return inner
            if attr is None or attr.text not in _BUILDERS:
                return node
            node = inner
        else:
            return node
    return None


def _is_factory(types: Types, rel: str, fn: TsNode) -> bool:
    """A classmethod returning `cls(...)` / `cls.query...`: an instance of the receiver."""
    parent = fn.parent
    decorated = parent is not None and parent.type == "decorated_definition"
    if not decorated or b"classmethod" not in parent.text.split(b"def ", 1)[0]:
        return False
    body = fn.child_by_field_name("body")
    stack = list(body.named_children) if body is not None else []
    while stack:
        node = stack.pop()
        if node.type == "return_statement" and node.named_children:
            return types.text(rel, node.named_children[0]).startswith("cls")
        if node.type not in {"function_definition", "class_definition"}:
            stack.extend(node.named_children)
    return False


_LOADERS = {b"user_loader_callback_loader", b"user_lookup_loader", b"user_loader"}


def _loaders(root: TsNode) -> list[TsNode]:
    """Functions registered as user loaders: `x.user_loader(f)` args and `@x.user_loader`."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "call":
            fn = node.child_by_field_name("function")
            attr = (
                fn.child_by_field_name("attribute")
                if fn is not None and fn.type == "attribute"
                else None
            )
            args = node.child_by_field_name("arguments")
            in_decorator = node.parent is not None and node.parent.type == "decorator"
            if attr is not None and attr.text in _LOADERS and args is not None and not in_decorator:
                out.extend(args.named_children[:1])
        if node.type == "decorated_definition":
            for dec in (c for c in node.children if c.type == "decorator"):
                if any(name in dec.text for name in _LOADERS):
                    out.append(node.child_by_field_name("definition"))
        stack.extend(node.named_children)
    return out
