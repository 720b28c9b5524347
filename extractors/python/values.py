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

from extractors.python.model import PyModule, Resolver

_DEPTH = 8
_QUERY_ROW = {"first", "one", "one_or_none", "first_or_404", "get", "get_or_404", "scalar"}
_WRAPPERS = {"Optional", "Annotated", "Type", "type", "Union", "ClassVar", "Final"}
Cls = tuple[str, str]  # (rel, dotted class name)


@dataclass
class Value:
    text: str
    known: bool


class Defs:
    """One module's top-level names: assignments (last wins), functions, classes."""

    __slots__ = ("assigns", "defs", "classes")

    def __init__(self, root: TsNode, sf_text) -> None:
        self.assigns: dict[str, TsNode] = {}
        self.defs: dict[str, TsNode] = {}  # dotted (Cls.method) -> function_definition
        self.classes: dict[str, TsNode] = {}  # name -> class_definition
        self._walk(root.named_children, sf_text)

    def _walk(self, stmts, sf_text) -> None:
        for stmt in stmts:
            node = (
                stmt.child_by_field_name("definition")
                if stmt.type == "decorated_definition"
                else stmt
            )
            if node is None:
                continue
            if node.type == "function_definition":
                self.defs[sf_text(node.child_by_field_name("name"))] = node
            elif node.type == "class_definition":
                name = sf_text(node.child_by_field_name("name"))
                self.classes[name] = node
                for member in _body(node):
                    inner = (
                        member.child_by_field_name("definition")
                        if member.type == "decorated_definition"
                        else member
                    )
                    if inner is not None and inner.type == "function_definition":
                        self.defs[f"{name}.{sf_text(inner.child_by_field_name('name'))}"] = inner
            elif node.type in {"expression_statement", "assignment"} and node.named_child_count:
                assign = node.named_children[0] if node.type == "expression_statement" else node
                left = assign.child_by_field_name("left") if assign.type == "assignment" else None
                right = assign.child_by_field_name("right") if left is not None else None
                if left is not None and left.type == "identifier" and right is not None:
                    self.assigns[sf_text(left)] = right
            elif node.type in {"if_statement", "try_statement", "with_statement"}:
                for child in node.named_children:
                    if child.type == "block":
                        self._walk(child.named_children, sf_text)
                    elif child.type in {
                        "else_clause",
                        "except_clause",
                        "finally_clause",
                        "elif_clause",
                    }:
                        for block in child.named_children:
                            if block.type == "block":
                                self._walk(block.named_children, sf_text)


def unwrap(stmt: TsNode) -> TsNode | None:
    """The statement's expression (grammars with and without `expression_statement`)."""
    if stmt.type == "expression_statement":
        return stmt.named_children[0] if stmt.named_children else None
    return stmt


def _body(cls: TsNode) -> list[TsNode]:
    body = cls.child_by_field_name("body")
    return body.named_children if body is not None else []


def enclosing_function(node: TsNode) -> TsNode | None:
    cur = node.parent
    while cur is not None:
        if cur.type in {"function_definition", "lambda"}:
            return cur if cur.type == "function_definition" else None
        cur = cur.parent
    return None


