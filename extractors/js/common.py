"""What the JavaScript/TypeScript-family extractors share: module tables and name resolution.

`typescript.py` fills one `ModuleInfo` per JS/TS/TSX/JSX file (and per Vue `<script>` block,
registered by `vue.py` as a virtual `SourceFile`) into `ctx.shared.js.modules`; express,
nextjs, firebase, infra/env and http/calls resolve names through the helpers here instead of
re-walking trees. Resolution is static and file-local plus imports: no type inference.
A file's calls, functions and syntax errors come from its adapter (`lang/files.py`), the
data classes (`ModuleInfo`, `Binding`) from `model.py`.
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


def resolve_export(
    ctx: ComponentContext, rel: str, name: str, depth: int = 0
) -> tuple[str, str] | None:
    """(rel, local name) that `name` exported from `rel` refers to, through re-exports."""
    mod = modules(ctx).get(rel)
    if mod is None or depth > 8:
        return None
    if name in mod.exports:
        local = mod.exports[name]
        binding = mod.imports.get(local)
        if binding is not None and binding.target and local not in mod.symbols:
            if binding.imported == "*" and binding.cjs:  # `module.exports = require(x)`
                return resolve_export(ctx, binding.target, "default", depth + 1)
            return resolve_export(ctx, binding.target, binding.imported, depth + 1)
        return rel, local
    if name in mod.reexports:
        target, imported = mod.reexports[name]
        return resolve_export(ctx, target, imported, depth + 1)
    for target in mod.star_reexports:
        found = resolve_export(ctx, target, name, depth + 1)
        if found is not None:
            return found
    whole = whole_module(ctx, rel)  # `module.exports = require('./m')`: m's members
    return resolve_export(ctx, whole, name, depth + 1) if whole != rel else None


def whole_module(ctx: ComponentContext, rel: str) -> str:
    """The module whose `module.exports` a module is: itself, or the one it re-exports
    whole (`module.exports = require('./m')`, an index in front of a module), followed."""
    for _ in range(8):
        mod = modules(ctx).get(rel)
        local = mod.exports.get("default") if mod is not None else None
        binding = mod.imports.get(local) if mod is not None and local else None
        if binding is None or not binding.target or binding.imported != "*" or not binding.cjs:
            break
        rel = binding.target
    return rel


def resolve_local(ctx: ComponentContext, rel: str, name: str) -> tuple[str, str] | None:
    """Where a name used in `rel` is defined: (rel, local) in this component, or None."""
    mod = modules(ctx).get(rel)
    if mod is None:
        return None
    binding = mod.imports.get(name)
    if binding is None:
        return (rel, name) if name in mod.symbols or name in mod.consts else None
    if binding.target is None:
        return None
    if binding.imported == "*":  # a namespace; a CommonJS require is module.exports itself
        return resolve_export(ctx, binding.target, "default") if binding.cjs else None
    return resolve_export(ctx, binding.target, binding.imported)


def resolve_namespace(ctx: ComponentContext, rel: str, name: str, depth: int = 0) -> str | None:
    """The module (rel) a local name is the namespace of: `import * as ns`, a CommonJS
    `require` of a module exporting an object, or such a name re-exported through an index
    (`module.exports.userService = require('./user.service')`)."""
    mod = modules(ctx).get(rel)
    binding = mod.imports.get(name) if mod is not None else None
    if binding is None or not binding.target or depth > 8:
        return None
    if binding.imported == "*":
        return whole_module(ctx, binding.target)
    return _exported_namespace(ctx, binding.target, binding.imported, depth + 1)


def _exported_namespace(ctx: ComponentContext, rel: str, name: str, depth: int) -> str | None:
    rel = whole_module(ctx, rel)
    mod = modules(ctx).get(rel)
    if mod is None or depth > 8:
        return None
    if name in mod.exports:
        local = mod.exports[name]
        return None if local in mod.symbols else resolve_namespace(ctx, rel, local, depth)
    if name in mod.reexports:
        target, imported = mod.reexports[name]
        return _exported_namespace(ctx, target, imported, depth + 1)
    return None


def lookup_symbol(ctx: ComponentContext, rel: str, dotted: str) -> str | None:
    """Symbol node id for `name` or `obj.member` as written in `rel`, across imports."""
    mod = modules(ctx).get(rel)
    if mod is None:
        return None
    head, _, member = dotted.partition(".")
    if not member:
        if head in mod.symbols and head not in mod.imports:
            return mod.symbols[head]
        found = resolve_local(ctx, rel, head)
        return symbol_in(ctx, *found) if found else None
    binding = mod.imports.get(head)
    if binding is not None and binding.imported == "*" and binding.target:
        first, _, rest = member.partition(".")  # `ns.service.verify`: service's member
        found = resolve_export(ctx, binding.target, first)
        if found is not None or not binding.cjs:
            dotted_in = (found[0], f"{found[1]}.{rest}" if rest else found[1]) if found else None
            return symbol_in(ctx, *dotted_in) if dotted_in else None
    found = resolve_local(ctx, rel, head)
    if found is None:
        namespace = resolve_namespace(ctx, rel, head)
        found = resolve_export(ctx, namespace, member) if namespace else None
        return symbol_in(ctx, *found) if found else None
    return symbol_in(ctx, found[0], f"{found[1]}.{member}")


def symbol_in(ctx: ComponentContext, rel: str, name: str) -> str | None:
    mod = modules(ctx).get(rel)
    if mod is None:
        return None
    if name in mod.symbols:
        return mod.symbols[name]
    if name in mod.aliases:
        return symbol_in(ctx, rel, mod.aliases[name]) or lookup_symbol(ctx, rel, mod.aliases[name])
    return None


def resolve_const(ctx: ComponentContext, rel: str, name: str) -> tuple[SourceFile, TsNode] | None:
    """The initializer of a top-level const `name` visible in `rel` (local or imported)."""
    found = resolve_local(ctx, rel, name)
    if found is None:
        return None
    mod = modules(ctx).get(found[0])
    if mod is None or found[1] not in mod.consts:
        return None
    return mod.sf, mod.consts[found[1]]


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
