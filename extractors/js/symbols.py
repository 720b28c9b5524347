"""JS-family symbols: one `symbol` node and DEFINES edge per top-level declaration.

Split from typescript.py (which walks the statements): functions, classes and their
methods (class fields holding a function too), methods of object-literal consts (also
Pinia-style nested `actions`), the members of a Vue Options-API component, and alias
symbols (`export const svc = { createTicket }`). Qualifier `<rel>#<dotted name>`.
"""

from __future__ import annotations

import re

from tree_sitter import Node as TsNode

from extractors.js.common import FUNCTION_TYPES, arguments, string_value, text, unwrap
from extractors.js.model import ModuleInfo
from extractors.source import SourceFile

CLASS_TYPES = {"class_declaration", "abstract_class_declaration", "class"}
NESTED_OBJECT_KEYS = {"actions", "methods", "getters", "computed", "handlers", "watch"}
FIELD_TYPES = {"public_field_definition", "field_definition"}
# `this.name` handed over, not called (`onClick={this.name}`, `.bind(this)` aside)
_THIS_REF = re.compile(rb"\bthis\.([A-Za-z_$][\w$]*)\b(?!\s*\()")


def add_symbol(
    ctx, mod: ModuleInfo, name: str, span: TsNode, at: TsNode, exported, kind, **extra
) -> str:
    node_id = ctx.add_node(
        "symbol", f"{mod.rel}#{name}", name, mod.rel, SourceFile.line(at),
        SourceFile.end_line(span), exported=exported, symbol_kind=kind, **extra,
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
            elif member.type in FIELD_TYPES:
                class_field(ctx, mod, name, member, exported)
        if body is not None:
            bound_handlers(ctx, mod, name, body)
    else:
        add_symbol(ctx, mod, name, decl, decl, exported, "function")
    return [name]


def class_field(ctx, mod: ModuleInfo, owner: str, member: TsNode, exported) -> None:
    """A class field holding a function (`handleAddTodo = async (e) => {…}`, React's bound
    event handlers): a method symbol of the class, so its calls are its own."""
    key = member.child_by_field_name("name") or member.child_by_field_name("property")
    value = unwrap(member.child_by_field_name("value"))
    if key is None or value is None or value.type not in FUNCTION_TYPES:
        return
    name = f"{owner}.{text(mod.sf, key)}"
    add_symbol(ctx, mod, name, member, member, exported, "method", field=True)


def bound_handlers(ctx, mod: ModuleInfo, owner: str, body: TsNode) -> None:
    """`onSubmit={this.handleAddTodo}`: a member the class hands over without calling it is
    called by the framework on the class's behalf — a CALLS_FN from the class, at the first
    line that binds it, so a trace from the class reaches what the handler does."""
    cls = mod.symbols.get(owner)
    data = mod.sf.data
    seen: set[str] = set()
    for found in _THIS_REF.finditer(data, body.start_byte, body.end_byte):
        member = mod.symbols.get(f"{owner}.{found.group(1).decode()}")
        if cls is None or member is None or member in seen:
            continue
        seen.add(member)
        line = data.count(b"\n", 0, found.start()) + 1
        ctx.add_edge(cls, member, "CALLS_FN", mod.rel, line, via="bound handler")
        mark_ui_handler(ctx, member)


def mark_ui_handler(ctx, node_id: str) -> None:
    """`ui_handler: true` on a symbol a component binds to an event (template, JSX): a name
    lookup ranks it with route handlers, before other functions of that name."""
    for node in reversed(ctx.facts.nodes):  # defined a moment ago, near the end
        if node.id == node_id:
            node.attrs["ui_handler"] = True
            return


def component_options(ctx, mod: ModuleInfo, options: TsNode) -> None:
    """A Vue Options-API component (`export default { methods: {…} }`, also inside
    `defineComponent({…})`): each member of `methods`, `computed`, `watch` … is a method
    symbol `<Component>.<name>` of the SFC's component, so a handler is a trace start."""
    owner = mod.owner_id.rsplit("#", 1)[-1]
    if options.type == "call_expression":
        found = [a for a in arguments(options) if a.type == "object"]
        if not found:
            return
        options = found[0]
    if options.type == "object" and owner:
        object_members(ctx, mod, owner, options, True, depth=1)


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
