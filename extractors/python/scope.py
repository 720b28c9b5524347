"""The per-module tables `python.values` evaluates over: top-level assignments, functions
and classes (`Defs`), and per-function locals and parameters (`Scope`)."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node as TsNode
from tree_sitter import QueryCursor

from extractors.python.model import PyIndex, PyModule, Resolver
from extractors.source import compiled_query

Cls = tuple[str, str]  # (rel, dotted class name)
_LOCALS = """
(assignment left: (identifier) @l right: (_) @r) @a
(named_expression name: (identifier) @l value: (_) @r) @a
[(function_definition) (class_definition) (lambda)] @d
"""


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


class Scope:
    def __init__(self, mods: dict[str, PyModule], resolver: Resolver) -> None:
        self.mods = mods
        self.resolver = resolver
        self._defs: dict[str, Defs] = {}
        self._locals: dict[int, dict[str, list[tuple[int, TsNode]]]] = {}
        self.receivers: dict[tuple[str, int, bytes], Cls | None] = {}  # symbols' call cache
        self._types: dict[tuple[str, int, str], Cls | None] = {}
        # rel -> its python.index.PyIndex (set by python.symbols): one walk per file
        self.index_of: Callable[[str], PyIndex] | None = None

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

    def locals_of(self, fn: TsNode, rel: str | None = None) -> dict[str, list[tuple[int, TsNode]]]:
        """name -> [(byte, value)] of the function's own assignments (nested defs skipped)."""
        found = self._locals.get(fn.id)
        if found is not None:
            return found
        found = {}
        body = fn.child_by_field_name("body")
        nested: list[tuple[int, int]] = []
        rows: list[tuple[int, str, TsNode]] = []
        for m in self._local_matches(rel, fn, body) if body else []:
            if "d" in m:
                nested.append((m["d"][0].start_byte, m["d"][0].end_byte))
            else:
                node = m["a"][0]
                rows.append((node.start_byte, m["l"][0].text.decode(), m["r"][0]))
        for start, name, value in sorted(rows, key=lambda r: r[0]):
            if not any(a <= start < b for a, b in nested):
                found.setdefault(name, []).append((start, value))
        self._locals[fn.id] = found
        return found

    def _local_matches(self, rel: str | None, fn: TsNode, body: TsNode) -> list:
        """The `_LOCALS` matches under `body`: sliced from the file's one query walk
        (`python.index`, part `locals`) when `fn` is a node of `rel`'s tree, else a query
        on `body` itself."""
        mod = self.mods.get(rel) if rel is not None and self.index_of is not None else None
        if mod is not None:
            same = mod.sf.tree.root_node.descendant_for_byte_range(fn.start_byte, fn.end_byte)
            if same is not None and same.id == fn.id:
                return self.index_of(rel).locals_in(body)
        return [m for _, m in QueryCursor(compiled_query("python", _LOCALS)).matches(body)]

    def local(self, fn: TsNode | None, name: str, before: int, rel: str | None = None):
        """The last `name = value` of `fn`'s own body before byte `before` (`rel`: the file
        of `fn`, so its matches come from the file's index)."""
        if fn is None:
            return None
        best = None
        for start, value in self.locals_of(fn, rel).get(name, []):
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