class Values:
    def __init__(self, mods: dict[str, PyModule], resolver: Resolver) -> None:
        self.mods = mods
        self.resolver = resolver
        self._defs: dict[str, Defs] = {}
        self._locals: dict[int, dict[str, list[tuple[int, TsNode]]]] = {}
        self._types: dict[tuple[str, int, str], Cls | None] = {}

    def text(self, rel: str, node: TsNode | None) -> str:
        return self.mods[rel].sf.node_text(node) if node is not None else ""

    def defs(self, rel: str) -> Defs:
        found = self._defs.get(rel)
        if found is None:
            sf = self.mods[rel].sf
            found = self._defs[rel] = Defs(sf.tree.root_node, sf.node_text)
        return found

    # ---- names -------------------------------------------------------------------------
    def where(self, rel: str, dotted: str) -> tuple[str, str] | None:
        """(rel, name) a dotted name used at module level of `rel` is defined as."""
        found = self.resolver.resolve(rel, dotted)
        if found is None or found[0] not in self.mods:
            return None
        return found

    def class_named(self, rel: str, dotted: str) -> Cls | None:
        found = self.where(rel, dotted)
        return found if found and found[1] in self.defs(found[0]).classes else None

    def locals_of(self, fn: TsNode) -> dict[str, list[tuple[int, TsNode]]]:
        """name -> [(byte, value)] of the function's own assignments (nested defs skipped)."""
        found = self._locals.get(fn.id)
        if found is not None:
            return found
        found = {}
        body = fn.child_by_field_name("body")
        stack = list(reversed(body.named_children)) if body is not None else []
        while stack:
            node = stack.pop()
            if node.type in {"function_definition", "class_definition", "lambda"}:
                continue
            if node.type == "assignment":
                left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
                if left is not None and left.type == "identifier" and right is not None:
                    found.setdefault(left.text.decode(), []).append((node.start_byte, right))
            elif node.type == "named_expression":
                name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
                if name is not None and value is not None:
                    found.setdefault(name.text.decode(), []).append((node.start_byte, value))
            stack.extend(reversed(node.named_children))
        self._locals[fn.id] = found
        return found

    def local(self, fn: TsNode | None, name: str, before: int) -> TsNode | None:
        if fn is None:
            return None
        best = None
        for start, value in self.locals_of(fn).get(name, []):
            if start < before:
                best = value
        return best

    def parameter(self, fn: TsNode | None, name: str) -> tuple[TsNode | None, TsNode | None] | None:
        """(annotation, default) of a parameter of `fn`, None when it has no such parameter."""
        params = fn.child_by_field_name("parameters") if fn is not None else None
        for p in params.named_children if params is not None else []:
            pname = p.child_by_field_name("name") if p.type != "identifier" else p
            if pname is None and p.named_children:
                pname = p.named_children[0]
            if pname is not None and pname.type == "identifier" and pname.text.decode() == name:
                return p.child_by_field_name("type"), p.child_by_field_name("value")
        return None

    # ---- strings -----------------------------------------------------------------------
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
            local = self.local(fn, name, node.start_byte)
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
            fn is None or self.local(fn, dotted.split(".")[0], node.start_byte) is None
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

    def bases(self, cls: Cls) -> list[Cls]:
        rel, name = cls
        node = self.defs(rel).classes.get(name)
        sup = node.child_by_field_name("superclasses") if node is not None else None
        out = []
        for b in sup.named_children if sup is not None else []:
            if b.type in {"identifier", "attribute"}:
                found = self.class_named(rel, self.text(rel, b))
                if found and found != cls:
                    out.append(found)
        return out

    def base_names(self, cls: Cls, depth: int = 0) -> list[str]:
        """Last segment of every base class name, through local bases (packages' names kept)."""
        rel, name = cls
        node = self.defs(rel).classes.get(name)
        sup = node.child_by_field_name("superclasses") if node is not None else None
        out = []
        for b in sup.named_children if sup is not None else []:
            if b.type in {"identifier", "attribute"}:
                out.append(self.text(rel, b).rsplit(".", 1)[-1])
                found = self.class_named(rel, self.text(rel, b))
                if found and found != cls and depth < _DEPTH:
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

    def _type_of(self, rel: str, node: TsNode, fn: TsNode | None, depth: int) -> Cls | None:
        kind = node.type
        if kind == "identifier":
            name = self.text(rel, node)
            if name == "self" and fn is not None:
                return self._own_class(rel, fn)
            local = self.local(fn, name, node.start_byte)
            if local is not None:
                return self.type_of(rel, local, fn, depth + 1)
            param = self.parameter(fn, name) if fn is not None else None
            if param is not None:
                return self.annotation_class(rel, param[0])
            cls = self.class_named(rel, name)
            if cls:
                return cls
            found = self.value_of(rel, node, None, depth + 1)
            return self.type_of(found[0], found[1], None, depth + 1) if found else None
        if kind == "attribute":
            cls = self.class_named(rel, self.text(rel, node))
            if cls:
                return cls
            found = self.value_of(rel, node, fn, depth + 1)
            return self.type_of(found[0], found[1], found[2], depth + 1) if found else None
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
            if dotted.rsplit(".", 1)[-1] in {"get_object_or_404", "get_list_or_404"}:
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
            if cls is not None:
                sym_def = self.defs(cls[0]).defs.get(f"{cls[1]}.{attr}")
                if sym_def is not None:
                    return self.annotation_class(cls[0], sym_def.child_by_field_name("return_type"))
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


def _query_root(obj: TsNode | None) -> TsNode | None:
    """`User` of `User.query.filter_by(...).first()` / `User.objects.filter(...).get()`."""
    node = obj
    while node is not None:
        if node.type == "call":
            node = node.child_by_field_name("function")
        elif node.type == "attribute":
            attr = node.child_by_field_name("attribute")
            inner = node.child_by_field_name("object")
            if attr is not None and attr.text in {b"query", b"objects"}:
                return inner
            node = inner
        else:
            return None
    return None


def _field_default(values: Values, rel: str, right: TsNode) -> TsNode:
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


def _join(parts: list[Value | None]) -> Value | None:
    if any(p is None for p in parts):
        return None
    return Value("".join(p.text for p in parts), all(p.known for p in parts))
