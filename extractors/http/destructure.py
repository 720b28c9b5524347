"""A name bound by destructuring a config object: `const { API_URL } = getConfig()`.

The value is looked up in the object the right-hand side evaluates to: a module const
object (`= CONFIG`), or the object literal a local/imported function returns
(`getConfig = () => ({ API_URL: ... })`). A value that is a build-time placeholder token
(`'__api_url__'`, replaced by the bundler) stays symbolic, named by its key: `{API_URL}`.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.http.urlvalue import Url
from extractors.js.common import (
    FUNCTION_TYPES,
    dotted_name,
    object_props,
    resolve_const,
    string_value,
    text,
    unwrap,
)
from extractors.source import SourceFile


class Evaluator(Protocol):
    """What destructuring reads of the URL evaluator (a protocol: urls.py imports this module)."""

    ctx: ComponentContext

    def js(self, *args: Any, **kwargs: Any) -> Url | None: ...


_PLACEHOLDER = re.compile(r"^(__[A-Za-z0-9_]+__|%[A-Z0-9_]+%|\$\{[A-Z0-9_]+\})$")
_SCOPES = FUNCTION_TYPES | {"function_declaration", "method_definition", "program"}


def _patterns(node: TsNode, name: str) -> list[tuple[TsNode, str]]:
    """(right-hand side, key) of each `{ key: name }` / `{ name }` declarator in scopes
    around `node`, innermost first, declared before it."""
    out: list[tuple[TsNode, str]] = []
    scope = node.parent
    while scope is not None:
        if scope.type in _SCOPES:
            body = scope.child_by_field_name("body") if scope.type != "program" else scope
            for stmt in body.named_children if body is not None else []:
                if stmt.start_byte >= node.start_byte:
                    break
                if stmt.type not in {"lexical_declaration", "variable_declaration"}:
                    continue
                for decl in stmt.named_children:
                    pattern = decl.child_by_field_name("name")
                    value = decl.child_by_field_name("value")
                    if pattern is None or value is None or pattern.type != "object_pattern":
                        continue
                    key = _key_of(pattern, name)
                    if key:
                        out.append((value, key))
        scope = scope.parent
    return out


def _key_of(pattern: TsNode, name: str) -> str | None:
    data = pattern.text or b""
    if name.encode() not in data:
        return None
    for child in pattern.named_children:
        if child.type == "shorthand_property_identifier_pattern" and child.text == name.encode():
            return name
        if child.type == "pair_pattern":
            value = child.child_by_field_name("value")
            key = child.child_by_field_name("key")
            if value is not None and key is not None and value.text == name.encode():
                return (key.text or b"").decode()
    return None


def _returned_object(sf: SourceFile, fn: TsNode) -> TsNode | None:
    body = unwrap(fn.child_by_field_name("body"))
    if body is not None and body.type == "object":
        return body
    if body is not None and body.type == "statement_block":
        for stmt in body.named_children:
            if stmt.type == "return_statement" and stmt.named_children:
                found = unwrap(stmt.named_children[0])
                return found if found is not None and found.type == "object" else None
    return None


def destructured(ev: Evaluator, sf: SourceFile, node: TsNode, name: str, depth: int) -> Url | None:
    for value, key in _patterns(node, name):
        value = unwrap(value)
        target: tuple[SourceFile, TsNode] | None = None
        if value is not None and value.type == "call_expression":
            callee = dotted_name(sf, value.child_by_field_name("function"))
            found = resolve_const(ev.ctx, sf.rel, callee) if callee and "." not in callee else None
            fn = unwrap(found[1]) if found else None
            if found and fn is not None and fn.type in FUNCTION_TYPES:
                obj = _returned_object(found[0], fn)
                target = (found[0], obj) if obj is not None else None
        elif value is not None and value.type == "identifier":
            found = resolve_const(ev.ctx, sf.rel, text(sf, value))
            obj = unwrap(found[1]) if found else None
            target = (found[0], obj) if found and obj is not None and obj.type == "object" else None
        if target is None:
            continue
        prop = object_props(target[0], target[1]).get(key)
        if prop is None:
            return None
        literal = string_value(target[0], prop)
        if literal is not None and _PLACEHOLDER.match(literal):
            return Url([("env", key)], {"config"}).named(key)
        url = ev.js(target[0], prop, depth + 1)
        return url.named(key) if url is not None and not url.starts_with_param else url
    return None
