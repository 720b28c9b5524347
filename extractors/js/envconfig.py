"""Env var reads through a validated config object (JS family), for infra/env.py.

Real apps rarely read `process.env.X` where they use it: they validate the environment once
and export the result. Two shapes are recognised, as module-level declarations:
- a mapping object: `export const env = createEnv({ runtimeEnv: { DB_URL: process.env.DB_URL
  } })` (t3-env and hand-written ones): every `KEY: process.env.NAME` pair inside the
  initializer maps property KEY to variable NAME;
- a validated copy: `const { value: envVars } = schema.validate(process.env)`,
  `const env = schema.parse(process.env)`, `envalid.cleanEnv(process.env, …)`: every
  property is the variable of the same name.
Each `obj.KEY` access — in that module or in any module importing `obj` — and each
`const { KEY } = obj` is a read of the variable at that line (`via="config:<obj>"`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node as TsNode

from extractors.js.common import modules, resolve_local, text, unwrap
from extractors.js.index import file_index
from extractors.js.model import ModuleInfo
from extractors.source import matches

if TYPE_CHECKING:
    from extractors.base import ComponentContext
    from extractors.source import SourceFile

_ENV = {"process.env", "import.meta.env"}

_ACCESS = """
(member_expression object: (identifier) @obj property: (property_identifier) @key) @read
(variable_declarator name: (object_pattern) @pattern value: (identifier) @obj)
"""


def env_objects(ctx: ComponentContext) -> dict[tuple[str, str], dict[str, str] | None]:
    """(rel, local name) -> {property: variable} (None: every property is its own name)."""
    found: dict[tuple[str, str], dict[str, str] | None] = {}
    for _, mod in sorted(modules(ctx).items()):
        if b".env" in mod.sf.data:
            _declared(ctx, mod, found)
    return found


def _declared(ctx, mod: ModuleInfo, found: dict) -> None:
    sf = mod.sf
    reads = file_index(ctx, sf).env_reads
    for stmt in sf.tree.root_node.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        if decl is None or decl.type not in {"lexical_declaration", "variable_declaration"}:
            continue
        for declarator in decl.named_children:
            value = unwrap(declarator.child_by_field_name("value"))
            target = declarator.child_by_field_name("name")
            if value is None or target is None or value.type not in {"call_expression", "object"}:
                continue
            names = _bound_names(sf, target)
            if not names:
                continue
            if value.type == "call_expression" and _validates_env(sf, value):
                for name in names:
                    found[(mod.rel, name)] = None
                continue
            mapping = {}
            for read, key_node, _via in reads:
                if value.start_byte <= read.start_byte < value.end_byte:
                    pair = read.parent
                    if pair is not None and pair.type == "pair":
                        key = pair.child_by_field_name("key")
                        mapping[text(sf, key).strip("'\"")] = text(sf, key_node).strip("'\"")
            if mapping:
                for name in names:
                    found[(mod.rel, name)] = mapping


def _bound_names(sf: SourceFile, target: TsNode) -> list[str]:
    if target.type == "identifier":
        return [text(sf, target)]
    if target.type == "object_pattern":  # `const { value: envVars } = schema.validate(...)`
        out = []
        for prop in target.named_children:
            if prop.type == "pair_pattern" and text(sf, prop.child_by_field_name("key")) == "value":
                value = prop.child_by_field_name("value")
                if value is not None and value.type == "identifier":
                    out.append(text(sf, value))
        return out
    return []


def _validates_env(sf: SourceFile, call: TsNode) -> bool:
    """A call chain that takes `process.env` itself as an argument."""
    node = call
    while node is not None and node.type == "call_expression":
        args = node.child_by_field_name("arguments")
        for arg in args.named_children if args is not None else []:
            if text(sf, unwrap(arg)).replace(" ", "") in _ENV:
                return True
        fn = node.child_by_field_name("function")
        node = (
            unwrap(fn.child_by_field_name("object"))
            if fn is not None and fn.type == "member_expression"
            else None
        )
    return False


def config_reads(
    ctx: ComponentContext, sf: SourceFile, objects: dict[tuple[str, str], dict[str, str] | None]
) -> list[tuple[str, TsNode, str]]:
    """(variable, read node, via) for every access in `sf` to an env object of `objects`."""
    if not objects:
        return []
    mod = modules(ctx).get(sf.rel)
    if mod is None:
        return []
    local: dict[str, tuple[str, dict[str, str] | None]] = {}
    for (rel, name), mapping in objects.items():
        if rel == sf.rel:
            local[name] = (name, mapping)
    for name in mod.imports:
        found = resolve_local(ctx, sf.rel, name)
        if found is not None and found in objects:
            local[name] = (found[1], objects[found])
    if not local or not any(_used(sf.data, name) for name in local):
        return []
    out = []
    for _, m in matches(sf.language or "", _ACCESS, sf.tree.root_node):
        obj = text(sf, m["obj"][0])
        if obj not in local:
            continue
        label, mapping = local[obj]
        keys = [(m["key"][0], m["read"][0])] if "key" in m else _pattern_keys(m["pattern"][0])
        for key_node, at in keys:
            key = text(sf, key_node)
            variable = key if mapping is None else mapping.get(key)
            if variable:
                out.append((variable, at, f"config:{label}"))
    return out


def _pattern_keys(pattern: TsNode) -> list[tuple[TsNode, TsNode]]:
    out = []
    for prop in pattern.named_children:
        if prop.type == "shorthand_property_identifier_pattern":
            out.append((prop, prop))
        elif prop.type == "pair_pattern" and prop.child_by_field_name("key") is not None:
            out.append((prop.child_by_field_name("key"), prop))
    return out


def _used(data: bytes, name: str) -> bool:
    """Whether a file accesses `name.` or destructures `= name` (a cheap byte test)."""
    key = name.encode()
    return key + b"." in data or b"= " + key in data
