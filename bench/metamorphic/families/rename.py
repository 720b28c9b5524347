"""Family 1: rename a local or an import (`axios` -> `http`, `router` -> `r`, `fetch` ->
`fetchBase` through a local alias).

Renaming is alpha-conversion of every token that names the binding, so it is safe when the
new name is no word of the file (nothing captured, nothing shadowed) and the old name is not
visible from outside: JS module-level bindings that are not exported by name (an
`export { x }` becomes `export { y as x }`), in a file without eval/with, not read by a Vue
template or a JSX pragma; Python import bindings that no other module imports back, never a
parameter, a class attribute or a name spelled inside a string.
"""

from __future__ import annotations

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Plan
from bench.metamorphic.families.base import Family, js_insert_point, replace
from bench.metamorphic.syntax import (
    Source,
    fresh,
    js_import_locals,
    js_name_nodes,
    of_type,
    py_in_class_body,
    py_is_parameter,
    py_name_nodes,
    uses_dynamic_scope,
)

NAMES = {
    "axios": "http", "router": "r", "app": "server", "fetch": "fetchBase", "express": "web",
    "superagent": "agent", "api": "client", "http": "httpClient", "request": "send",
    "requests": "rq", "httpx": "hx", "APIRouter": "Router", "FastAPI": "App",
    "Blueprint": "BP", "Flask": "App", "Router": "RouterFactory", "client": "apiClient",
}  # fmt: skip
JSX_PRAGMAS = {"React", "h", "Fragment", "jsx"}


def new_name(src: Source, old: str, taken: set[str]) -> str | None:
    wanted = NAMES.get(old) or f"{old}_r"
    if wanted[0].isupper() != old[0].isupper():
        wanted = wanted[0].swapcase() + wanted[1:]
    return fresh(src, wanted, taken)


# --- JavaScript ---------------------------------------------------------------------------


def _js_candidates(src: Source, plan: Plan) -> list[tuple[str, bool]]:
    """(name, is_import) of module-level bindings that are not exported by declaration."""
    out: list[tuple[str, bool]] = []
    for stmt in src.root.named_children:
        if stmt.type == "import_statement":
            out += [(src.text(n), True) for n in js_import_locals(src, stmt)]
        elif stmt.type in ("lexical_declaration", "variable_declaration"):
            for d in stmt.named_children:
                name = d.child_by_field_name("name") if d.type == "variable_declarator" else None
                if name is not None and name.type == "identifier":
                    out.append((src.text(name), False))
        elif (
            stmt.type == "export_statement" and stmt.child_by_field_name("declaration") is not None
        ):
            plan.skip("exported by declaration")
    return out


def _rename_js(src: Source, plan: Plan, old: str, new: str, is_import: bool) -> bool:
    edits: list[tuple[Node, str]] = []
    for tok in js_name_nodes(src, old, with_types=True):
        parent = tok.parent
        if tok.type == "type_identifier" and not is_import:
            plan.skip("a type of the same name")
            return False
        if tok.type in ("shorthand_property_identifier", "shorthand_property_identifier_pattern"):
            edits.append((tok, f"{old}: {new}"))
        elif parent.type == "import_specifier" and parent.child_by_field_name("alias") is None:
            edits.append((tok, f"{old} as {new}"))
        elif parent.type == "import_specifier" and parent.child_by_field_name("name") == tok:
            continue  # `{ old as alias }`: the imported name is the other module's
        elif parent.type == "export_specifier":
            stmt = parent.parent.parent
            if stmt.child_by_field_name("source") is not None:
                continue  # re-export of another module's name
            if parent.child_by_field_name("name") == tok:
                alias = parent.child_by_field_name("alias")
                edits.append((tok, new if alias is not None else f"{new} as {old}"))
        else:
            edits.append((tok, new))
    if any(plan.taken(src.rel, t.start_byte, t.end_byte) for t, _ in edits):
        plan.skip("overlaps another rename")
        return False
    for tok, text in edits:
        replace(plan, src, tok, text)
    return bool(edits)


def _fetch_alias(src: Source, plan: Plan, taken: set[str]) -> None:
    """`fetch(...)` of the global -> `fetchBase(...)` with `const fetchBase = fetch`."""
    toks = js_name_nodes(src, "fetch")
    calls = [
        t
        for t in toks
        if t.parent.type == "call_expression" and t.parent.child_by_field_name("function") == t
    ]
    if not calls:
        return
    if len(calls) != len(toks):
        plan.skip("fetch declared or passed around")
        return
    new = new_name(src, "fetch", taken)
    if new is None:
        plan.skip("no fresh name")
        return
    at = js_insert_point(src)
    for t in calls:
        replace(plan, src, t, new)
    replace(plan, src, (at, at), ("\n" if at else "") + f"const {new} = fetch;\n")
    plan.site(src.rel, src.data, calls[0].start_byte, "fetch -> local alias " + new)


