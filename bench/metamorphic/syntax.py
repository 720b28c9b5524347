"""Our own tree-sitter parse of a component's source files, and the node helpers the
families share (text, walks, fresh names, module kind, which identifiers bind a name).

A Vue single-file component is parsed as its `<script>` block alone, padded so byte
offsets are those of the whole file: edits made on the tree apply to the .vue file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from tree_sitter import Node, Parser, Tree
from tree_sitter_language_pack import get_parser

JS_LANGS = {"javascript", "typescript", "tsx"}
BY_SUFFIX = {
    ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".vue": "vue", ".py": "python",
}  # fmt: skip
_SCRIPT = re.compile(rb"<script\b([^>]*)>(.*?)</script>", re.S | re.I)
_WORD = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*")
NAME_TOKENS = {
    "identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern",
    "type_identifier",
}  # fmt: skip
# functions that do not inherit `this`/`arguments` from where they are written
FUNCTION_SCOPES = {
    "function_declaration", "function_expression", "function", "generator_function",
    "generator_function_declaration", "method_definition", "class_body",
}  # fmt: skip


@cache
def parser_for(language: str) -> Parser:
    return get_parser(language)  # type: ignore[arg-type]


def language_of(rel: str) -> str | None:
    dot = rel.rfind(".")
    return BY_SUFFIX.get(rel[dot:].lower()) if dot >= 0 else None


@dataclass
class Source:
    """One file of a component as the families see it."""

    rel: str
    data: bytes
    language: str | None  # the grammar the tree was parsed with (a .vue file: its script's)
    _tree: Tree | None = field(default=None, repr=False)
    _words: set[bytes] | None = field(default=None, repr=False)
    _names: dict[str, list[Node]] | None = field(default=None, repr=False)

    @property
    def tree(self) -> Tree:
        if self._tree is None:
            self._tree = parser_for(self.language or "javascript").parse(self.script_bytes())
        return self._tree

    @property
    def root(self) -> Node:
        return self.tree.root_node

    @property
    def is_vue(self) -> bool:
        return self.rel.lower().endswith(".vue")

    @property
    def is_js(self) -> bool:
        return self.language in JS_LANGS

    def script_bytes(self) -> bytes:
        """The file, or for .vue its script blocks with everything else blanked (newlines kept)."""
        if not self.is_vue:
            return self.data
        out = bytearray(re.sub(rb"[^\n]", b" ", self.data))
        for m in _SCRIPT.finditer(self.data):
            out[m.start(2) : m.end(2)] = m.group(2)
        return bytes(out)

    def outside_script(self) -> bytes:
        """A .vue file's template and style (what a script binding may be named from)."""
        return _SCRIPT.sub(b"", self.data) if self.is_vue else b""

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def line(self, node: Node | int) -> int:
        off = node if isinstance(node, int) else node.start_byte
        return self.data.count(b"\n", 0, off) + 1

    def words(self) -> set[bytes]:
        if self._words is None:
            self._words = set(_WORD.findall(self.data))
        return self._words

    def has_word(self, name: str) -> bool:
        return name.encode() in self.words()

    def name_tokens(self, name: str) -> list[Node]:
        """Identifier-like tokens spelling `name` (identifiers, shorthand properties and
        patterns, type identifiers), in document order; indexed once per file."""
        if self._names is None:
            index: dict[str, list[Node]] = {}
            for n in walk(self.root):
                if n.type in NAME_TOKENS:
                    index.setdefault(self.text(n), []).append(n)
            self._names = index
        return self._names.get(name, [])

    def has_errors(self) -> bool:
        return self.root.has_error


def vue_script_lang(data: bytes) -> str:
    m = _SCRIPT.search(data)
    attrs = m.group(1) if m else b""
    if re.search(rb"lang\s*=\s*[\"']tsx[\"']", attrs):
        return "tsx"
    return "typescript" if re.search(rb"lang\s*=\s*[\"']ts[\"']", attrs) else "javascript"


