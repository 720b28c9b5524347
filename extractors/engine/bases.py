"""The named API base a call's URL starts with: the module-level constant or configuration
member written first in the URL (`${API_ROOT}${url}`, `SETTINGS.HOST + '/v2'`, a client's
`baseURL: BASE`). It is one configuration statement that says where the component's calls
go, so it becomes one `setting` node at the line it is written, and every call built on it
carries `base_setting` (impact answers: "what calls change if API_ROOT changes")."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node as TsNode

from extractors.engine.evaluate import Evaluator
from extractors.engine.middleware import definition
from extractors.engine.values import Site, Value
from extractors.lang.expr import EBinary, EMember, EName, EObject, ETemplate

MAX_MEMBERS = 4


@dataclass(frozen=True)
class NamedBase:
    name: str  # as written at the use: `API_ROOT`, `SETTINGS.HOST`
    rel: str  # where its value is written
    line: int
    value: Value  # what it holds
    site: Site  # the node written there (for the symbol that declares it)


def leading(a, node: TsNode) -> TsNode | None:
    """The expression a URL starts with: a template's first substitution, the left-most
    operand of a `+` chain, or the expression itself when it is a name or a member."""
    for _ in range(8):
        view = a.view(node)
        if isinstance(view, ETemplate):
            parts = [p for p in view.parts if not (isinstance(p, str) and p == "")]
            if not parts or isinstance(parts[0], str):
                return None
            node = parts[0]
        elif isinstance(view, EBinary) and view.op == "+":
            node = view.left
        elif isinstance(view, EName | EMember):
            return node
        else:
            return None
    return None


def named_base(ev: Evaluator, rel: str, node: TsNode | None) -> NamedBase | None:
    """The module-level name (or member of a module-level object literal) a URL or a base
    expression starts with, where its value is written, and that value."""
    a = ev.program.adapter(rel)
    if a is None or node is None:
        return None
    lead = leading(a, node)
    if lead is None:
        return None
    chain: list[str] = []
    root = lead
    while isinstance(view := a.view(root), EMember) and len(chain) < MAX_MEMBERS:
        chain.insert(0, view.name)
        root = view.obj
    if not isinstance(a.view(root), EName):
        return None  # `this.base`, `config().url`: not one written statement
    found = _module_level(ev, rel, root)
    if found is None:
        return None
    where, decl, init = found
    b = ev.program.adapter(where)
    line, at = decl.start_point[0] + 1, decl
    for key in chain:  # `SETTINGS.HOST`: the member as written in the object literal
        obj = b.view(b.unwrap(init)) if b is not None and init is not None else None
        entry = (
            next((e for e in obj.entries if e.key == key), None)
            if isinstance(obj, EObject)
            else None
        )
        if entry is None:
            return None
        line, init = entry.value.start_point[0] + 1, entry.value
        at = entry.value
    value = ev.eval(rel, lead, None)
    return NamedBase(" ".join(a.text(lead).split())[:80], where, line, value, b.site(at))


def _module_level(ev: Evaluator, rel: str, name: TsNode):
    a = ev.program.adapter(rel)
    binding = a.resolve(a.text(name), name) if a is not None else None
    if binding is not None and binding.kind in ("decl", "assign") and binding.scope != a.root:
        return None  # a local of a function: not a configuration statement
    return definition(ev, rel, name)


MEMBER_HOLDERS = {  # nodes whose name a function inside them is reached through
    "public_field_definition", "field_definition", "class_declaration", "class",
    "variable_declarator", "class_definition",
}  # fmt: skip


def member_path(ev: Evaluator, site: Site) -> str | None:
    """The dotted name of the function a call is written in, as its callers reach it:
    `Api.pets.listPets` for a method of an object literal kept in a class field."""
    a = ev.program.adapter(site.rel)
    node = a.node_at(site) if a is not None else None
    fn = a.function_at(node) if a is not None and node is not None else None
    if a is None or fn is None:
        return None
    names = [a.function(fn).name]
    parent = fn.parent
    while parent is not None and not a.is_function(parent):
        key = (
            parent.child_by_field_name("key")
            if parent.type == "pair"
            else parent.child_by_field_name("name")
            if parent.type in MEMBER_HOLDERS
            else None
        )
        if key is not None and a.text(key) != names[-1]:
            names.append(a.text(key).strip("'\""))
        parent = parent.parent
    return ".".join(n for n in reversed(names) if n)
