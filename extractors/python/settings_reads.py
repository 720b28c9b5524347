"""Reads of a pydantic settings object's fields, as reads of the env var behind each field.

`settings.secret_key` where `settings` is typed (a parameter annotation, `Depends(get_settings)`
with a return annotation, a local or module name assigned `Settings()` / `get_settings()`) as a
class deriving from `BaseSettings` with field `secret_key` → the field's env var (SECRET_KEY) is
read there: READS_ENV from the enclosing function at that line, `via` `settings`, attrs `field`,
`settings_class`. When the read is an argument of a call to a function of the component
(`jwt.create_access_token_for_user(user, str(settings.secret_key...))`), the callee gets the value
too: READS_ENV from the callee's symbol at the call's line, `via` `argument`, `passed_by`.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node as TsNode

from extractors.python.model import PyModule
from extractors.python.scope import Cls, enclosing_function, nodes_of
from extractors.python.values import Values
from extractors.source import SourceFile

_STOP = {"function_definition", "class_definition", "expression_statement", "return_statement",
         "if_statement", "for_statement", "while_statement", "with_statement", "module"}  # fmt: skip
Add = Callable[..., None]  # add(mod, NAME, node, owner=..., line=..., **attrs)


def field_of(values: Values, fields: dict[Cls, dict[str, str]], cls: Cls, field: str,
             depth: int = 0) -> str | None:  # fmt: skip
    """The env var behind `field` of settings class `cls` (its own or a base's field)."""
    if field in fields.get(cls, {}):
        return fields[cls][field]
    for base in values.bases(cls) if depth < 8 else []:
        found = field_of(values, fields, base, field, depth + 1)
        if found:
            return found
    return None


def field_reads(values: Values, mods: dict[str, PyModule], fields: dict[Cls, dict[str, str]],
                add: Add) -> None:  # fmt: skip
    names = {f for own in fields.values() for f in own}
    if not names:
        return
    encoded = [n.encode() for n in names]
    for mod in mods.values():
        if not any(b"." + n in mod.sf.data for n in encoded):
            continue
        for node in nodes_of(mod.sf.tree.root_node, "attribute"):
            attr = node.child_by_field_name("attribute")
            field = mod.sf.node_text(attr) if attr is not None else ""
            if field not in names:
                continue
            fn = enclosing_function(node)
            cls = values.type_of(mod.rel, node.child_by_field_name("object"), fn)
            env = field_of(values, fields, cls, field) if cls is not None else None
            if env is None or _is_field_definition(node):
                continue
            add(mod, env, node, via="settings", field=field, settings_class=cls[1])
            _passed_to(values, mod, node, env, field, add)


def _is_field_definition(node: TsNode) -> bool:
    """`self.x = ...` inside the settings class itself is not a read."""
    parent = node.parent
    return (
        parent is not None
        and parent.type == "assignment"
        and parent.child_by_field_name("left") == node
    )


def _passed_to(values: Values, mod: PyModule, node: TsNode, env: str, field: str,
               add: Add) -> None:  # fmt: skip
    """The first call of the component whose arguments carry the read value."""
    cur = node.parent
    while cur is not None and cur.type not in _STOP:
        if cur.type == "argument_list" and cur.parent is not None and cur.parent.type == "call":
            callee = cur.parent.child_by_field_name("function")
            dotted = mod.sf.node_text(callee) if callee is not None else ""
            symbol = values.resolver.symbol(mod.rel, dotted) if dotted else None
            if symbol is not None and values.function(mod.rel, dotted) is not None:
                owner = mod.enclosing(node.start_byte)
                add(mod, env, cur.parent, owner=symbol, line=SourceFile.line(cur.parent),
                    via="argument", field=field, passed_by=owner.rsplit("#", 1)[-1])  # fmt: skip
                return
        cur = cur.parent
