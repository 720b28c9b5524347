"""Env var reads through a config module's exported values (JS family), for infra/env.py.

Apps read the environment once into a config object and the code uses its values:
    module.exports = { jwt: { secret: envVars.JWT_SECRET } }      // config.js
    const config = require('./config'); jwt.verify(token, config.jwt.secret);
A module-level object — `module.exports = {…}`, `export default {…}`, `export const cfg =
{…}` or any top-level `const x = {…}` — maps each property path whose value reads a variable
(`process.env.X`, `import.meta.env.X`, or a validated env object of js/envconfig.py, also
inside an expression such as `env.URL + suffix`) to that variable. Each use of such a path —
`config.jwt.secret` in that module or in any module importing the object, a default
parameter included — is a read of the variable at that line, `via` the path as written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node as TsNode

from extractors.js.common import modules, resolve_local, text, unwrap, whole_module
from extractors.js.index import file_index
from extractors.source import matches

if TYPE_CHECKING:
    from extractors.base import ComponentContext
    from extractors.source import SourceFile

Paths = dict[str, str]  # "jwt.secret" -> "JWT_SECRET"
_MAX_DEPTH = 6
_READ_TYPES = {"member_expression", "subscript_expression"}
_ACCESS = "(member_expression object: (identifier) @obj property: (property_identifier)) @read"


def derived_objects(
    ctx: ComponentContext, objects: dict[tuple[str, str], dict[str, str] | None]
) -> dict[tuple[str, str], Paths]:
    """(rel, local or exported name) -> {property path: variable} of config objects."""
    found: dict[tuple[str, str], Paths] = {}
    for rel, mod in sorted(modules(ctx).items()):
        if b"env" not in mod.sf.data:
            continue
        env_objects = {name: m for (r, name), m in objects.items() if r == rel}
        reads = {read.start_byte: key for read, key, _ in file_index(ctx, mod.sf).env_reads}
        for name, value in [*mod.consts.items(), *_default_exports(mod.sf)]:
            value = unwrap(value)
            if value is None or value.type != "object":
                continue
            paths: Paths = {}
            _object(mod.sf, value, "", env_objects, reads, paths, 0)
            if paths:
                found[(rel, name)] = paths
    return found


def _default_exports(sf: SourceFile) -> list[tuple[str, TsNode]]:
    """`module.exports = {…}` and `export default {…}` as ("default", the object)."""
    out = []
    for stmt in sf.tree.root_node.named_children:
        node = stmt.named_children[0] if stmt.type == "expression_statement" else None
        if node is not None and node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and text(sf, left).replace(" ", "") == "module.exports":
                out.append(("default", node.child_by_field_name("right")))
        elif stmt.type == "export_statement" and stmt.child_by_field_name("value") is not None:
            out.append(("default", stmt.child_by_field_name("value")))
    return [(name, value) for name, value in out if value is not None]


def _object(sf, obj: TsNode, prefix: str, env_objects, reads, paths: Paths, depth: int) -> None:
    if depth > _MAX_DEPTH:
        return
    for pair in obj.named_children:
        if pair.type != "pair":
            continue
        key, value = pair.child_by_field_name("key"), unwrap(pair.child_by_field_name("value"))
        if key is None or value is None or key.type not in {"property_identifier", "string"}:
            continue
        path = prefix + text(sf, key).strip("'\"")
        if value.type == "object":
            _object(sf, value, path + ".", env_objects, reads, paths, depth + 1)
            continue
        variable = _first_read(sf, value, env_objects, reads)
        if variable:
            paths[path] = variable


def _first_read(sf, node: TsNode, env_objects, reads: dict[int, TsNode]) -> str | None:
    """The variable the first env read inside `node` names (pre-order)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.start_byte in reads and current.type in _READ_TYPES:
            key = reads[current.start_byte]
            return text(sf, key).strip("'\"`")
        if current.type == "member_expression":
            obj = current.child_by_field_name("object")
            prop = current.child_by_field_name("property")
            if obj is not None and obj.type == "identifier" and text(sf, obj) in env_objects:
                name = text(sf, prop) if prop is not None else ""
                mapping = env_objects[text(sf, obj)]
                return name if mapping is None else mapping.get(name)
        stack.extend(reversed(current.named_children))
    return None


def derived_reads(
    ctx: ComponentContext, sf: SourceFile, derived: dict[tuple[str, str], Paths]
) -> list[tuple[str, TsNode, str]]:
    """(variable, read node, via) for each use in `sf` of a config object's env-read path."""
    mod = modules(ctx).get(sf.rel) if derived else None
    if mod is None:
        return []
    local: dict[str, Paths] = {n: p for (r, n), p in derived.items() if r == sf.rel}
    for name, binding in mod.imports.items():
        found = resolve_local(ctx, sf.rel, name)
        if (
            binding.target
            and binding.imported in {"*", "default"}
            and (binding.cjs or binding.imported == "default")
        ):
            found = found if found in derived else (whole_module(ctx, binding.target), "default")
        if found is not None and found in derived:
            local[name] = derived[found]
    if not any(name.encode() + b"." in sf.data for name in local):
        return []
    out = []
    for _, m in matches(sf.language or "", _ACCESS, sf.tree.root_node):
        node = m["read"][0]
        obj = text(sf, node.child_by_field_name("object"))
        if obj not in local:
            continue
        path = text(sf, node.child_by_field_name("property"))
        while path not in local[obj] and node.parent is not None:
            parent = node.parent
            prop = parent.child_by_field_name("property")
            inner = parent.child_by_field_name("object")
            if parent.type != "member_expression" or prop is None or inner is None:
                break
            if (inner.start_byte, inner.end_byte) != (node.start_byte, node.end_byte):
                break
            node, path = parent, f"{path}.{text(sf, prop)}"
        if path in local[obj]:
            out.append((local[obj][path], node, " ".join(text(sf, node).split())))
    return out
