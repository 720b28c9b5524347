"""Small static evaluation of JS expressions over a component's module tables.

Route prefixes and mount targets are expressions, not literals: a const imported from
another file, a template literal over constants, `path.join`, a property of a config
object, or the loop variable of `[{ path, route }].forEach(r => router.use(r.path, r.route))`.
`value_of` follows a name or property access to the expression it stands for (through loop
bindings, function-local declarations, module consts and imports); `string_of` turns an
expression into text, keeping what it cannot know as a `{placeholder}`;
`loop_bindings` gives one binding set per element of the arrays an expression is looped over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tree_sitter import Node as TsNode

from extractors.js.common import (
    FUNCTION_TYPES,
    arguments,
    dotted_name,
    modules,
    object_props,
    resolve_const,
    string_value,
    text,
    unwrap,
)
from extractors.js.index import local_value
from extractors.js.model import ModuleInfo

if TYPE_CHECKING:
    from extractors.base import ComponentContext

MAX_DEPTH = 12
MAX_BINDINGS = 64
_LOOP_METHODS = {"forEach", "map"}
_JOINS = {"path.join", "path.posix.join", "posix.join", "join", "path.resolve", "url.resolve"}


@dataclass(frozen=True)
class Value:
    """An expression in a module, or a literal produced by evaluation (`Object.entries` keys)."""

    mod: ModuleInfo
    node: TsNode | None
    literal: str | None = None


Env = dict[str, Value]


def value_of(
    ctx: ComponentContext, mod: ModuleInfo, node: TsNode | None, env: Env | None = None, depth=0
) -> Value | None:
    """The expression a name or `a.b.c` access denotes, followed as far as it is static."""
    node = unwrap(node)
    if node is None or depth > MAX_DEPTH:
        return None
    sf = mod.sf
    if node.type in {"identifier", "shorthand_property_identifier"}:
        name = text(sf, node)
        if env and name in env:
            found = env[name]
            if found.literal is not None or found.node is None:
                return found
            return value_of(ctx, found.mod, found.node, None, depth + 1) or found
        local = local_value(ctx, sf, node, name)
        if local is not None:
            return value_of(ctx, mod, local, env, depth + 1) or Value(mod, unwrap(local))
        const = resolve_const(ctx, mod.rel, name)
        if const is not None:
            owner = modules(ctx).get(const[0].rel)
            if owner is not None:
                return value_of(ctx, owner, const[1], None, depth + 1) or Value(owner, const[1])
        return Value(mod, node)
    if node.type == "member_expression":
        prop = node.child_by_field_name("property")
        base = value_of(ctx, mod, node.child_by_field_name("object"), env, depth + 1)
        if base is None or base.node is None or prop is None:
            return Value(mod, node)
        if base.node.type == "object":
            member = object_props(base.mod.sf, base.node).get(text(sf, prop))
            if member is not None:
                return value_of(ctx, base.mod, member, None, depth + 1) or Value(base.mod, member)
        return Value(mod, node)
    return Value(mod, node)


def string_of(
    ctx: ComponentContext, mod: ModuleInfo, node: TsNode | None, env: Env | None = None, depth=0
) -> tuple[str | None, list[str]]:
    """(text, unknowns): string literals, template literals, `+` concatenation, path joins,
    names and properties that lead to one of those. An unknown part inside a composed
    string becomes `{its source}` and is listed; a wholly unknown expression gives None."""
    node = unwrap(node)
    if node is None or depth > MAX_DEPTH:
        return None, []
    sf = mod.sf
    literal = string_value(sf, node)
    if literal is not None:
        return literal, []
    kind = node.type
    if kind == "template_string":
        out, unknown = [], []
        for child in node.named_children:
            if child.type == "template_substitution":
                inner = child.named_children[0] if child.named_children else None
                part, missing = _part(ctx, mod, inner, env, depth)
                out.append(part)
                unknown += missing
            elif child.type == "string_fragment":
                out.append(text(sf, child))
        return "".join(out), unknown
    if kind == "binary_expression" and text(sf, node.child_by_field_name("operator")) == "+":
        left, lu = _part(ctx, mod, node.child_by_field_name("left"), env, depth)
        right, ru = _part(ctx, mod, node.child_by_field_name("right"), env, depth)
        return left + right, lu + ru
    if (
        kind == "call_expression"
        and dotted_name(sf, node.child_by_field_name("function")) in _JOINS
    ):
        parts = [_part(ctx, mod, a, env, depth) for a in arguments(node)]
        joined = "/".join(p.strip("/") for p, _ in parts if p.strip("/"))
        return ("/" if parts and parts[0][0].startswith("/") else "") + joined, [
            u for _, missing in parts for u in missing
        ]
    if kind in {"identifier", "member_expression", "shorthand_property_identifier"}:
        found = value_of(ctx, mod, node, env, depth + 1)
        if found is not None and found.literal is not None:
            return found.literal, []
        if found is not None and found.node is not None and found.node != node:
            return string_of(ctx, found.mod, found.node, None, depth + 1)
    return None, []


def _part(ctx, mod: ModuleInfo, node: TsNode | None, env: Env | None, depth: int):
    value, unknown = string_of(ctx, mod, node, env, depth + 1)
    if value is not None:
        return value, unknown
    label = text(mod.sf, node).strip() if node is not None else "?"
    label = label.removeprefix("process.env.").removeprefix("import.meta.env.")
    return "{" + label + "}", [label]


def loop_bindings(ctx: ComponentContext, mod: ModuleInfo, node: TsNode) -> list[Env] | None:
    """One binding set per iteration of every loop around `node` whose array is static
    (`arr.forEach(x => ...)`, `arr.map`, `for (const x of arr)`, `Object.entries(o)` /
    `Object.values(o)`); None when a loop's array cannot be evaluated; [{}] when no loop."""
    envs: list[Env] = [{}]
    parent = node.parent
    while parent is not None:
        found = _loop(ctx, mod, parent)
        if found is not None:
            pattern, items = found
            if items is None:
                return None
            envs = [
                {**outer, **inner}
                for outer in envs
                for inner in (_bind(mod, pattern, i) for i in items)
            ][:MAX_BINDINGS]
        parent = parent.parent
    return envs


