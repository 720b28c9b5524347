"""What the JavaScript/TypeScript-family extractors share: the module tables and small
helpers over a file's nodes.

`typescript.py` fills one `ModuleInfo` per JS/TS/TSX/JSX file (and per Vue `<script>` block,
registered by `vue.py` as a virtual `SourceFile`) into `ctx.shared.js.modules`. What a name
stands for across imports and re-exports is the engine's (`engine/program.py`:
`declaration`, `exported_declaration`, values through `Evaluator.eval`). A file's calls,
functions and syntax errors come from its adapter (`lang/files.py`), the data classes
(`ModuleInfo`, `Binding`) from `model.py`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node as TsNode

from extractors.js.model import ModuleInfo
from extractors.lang.js_views import dotted, unwrapped

if TYPE_CHECKING:
    from extractors.base import ComponentContext
    from extractors.source import SourceFile

JS_LANGUAGES = ("typescript", "tsx", "javascript")
FUNCTION_TYPES = {"arrow_function", "function_expression", "function", "generator_function"}


def js_files(ctx: ComponentContext) -> list[SourceFile]:
    return sorted(ctx.by_language(*JS_LANGUAGES), key=lambda f: f.rel)


def modules(ctx: ComponentContext) -> dict[str, ModuleInfo]:
    return ctx.shared.js.modules


def text(sf: SourceFile, node: TsNode | None) -> str:
    return "" if node is None else sf.node_text(node)


def string_value(sf: SourceFile, node: TsNode | None) -> str | None:
    """The value of a string literal or a template string without substitutions."""
    if node is None:
        return None
    if node.type == "string":
        return "".join(sf.node_text(c) for c in node.named_children if c.type != "comment")
    if node.type == "template_string":
        if any(c.type == "template_substitution" for c in node.named_children):
            return None
        return sf.node_text(node)[1:-1]
    return None


def unwrap(node: TsNode | None) -> TsNode | None:
    """Strip parentheses, `await`, `as`/`satisfies`/non-null wrappers (lang/js_views.py)."""
    return unwrapped(node) if node is not None else None


def arguments(call: TsNode) -> list[TsNode]:
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "arguments":
        return []
    return [a for a in args.named_children if a.type != "comment"]


def object_props(sf: SourceFile, obj: TsNode) -> dict[str, TsNode]:
    """`{ key: value, short }` → {key: value node}; shorthand maps to the identifier."""
    out: dict[str, TsNode] = {}
    for child in obj.named_children:
        if child.type == "pair":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if key is not None and value is not None:
                name = string_value(sf, key) if key.type == "string" else sf.node_text(key)
                out[name or ""] = value
        elif child.type == "shorthand_property_identifier":
            out[sf.node_text(child)] = child
        elif child.type == "method_definition":
            name = child.child_by_field_name("name")
            if name is not None:
                out[sf.node_text(name)] = child
    return out


def dotted_name(sf: SourceFile, node: TsNode | None) -> str | None:
    """`a`, `a.b`, `a.b.c` for identifiers and plain member chains, else None."""
    return dotted(sf.data, node)


def owner_at(ctx: ComponentContext, rel: str, node: TsNode) -> str:
    """The symbol enclosing `node` (any language), else the file's code_file node.

    JS-family files use their byte-precise module ranges; other files (Python, from another
    extractor) use the innermost `symbol` node whose file/line/end_line span the line.
    A code_file node is created if no extractor made one for this file.
    """
    mod = modules(ctx).get(rel)
    if mod is not None:
        return mod.enclosing(node.start_byte)
    index, nodes = ctx.shared.symbols.lines, ctx.facts.nodes
    if index is None or index[0] != len(nodes):
        # nodes are only appended: index the new ones (all of them if the list shrank)
        done = 0 if index is None or index[0] > len(nodes) else index[0]
        by_file: dict[str, list[tuple[int, int, str]]] = index[1] if done else {}
        files: set[str] = index[2] if done else set()
        for n in nodes[done:] if done else nodes:
            if n.kind == "symbol" and n.file and n.line and not _content_type(n):
                by_file.setdefault(n.file, []).append((n.line, n.end_line or n.line, n.id))
            elif n.kind == "code_file" and n.file:
                files.add(n.file)
        index = (len(nodes), by_file, files)
        ctx.shared.symbols.lines = index
    line = node.start_point[0] + 1
    spans = [s for s in index[1].get(rel, []) if s[0] <= line <= s[1]]
    if spans:
        return min(spans, key=lambda s: (s[1] - s[0], -s[0]))[2]
    if rel not in index[2]:
        source = ctx.files.get(rel)
        language = source.language if source is not None else None
        ctx.add_node("code_file", rel, rel, rel, 1, language=language)
        index[2].add(rel)
        ctx.shared.symbols.lines = (len(ctx.facts.nodes), index[1], index[2])
    return ctx.node_id("code_file", rel)


def _content_type(node) -> bool:
    """A CMS content type (infra/contentful.py) is a symbol, but no code lives in it."""
    return node.attrs.get("symbol_kind") == "content_type"