def load(rel: str, data: bytes) -> Source | None:
    lang = language_of(rel)
    if lang is None:
        return None
    if lang == "vue":
        if not _SCRIPT.search(data):
            return None
        lang = vue_script_lang(data)
    return Source(rel, data, lang)


def walk(node: Node) -> Iterator[Node]:
    """Every node below `node` (itself included), in document order."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def of_type(node: Node, *types: str) -> list[Node]:
    return [n for n in walk(node) if n.type in types]


def ancestors(node: Node) -> Iterator[Node]:
    n = node.parent
    while n is not None:
        yield n
        n = n.parent


def enclosing(node: Node, types: set[str] | tuple[str, ...]) -> Node | None:
    """The nearest ancestor of one of these types."""
    return next((a for a in ancestors(node) if a.type in types), None)


def fresh(src: Source, wanted: str, also_taken: set[str] = frozenset()) -> str | None:  # type: ignore[assignment]
    """`wanted`, or `wanted2`, `wanted3`…: the first that is no word of the file."""
    for i in range(1, 20):
        name = wanted if i == 1 else f"{wanted}{i}"
        if not src.has_word(name) and name not in also_taken:
            return name
    return None


def indent_of(src: Source, node: Node) -> str:
    start = src.data.rfind(b"\n", 0, node.start_byte) + 1
    prefix = src.data[start : node.start_byte]
    return prefix.decode() if not prefix.strip() else ""


# --- JavaScript / TypeScript -------------------------------------------------------------


def string_value(src: Source, node: Node) -> str | None:
    """The value of a plain string literal (or a template literal without substitutions)."""
    if node.type == "string":
        raw = src.text(node)[1:-1]
        return None if "\\" in raw else raw
    if node.type == "template_string" and not any(
        c.type == "template_substitution" for c in node.children
    ):
        raw = src.text(node)[1:-1]
        return None if "\\" in raw or "\n" in raw else raw
    return None


def module_kind(src: Source) -> str:
    """ "esm" (import/export statements, or TypeScript/Vue) or "cjs"."""
    if src.language in ("typescript", "tsx") or src.is_vue:
        return "esm"
    for child in src.root.children:
        if child.type in ("import_statement", "export_statement"):
            return "esm"
    return "cjs"


def uses_dynamic_scope(src: Source) -> bool:
    """eval / with: a file where no binding can be proven."""
    for n in walk(src.root):
        if n.type == "with_statement":
            return True
        if n.type == "call_expression":
            fn = n.child_by_field_name("function")
            if fn is not None and fn.type == "identifier" and src.text(fn) == "eval":
                return True
    return False


def lexical_this(src: Source, fn: Node) -> bool:
    """True when `fn`'s body (arrows included, nested functions excluded) uses this,
    arguments, super or new.target — what changes meaning when a function changes kind."""
    stack = list(fn.children)
    while stack:
        n = stack.pop()
        if n.type in FUNCTION_SCOPES:
            continue
        if n.type in ("this", "super", "meta_property"):
            return True
        if n.type == "identifier" and src.text(n) == "arguments":
            return True
        stack.extend(n.children)
    return False


BINDING_PARENTS = {
    "variable_declarator": "name", "function_declaration": "name", "class_declaration": "name",
    "function_expression": "name", "generator_function_declaration": "name", "class": "name",
    "import_specifier": None, "namespace_import": None, "import_clause": None,
    "catch_clause": "parameter", "required_parameter": "pattern",
    "optional_parameter": "pattern", "formal_parameters": None, "arrow_function": "parameter",
    "rest_pattern": None, "array_pattern": None, "assignment_pattern": "left",
    "object_assignment_pattern": "left", "pair_pattern": "value",
}  # fmt: skip


def is_js_binding(node: Node) -> bool:
    """Whether this identifier declares a name (rather than using one)."""
    if node.type == "shorthand_property_identifier_pattern":
        return True
    parent = node.parent
    if parent is None or node.type != "identifier":
        return False
    fieldname = BINDING_PARENTS.get(parent.type, "")
    if fieldname == "":
        return False
    if fieldname is None:
        return True
    return parent.child_by_field_name(fieldname) == node


def js_name_nodes(src: Source, name: str, with_types: bool = False) -> list[Node]:
    """Every token that binds or names `name` as a variable (not a property or a key)."""
    return [n for n in src.name_tokens(name) if with_types or n.type != "type_identifier"]


def single_const(src: Source, decl: Node) -> tuple[Node, Node] | None:
    """(name, value) of `const name = value` (one declarator, a plain identifier)."""
    if (
        decl.type != "lexical_declaration"
        or decl.named_child_count != 1
        or not src.text(decl).startswith("const")
    ):
        return None
    d = decl.named_children[0]
    name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
    if name is None or value is None or name.type != "identifier":
        return None
    return name, value


def js_import_locals(src: Source, stmt: Node) -> list[Node]:
    """The identifiers an import statement binds in this module (default, namespace, and
    each specifier's alias or name)."""
    out = []
    for n in walk(stmt):
        if n.type != "identifier" or n.parent is None:
            continue
        p = n.parent
        if p.type in ("import_clause", "namespace_import") or (
            p.type == "import_specifier"
            and (p.child_by_field_name("alias") or p.child_by_field_name("name")) == n
        ):
            out.append(n)
    return out


def top_level(src: Source) -> list[Node]:
    """Top-level statements, looking through `export` wrappers is left to the caller."""
    return list(src.root.named_children)


def top_declarator(node: Node) -> Node | None:
    """The top-level statement a declaration node belongs to, when it is top-level."""
    n: Node | None = node
    while n is not None and n.parent is not None and n.parent.type != "program":
        n = n.parent
    return n if n is not None and n.parent is not None else None


def statement_of(node: Node) -> Node:
    """The statement enclosing an expression node."""
    n = node
    while (
        n.parent is not None
        and not n.type.endswith("statement")
        and n.type != "lexical_declaration"
    ):
        n = n.parent
    return n


# --- Python -------------------------------------------------------------------------------


def py_name_nodes(src: Source, name: str) -> list[Node]:
    """Identifiers spelling `name` that are variables: not attribute names after a dot and not
    keyword-argument names."""
    out = []
    for n in src.name_tokens(name):
        if n.type != "identifier":
            continue
        p = n.parent
        if p is not None and p.type == "attribute" and p.child_by_field_name("attribute") == n:
            continue
        if p is not None and p.type == "keyword_argument" and p.child_by_field_name("name") == n:
            continue
        out.append(n)
    return out


def py_is_parameter(node: Node) -> bool:
    """Whether this identifier names a parameter (not a name used in an annotation or a
    default value)."""
    p = node.parent
    if p is None:
        return False
    if p.type in (
        "parameters",
        "lambda_parameters",
        "list_splat_pattern",
        "dictionary_splat_pattern",
    ):
        return True
    if p.type in ("typed_parameter", "default_parameter", "typed_default_parameter"):
        first = p.child_by_field_name("name") or (p.named_children[0] if p.named_children else None)
        return first == node
    return False


def py_in_class_body(node: Node) -> bool:
    """Directly in a class body (not inside a method)."""
    for a in ancestors(node):
        if a.type in ("function_definition", "lambda"):
            return False
        if a.type == "class_definition":
            return True
    return False


def py_expr(stmt: Node) -> Node | None:
    """The expression of an expression statement (this grammar inlines the wrapper: a
    module-level call or assignment is the statement node itself)."""
    if stmt.type == "expression_statement":
        return stmt.named_children[0] if stmt.named_children else None
    return (
        stmt
        if stmt.type in ("call", "assignment", "augmented_assignment", "string", "await")
        else None
    )


def py_import_end(src: Source) -> int:
    """Byte offset after the module docstring, `__future__` imports and the leading imports:
    where a new module-level statement can go."""
    pos = 0
    for child in src.root.named_children:
        expr = py_expr(child)
        if expr is not None and expr.type == "string" and pos == 0:
            pos = child.end_byte
            continue
        if child.type in ("import_statement", "import_from_statement", "future_import_statement"):
            pos = child.end_byte
            continue
        if child.type == "comment":
            continue
        break
    return pos