def _loop(ctx, mod: ModuleInfo, node: TsNode):
    """(binding pattern, items or None) when `node` is a loop body holder, else None."""
    sf = mod.sf
    if node.type in FUNCTION_TYPES and node.parent is not None and node.parent.type == "arguments":
        call = node.parent.parent
        callee = call.child_by_field_name("function") if call is not None else None
        if callee is None or callee.type != "member_expression":
            return None
        if text(sf, callee.child_by_field_name("property")) not in _LOOP_METHODS:
            return None
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        if params is None:
            return None
        first = params if params.type == "identifier" else next(iter(params.named_children), None)
        if first is not None and first.type in {"required_parameter", "optional_parameter"}:
            first = first.child_by_field_name("pattern")
        return first, _items(ctx, mod, callee.child_by_field_name("object"))
    if node.type == "for_in_statement" and "of" in {c.type for c in node.children}:
        left = node.child_by_field_name("left")
        return left, _items(ctx, mod, node.child_by_field_name("right"))
    return None


def _items(ctx, mod: ModuleInfo, node: TsNode | None) -> list[Value] | None:
    node = unwrap(node)
    if node is None:
        return None
    if node.type == "call_expression":
        callee = dotted_name(mod.sf, node.child_by_field_name("function"))
        if callee in {"Object.entries", "Object.values", "Object.keys"}:
            target = value_of(ctx, mod, (arguments(node) or [None])[0])
            if target is None or target.node is None or target.node.type != "object":
                return None
            props = object_props(target.mod.sf, target.node)
            if callee == "Object.values":
                return [Value(target.mod, v) for v in props.values()]
            if callee == "Object.keys":
                return [Value(target.mod, None, k) for k in props]
            return [Value(target.mod, v, k) for k, v in props.items()]  # (key, value) pairs
    found = value_of(ctx, mod, node)
    if found is None or found.node is None or found.node.type != "array":
        return None
    items = [c for c in found.node.named_children if c.type != "comment"]
    return [Value(found.mod, c) for c in items]


def _bind(mod: ModuleInfo, pattern: TsNode | None, item: Value) -> Env:
    if pattern is None:
        return {}
    sf = mod.sf
    if pattern.type == "identifier":
        return {text(sf, pattern): item}
    if pattern.type == "array_pattern":  # Object.entries: [key, value]
        names = [c for c in pattern.named_children if c.type == "identifier"]
        out: Env = {}
        if names and item.literal is not None:
            out[text(sf, names[0])] = Value(item.mod, None, item.literal)
        if len(names) > 1 and item.node is not None:
            out[text(sf, names[1])] = Value(item.mod, item.node)
        return out
    if pattern.type == "object_pattern" and item.node is not None and item.node.type == "object":
        props = object_props(item.mod.sf, item.node)
        out = {}
        for child in pattern.named_children:
            if child.type == "shorthand_property_identifier_pattern" and text(sf, child) in props:
                out[text(sf, child)] = Value(item.mod, props[text(sf, child)])
            elif child.type == "pair_pattern":
                key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
                if key is not None and value is not None and text(sf, key) in props:
                    out[text(sf, value)] = Value(item.mod, props[text(sf, key)])
        return out
    return {}
