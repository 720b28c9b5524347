"""Names a Python file gives a package's module or member by importing it under another
name (`import os as o`, `from flask_login import current_user as viewer`): readers that
recognise a library name by how it is spelled (`os.environ`, `current_user`) read the
alias as the name it stands for."""

from __future__ import annotations

from extractors.source import SourceFile


def text(sf: SourceFile, node) -> str:
    return sf.node_text(node) if node is not None else ""


def import_aliases(sf: SourceFile) -> dict[str, str]:
    """local alias -> the dotted name it imports (`o` -> `os`, `viewer` ->
    `flask_login.current_user`); only names imported with `as`, at module level."""
    if b" as " not in sf.data:
        return {}
    out: dict[str, str] = {}
    for stmt in sf.tree.root_node.named_children:
        if stmt.type == "import_statement":
            module = ""
        elif stmt.type == "import_from_statement":
            module = text(sf, stmt.child_by_field_name("module_name"))
            if module.startswith("."):
                continue
        else:
            continue
        for item in stmt.children_by_field_name("name"):
            if item.type != "aliased_import":
                continue
            name = text(sf, item.child_by_field_name("name"))
            alias = text(sf, item.child_by_field_name("alias"))
            out[alias] = f"{module}.{name}" if module else name
    return out


def as_imported(dotted: str, aliases: dict[str, str]) -> str:
    """A dotted name with its head spelled as imported (`o.environ.get` -> `os.environ.get`)."""
    head, dot, rest = dotted.partition(".")
    return aliases[head] + dot + rest if head in aliases else dotted
