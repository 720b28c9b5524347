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
from extractors.lang.files import js_adapter_of
from extractors.source import SourceFile

CLASS_TYPES = {"class_declaration", "abstract_class_declaration", "class"}
NESTED_OBJECT_KEYS = {"actions", "methods", "getters", "computed", "handlers", "watch"}
FIELD_TYPES = {"public_field_definition", "field_definition"}
_HOOKS = {"useCallback", "React.useCallback"}
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
        inner_handlers(ctx, mod, name, decl)
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
    node_attrs(ctx, node_id)["ui_handler"] = True


def node_attrs(ctx, node_id: str) -> dict:
    """The attrs of a node added a moment ago (searched from the end); {} when not found."""
    for node in reversed(ctx.facts.nodes):
        if node.id == node_id:
            return node.attrs
    return {}


def inner_handlers(ctx, mod: ModuleInfo, owner: str, fn: TsNode) -> None:
    """A function component's own handlers (`const handleAdd = async (e) => {…}` or
    `function handleAdd() {…}` in its body, also inside `useCallback`) that its JSX binds
    (`onSubmit={handleAdd}`, `onClick={() => handleAdd()}`): named on the component as
    `handlers: {name: line}`, so the name is a trace start. Their calls stay the
    component's (a nested function belongs to its enclosing symbol)."""
    body = fn.child_by_field_name("body")
    if body is None or body.type != "statement_block":
        return
    if b"<" not in mod.sf.data[body.start_byte : body.end_byte]:
        return  # no JSX in it
    bound = _jsx_names(mod.sf, body)
    found = {
        name: span.start_point[0] + 1
        for stmt in (body.named_children if bound else [])
        for name, span in _local_functions(mod.sf, stmt)
        if name in bound
    }
    if found and owner in mod.symbols:
        node_attrs(ctx, mod.symbols[owner])["handlers"] = found


def _local_functions(sf, stmt: TsNode) -> list[tuple[str, TsNode]]:
    """(name, node) of the functions one statement of a body declares."""
    if stmt.type == "function_declaration" and stmt.child_by_field_name("name") is not None:
        return [(text(sf, stmt.child_by_field_name("name")), stmt)]
    if stmt.type not in {"lexical_declaration", "variable_declaration"}:
        return []
    out = []
    for declarator in stmt.named_children:
        target = declarator.child_by_field_name("name")
        value = unwrap(declarator.child_by_field_name("value"))
        if (
            value is not None
            and value.type == "call_expression"
            and text(sf, value.child_by_field_name("function")) in _HOOKS
        ):
            value = unwrap((arguments(value) or [None])[0])  # useCallback(fn, deps)
        if (
            target is not None
            and target.type == "identifier"
            and value is not None
            and value.type in FUNCTION_TYPES
        ):
            out.append((text(sf, target), declarator))
    return out


def _jsx_names(sf, body: TsNode) -> set[str]:
    """Identifiers written inside the body's JSX expressions (`{handleAdd}`, `{() => x()}`)."""
    names: set[str] = set()
    todo: list[tuple[TsNode, bool]] = [(body, False)]
    while todo:
        node, in_jsx = todo.pop()
        in_jsx = in_jsx or node.type == "jsx_expression"
        if in_jsx and node.type == "identifier":
            names.add(text(sf, node))
        todo.extend((c, in_jsx) for c in node.named_children)
    return names


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
            elif _named_function_ref(value) and depth == 0:  # `verify` or `impl.verify`
                mod.aliases[f"{owner}.{key_text}"] = text(sf, value)
                mod.alias_nodes[f"{owner}.{key_text}"] = child
            elif value.type == "object" and depth == 1 and key_text in NESTED_OBJECT_KEYS:
                object_members(ctx, mod, owner, value, exported, depth=2)
        elif child.type == "shorthand_property_identifier" and depth == 0:
            mod.aliases[f"{owner}.{text(sf, child)}"] = text(sf, child)
            mod.alias_nodes[f"{owner}.{text(sf, child)}"] = child


def _named_function_ref(value: TsNode) -> bool:
    """A property value that names a function: `create` or a dotted path to one
    (`impl.create`); `alias_symbols` keeps it when the name is a symbol of the module."""
    while value.type == "member_expression":
        if value.child_by_field_name("property").type != "property_identifier":
            return False
        value = value.child_by_field_name("object")
    return value.type == "identifier"


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


_CALLBACK_METHODS = {"map", "filter", "forEach", "then", "catch", "finally", "reduce", "some"}
_CALLBACK_METHODS |= {"every", "find", "sort", "flatMap", "findIndex", "replace"}


def anonymous_handlers(ctx, mod: ModuleInfo) -> None:
    """Functions passed to a module-level call (route handlers, lifecycle hooks) get a symbol."""
    sf = mod.sf
    if sf.virtual_of is not None:
        return  # Vue: hooks like onMounted(() => ...) belong to the component
    mod.seal()
    last_end = -1
    for fn in js_adapter_of(ctx, sf).lambdas():
        if fn.start_byte < last_end or fn.parent is None or fn.parent.type != "arguments":
            continue
        if mod.enclosing(fn.start_byte) != mod.owner_id:
            continue
        callee = fn.parent.parent.child_by_field_name("function") if fn.parent.parent else None
        prop = (
            callee.child_by_field_name("property")
            if callee is not None and callee.type == "member_expression"
            else None
        )
        if prop is not None and text(sf, prop) in _CALLBACK_METHODS:
            continue
        line, col = fn.start_point[0] + 1, fn.start_point[1] + 1
        node_id = ctx.add_node(
            "symbol", f"{mod.rel}#<anonymous>@{line}:{col}", "<anonymous>", mod.rel, line,
            SourceFile.end_line(fn), exported=False, symbol_kind="anonymous",
        )  # fmt: skip
        ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, line)
        mod.anonymous[fn.start_byte] = node_id
        mod.add_range(fn.start_byte, fn.end_byte, node_id)
        last_end = fn.end_byte