def plan_js(src: Source, plan: Plan) -> None:
    if uses_dynamic_scope(src):
        plan.skip("eval or with in file")
        return
    has_jsx = bool(of_type(src.root, "jsx_element", "jsx_self_closing_element"))
    template = src.outside_script()
    taken: set[str] = set()
    seen: set[str] = set()
    for old, is_import in _js_candidates(src, plan):
        if old in seen:
            continue
        seen.add(old)
        if has_jsx and old in JSX_PRAGMAS:
            plan.skip("JSX pragma")
            continue
        if template and old.encode() in template:
            plan.skip("named in the Vue template")
            continue
        new = new_name(src, old, taken)
        if new is None:
            plan.skip("no fresh name")
            continue
        if _rename_js(src, plan, old, new, is_import):
            taken.add(new)
            first = js_name_nodes(src, old)[0]
            plan.site(src.rel, src.data, first.start_byte, f"{old} -> {new}")
    _fetch_alias(src, plan, taken)


# --- Python -------------------------------------------------------------------------------


def _py_imported_back(comp: Component, src: Source, name: str) -> bool:
    """Whether another module of the component may import `name` from this one."""
    stem = src.rel.rsplit("/", 1)[-1].removesuffix(".py")
    if stem == "__init__":
        stem = src.rel.rsplit("/", 2)[-2] if "/" in src.rel else stem
    for other in comp.sources("python", tests=True):
        if other.rel == src.rel or not other.has_word(name):
            continue
        for stmt in of_type(other.root, "import_from_statement", "import_statement"):
            text = other.text(stmt)
            if stem in text and name in text.split():
                return True
        if other.has_word(stem) and f".{name}".encode() in other.data:
            return True
    return False


def _py_bindings(src: Source) -> list[tuple[str, Node, Node | None]]:
    """(local name, node spelling it in the import, the imported dotted name when unaliased)."""
    out = []
    for stmt in src.root.named_children:
        if stmt.type not in ("import_statement", "import_from_statement"):
            continue
        module = stmt.child_by_field_name("module_name")
        for n in stmt.named_children:
            if n == module:
                continue
            if n.type == "aliased_import":
                alias = n.child_by_field_name("alias")
                out.append((src.text(alias), alias, None))
            elif n.type == "dotted_name" and n.named_child_count == 1:
                out.append((src.text(n), n, n))
    return out


def plan_py(comp: Component, src: Source, plan: Plan) -> None:
    strings = b" ".join(src.data[s.start_byte : s.end_byte] for s in of_type(src.root, "string"))
    if b"__all__" in src.data or b"globals()" in src.data or b"locals()" in src.data:
        plan.skip("module names read by string")
        return
    taken: set[str] = set()
    bindings = _py_bindings(src)
    for old, spell, unaliased in bindings:
        if sum(1 for b in bindings if b[0] == old) > 1:
            plan.skip("imported twice")
            continue
        uses = [n for n in py_name_nodes(src, old) if not _in_import(n)]
        if not uses:
            continue
        if old.encode() in strings:
            plan.skip("named inside a string")
            continue
        if any(py_is_parameter(n) or py_in_class_body(n) for n in uses):
            plan.skip("a parameter or class attribute of the same name")
            continue
        if _py_imported_back(comp, src, old):
            plan.skip("imported back by another module")
            continue
        new = new_name(src, old, taken)
        if new is None:
            plan.skip("no fresh name")
            continue
        if not replace(plan, src, spell, f"{old} as {new}" if unaliased is not None else new):
            continue
        for n in uses:
            replace(plan, src, n, new)
        taken.add(new)
        plan.site(src.rel, src.data, spell.start_byte, f"{old} -> {new}")


def _in_import(node: Node) -> bool:
    p = node.parent
    while p is not None and p.type != "module":
        if p.type in ("import_statement", "import_from_statement"):
            return True
        p = p.parent
    return False


def plan(comp: Component, plan_: Plan) -> None:
    for src in comp.sources("js"):
        plan_js(src, plan_)
    for src in comp.sources("python"):
        plan_py(comp, src, plan_)


FAMILY = Family(1, "rename", "rename a local or an import", plan)
