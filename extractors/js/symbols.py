"""JS-family symbols: one `symbol` node and DEFINES edge per top-level declaration.

Split from typescript.py (which walks the statements): functions, classes and their
methods, methods of object-literal consts (also Pinia-style nested `actions`), and alias
symbols (`export const svc = { createTicket }`). Qualifier `<rel>#<dotted name>`.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.js.common import FUNCTION_TYPES, string_value, text, unwrap
from extractors.js.model import ModuleInfo
from extractors.source import SourceFile

CLASS_TYPES = {"class_declaration", "abstract_class_declaration", "class"}
NESTED_OBJECT_KEYS = {"actions", "methods", "getters", "computed", "handlers"}


def add_symbol(ctx, mod: ModuleInfo, name: str, span: TsNode, at: TsNode, exported, kind) -> str:
    node_id = ctx.add_node(
        "symbol", f"{mod.rel}#{name}", name, mod.rel, SourceFile.line(at),
        SourceFile.end_line(span), exported=exported, symbol_kind=kind,
    )  # fmt: skip
    ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, SourceFile.line(at))
    mod.symbols[name] = node_id
    mod.add_range(span.start_byte, span.end_byte, node_id)
    return node_id


def declaration(ctx, mod: ModuleInfo, decl: TsNode, exported: bool) -> list[str]:
    name_node = decl.child_by_field_name("name")
    if name_node is None:
        return []
    name = text(mod.sf, name_node)
    if decl.type not in CLASS_TYPES and "function" not in decl.type:
        return [name]  # types, interfaces, enums: exported names, not symbols
    if decl.type in CLASS_TYPES:
        add_symbol(ctx, mod, name, decl, decl, exported, "class")
        body = decl.child_by_field_name("body")
        for member in body.named_children if body else []:
            method = member.child_by_field_name("name")
            if member.type == "method_definition" and method is not None:
                add_symbol(
                    ctx, mod, f"{name}.{text(mod.sf, method)}", member, member, exported, "method"
                )
    else:
        add_symbol(ctx, mod, name, decl, decl, exported, "function")
    return [name]


def object_members(ctx, mod: ModuleInfo, owner: str, obj: TsNode, exported, depth: int):
    sf = mod.sf
    for child in obj.named_children:
        if child.type == "method_definition":
            key = child.child_by_field_name("name")
            if key is not None and depth in (0, 2):
                add_symbol(ctx, mod, f"{owner}.{text(sf, key)}", child, child, exported, "method")
        elif child.type == "pair":
            key = child.child_by_field_name("key")
            value = unwrap(child.child_by_field_name("value"))
            if key is None or value is None:
                continue
            key_text = string_value(sf, key) if key.type == "string" else text(sf, key)
            if value.type in FUNCTION_TYPES and depth in (0, 2):
                add_symbol(ctx, mod, f"{owner}.{key_text}", child, child, exported, "method")
            elif value.type == "identifier" and depth == 0:
                mod.aliases[f"{owner}.{key_text}"] = text(sf, value)
                mod.alias_nodes[f"{owner}.{key_text}"] = child
            elif value.type == "object" and depth == 1 and key_text in NESTED_OBJECT_KEYS:
                object_members(ctx, mod, owner, value, exported, depth=2)
        elif child.type == "shorthand_property_identifier" and depth == 0:
            mod.aliases[f"{owner}.{text(sf, child)}"] = text(sf, child)
            mod.alias_nodes[f"{owner}.{text(sf, child)}"] = child


def alias_symbols(ctx, mod: ModuleInfo) -> None:
    """`export const svc = { createTicket }`: a symbol `svc.createTicket` that CALLS_FN the
    local function, so callers read `svc.createTicket` as written and the hop stays visible."""
    for name, local in sorted(mod.aliases.items()):
        target = mod.symbols.get(local)
        prop = mod.alias_nodes.get(name)
        if target is None or local in mod.imports or prop is None or name in mod.symbols:
            continue
        line = SourceFile.line(prop)
        node_id = ctx.add_node(
            "symbol", f"{mod.rel}#{name}", name, mod.rel, line, SourceFile.end_line(prop),
            exported=True, symbol_kind="alias", target=target,
        )  # fmt: skip
        ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, line)
        ctx.add_edge(node_id, target, "CALLS_FN", mod.rel, line, via="alias")
        mod.symbols[name] = node_id
