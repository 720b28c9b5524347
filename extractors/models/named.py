"""Module-level names a framework reads by convention (a model's `names:`): where a module
writes them, which modules of the component do, and what a name of such a module is.

Django reads a URLconf module's `urlpatterns`, and its settings module is the one that
assigns `ROOT_URLCONF`; `django.conf.settings.X` is that module's `X` (`reads: {settings:
setting}`): a text setting becomes a `Config` whose default is the value written, so a route
prefix moved into the settings keeps its value and says where it is written."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node as TsNode

from extractors.engine.values import STRINGISH, Config, Lit, Site, Unknown, Value
from extractors.models.schema import Model

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator

BLOCKS = {"if_statement", "else_clause", "elif_clause", "block", "try_statement",
          "except_clause", "finally_clause", "for_statement", "while_statement",
          "with_statement"}  # fmt: skip
APPENDS = {"append": "one", "insert": "last", "extend": "many"}


def module_site(rel: str) -> Site:
    """The identity of the object a module is to a framework (its URLconf)."""
    return Site(rel, 1, 1, 0, 0, 0)


def written(root: TsNode, name: str, text) -> list[TsNode]:
    """The expressions a module puts in its module-level `name`, in order: each item of
    `name = [...]` / `name += [...]` (and of `a + b`), `name.append(x)`, `name.extend(xs)`,
    `name.insert(i, x)`, also inside module-level `if` / `for` / `try` blocks."""
    out: list[TsNode] = []
    stack = list(reversed(root.named_children))
    while stack:
        node = stack.pop()
        if node.type in BLOCKS:
            stack.extend(reversed(node.named_children))
            continue
        expr = node
        if node.type == "expression_statement":  # (grammars that wrap an expression)
            if not node.named_children:
                continue
            expr = node.named_children[0]
        left = expr.child_by_field_name("left")
        if expr.type in ("assignment", "augmented_assignment"):
            if left is not None and left.type == "identifier" and text(left) == name:
                out += _items(expr.child_by_field_name("right"))
        elif expr.type == "call":
            callee = expr.child_by_field_name("function")
            args = expr.child_by_field_name("arguments")
            obj = callee.child_by_field_name("object") if callee is not None else None
            attr = callee.child_by_field_name("attribute") if callee is not None else None
            if obj is None or attr is None or args is None or text(obj) != name:
                continue
            how = APPENDS.get(text(attr))
            given = [c for c in args.named_children if c.type != "comment"]
            if how == "one" and given:
                out.append(given[0])
            elif how == "last" and given:
                out.append(given[-1])
            elif how == "many" and given:
                out += _items(given[0])
    return out


def _items(node: TsNode | None) -> list[TsNode]:
    if node is None:
        return []
    if node.type in ("list", "tuple"):
        return [c for c in node.named_children if c.type != "comment"]
    if node.type == "binary_operator":
        return _items(node.child_by_field_name("left")) + _items(node.child_by_field_name("right"))
    if node.type == "parenthesized_expression" and node.named_children:
        return _items(node.named_children[0])
    return [node]


def assigning(ev: Evaluator, name: str, cache: dict) -> list[str]:
    """The Python modules of the component that assign `name` at module level."""
    key = ("assigning", name)
    if key not in cache:
        found = []
        for rel in sorted(ev.program.py):
            a = ev.program.adapter(rel)
            if a is None or name.encode() not in a.sf.data:
                continue
            binding = a.resolve(name, a.root)
            if binding is not None and binding.kind == "decl":
                found.append(rel)
        cache[key] = found
    return cache[key]


def modules_of(ev: Evaluator, model: Model, role: str, cache: dict) -> list[str]:
    """The modules that are `role` to the model: those assigning a name of that role, a
    test's own (a `test` folder or file) after the application's."""
    rels: list[str] = []
    for rule in model.names:
        if rule.role == role:
            rels += [r for r in assigning(ev, rule.name, cache) if r not in rels]
    return sorted(rels, key=lambda r: (any("test" in part for part in r.split("/")), r))


def setting(ev: Evaluator, model: Model, role: str, name: str, cache: dict) -> Value:
    """`settings.NAME`: the value the model's settings module writes (text as a `Config`
    with that default, at the line it is written), else a `Config` hole."""
    for rel in modules_of(ev, model, role, cache):
        a = ev.program.adapter(rel)
        binding = a.resolve(name, a.root) if a is not None else None
        if a is None or binding is None or binding.kind != "decl":
            continue
        value = ev.program.exported(ev, rel, name)
        if isinstance(value, STRINGISH) and not isinstance(value, Unknown):
            written_at = binding.value if binding.value is not None else binding.node
            return Config(name, model.id, value, a.site(written_at))
        return value
    return Config(name, model.id, None)


__all__ = ["Lit", "assigning", "module_site", "modules_of", "setting", "written"]
