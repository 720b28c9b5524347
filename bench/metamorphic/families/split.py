"""Family 6: split a file in two — its functions (handlers, wrappers; JS classes too) move
to a new module beside it, which the original imports back (and re-exports).

A declaration moves only when everything it names from the module level is an import
(copied, verbatim, into the new module) or another declaration that moves with it: the
set is shrunk to a fixed point. Nothing file-relative moves (`__dirname`, `import.meta`,
`module.exports`, `__file__`), nothing reassigned, no decorated Python function (its
decorator registers at import time) and no file with 'use server'. The new module is
imported after the original's own imports, so module evaluation order is unchanged.
"""

from __future__ import annotations

import posixpath

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Edit, NewFile, Piece, Plan
from bench.metamorphic.families.base import Family, js_insert_point
from bench.metamorphic.syntax import (
    Source,
    is_js_binding,
    js_import_locals,
    lexical_this,
    module_kind,
    of_type,
    single_const,
    walk,
)

JS_FILE_RELATIVE = {"__dirname", "__filename", "module", "exports", "require"}
PY_FILE_RELATIVE = {"__file__", "__name__", "globals", "locals", "__package__", "__spec__"}


# --- JavaScript ---------------------------------------------------------------------------


def _js_decl(src: Source, stmt: Node) -> tuple[str, Node, bool, bool] | None:
    """(name, declaration node, exported, default) of a movable top-level declaration."""
    exported = default = False
    decl = stmt
    if stmt.type == "export_statement":
        inner = stmt.child_by_field_name("declaration") or next(
            (
                c
                for c in stmt.named_children
                if c.type in ("function_declaration", "class_declaration")
            ),
            None,
        )
        if inner is None:
            return None
        exported, default, decl = True, any(c.type == "default" for c in stmt.children), inner
    if decl.type in ("function_declaration", "generator_function_declaration", "class_declaration"):
        name = decl.child_by_field_name("name")
        return (src.text(name), decl, exported, default) if name is not None else None
    found = single_const(src, decl)
    if found is not None:
        name, value = found
        if value.type in ("arrow_function", "function_expression", "function"):
            if value.type == "arrow_function" and lexical_this(src, value):
                return None
            return src.text(name), decl, exported, False
        if value.type == "call_expression" and any(
            a.type in ("arrow_function", "function_expression", "function")
            for a in value.child_by_field_name("arguments").named_children
        ):
            return src.text(name), decl, exported, False
    return None


def _js_module_bindings(src: Source) -> tuple[dict[str, Node], set[str]]:
    """import binding name -> its import statement; every other top-level binding name."""
    imports: dict[str, Node] = {}
    others: set[str] = set()
    for stmt in src.root.named_children:
        if stmt.type == "import_statement":
            for n in js_import_locals(src, stmt):
                imports[src.text(n)] = stmt
            continue
        if stmt.type in ("lexical_declaration", "variable_declaration") and all(
            _is_require(src, d) for d in stmt.named_children
        ):
            for d in stmt.named_children:
                for n in walk(d.child_by_field_name("name")):
                    if n.type in ("identifier", "shorthand_property_identifier_pattern"):
                        imports[src.text(n)] = stmt
            continue
        target = (
            stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        )
        if target is None:
            continue
        if target.type in ("lexical_declaration", "variable_declaration"):
            for d in target.named_children:
                pattern = d.child_by_field_name("name") if d.type == "variable_declarator" else None
                for n in walk(pattern) if pattern is not None else []:
                    if n.type == "shorthand_property_identifier_pattern" or (
                        n.type == "identifier" and is_js_binding(n)
                    ):
                        others.add(src.text(n))
        else:
            name = target.child_by_field_name("name")
            if name is not None:
                others.add(src.text(name))
    return imports, others


def _is_require(src: Source, d: Node) -> bool:
    v = d.child_by_field_name("value") if d.type == "variable_declarator" else None
    return (
        v is not None
        and v.type == "call_expression"
        and src.text(v.child_by_field_name("function")) == "require"
    )


def plan_js(comp: Component, src: Source, plan: Plan) -> None:
    if src.is_vue or b"use server" in src.data[:200] or src.rel.endswith(".d.ts"):
        return
    imports, others = _js_module_bindings(src)
    cands: dict[str, tuple[Node, Node, bool, bool, set[str]]] = {}
    for stmt in src.root.named_children:
        found = _js_decl(src, stmt)
        if found is None:
            continue
        name, decl, exported, default = found
        used = {
            src.text(n)
            for n in walk(stmt)
            if n.type in ("identifier", "type_identifier", "shorthand_property_identifier")
        }
        if used & JS_FILE_RELATIVE or any(n.type == "meta_property" for n in walk(stmt)):
            plan.skip("file-relative name in moved code")
            continue
        assigned = [
            n
            for n in src.name_tokens(name)
            if n.parent.type in ("assignment_expression", "augmented_assignment_expression")
            and n.parent.child_by_field_name("left") == n
        ]
        if assigned:
            plan.skip("reassigned declaration")
            continue
        cands[name] = (stmt, decl, exported, default, used)
    changed = True
    while changed:
        changed = False
        for name, (*_, used) in list(cands.items()):
            if (used - {name}) & (others - set(cands)):
                del cands[name]
                changed = True
    if not cands:
        return
    stem, ext = posixpath.splitext(posixpath.basename(src.rel))
    new_rel = posixpath.join(posixpath.dirname(src.rel), f"{stem}.part{ext}")
    if new_rel in comp.originals:
        return
    esm = module_kind(src) == "esm"
    needed = sorted(
        {imports[u] for *_, used in cands.values() for u in used if u in imports},
        key=lambda n: n.start_byte,
    )
    parts: list = []
    head = src.data[:200].lstrip()
    if head.startswith((b"'use client'", b'"use client"')):
        parts.append("'use client';\n\n")
    for stmt in needed:
        parts += [Piece(stmt.start_byte, stmt.end_byte), "\n"]
    names = sorted(cands, key=lambda k: cands[k][0].start_byte)
    default_name = next((n for n in names if cands[n][3]), None)
    for name in names:
        stmt, decl, exported, default, _ = cands[name]
        parts.append("\n")
        for dec in (c for c in stmt.children if c.type == "decorator" and stmt != decl):
            parts += [Piece(dec.start_byte, dec.end_byte), "\n"]
        if esm:
            parts += [
                "export default " if default else "export ",
                Piece(decl.start_byte, decl.end_byte),
                "\n",
            ]
        else:
            parts += [Piece(decl.start_byte, decl.end_byte), "\n"]
    if not esm:
        parts.append(f"\nmodule.exports = {{ {', '.join(names)} }};\n")
    plan.new_files.append(NewFile(new_rel, parts, origin=src.rel))
    spec = f"./{stem}.part" + (
        ext
        if ext in (".mjs", ".cjs") or (esm and comp.explicit_extensions(src) and ext == ".js")
        else ""
    )
    named = [n for n in names if n != default_name]
    if esm:
        clause = ", ".join(
            x for x in [default_name, "{ " + ", ".join(named) + " }" if named else ""] if x
        )
        line = f"import {clause} from '{spec}';\n"
        reexports = [n for n in named if cands[n][2]]
        if reexports:
            line += f"export {{ {', '.join(reexports)} }};\n"
        if default_name:
            line += f"export default {default_name};\n"
    else:
        line = f"const {{ {', '.join(names)} }} = require('{spec}');\n"
    at = js_insert_point(src)
    plan.edits.append(Edit(src.rel, at, at, [("\n" if at else "") + line]))
    for name in names:
        stmt = cands[name][0]
        plan.edits.append(Edit(src.rel, stmt.start_byte, stmt.end_byte, [""]))
        plan.site(src.rel, src.data, stmt.start_byte, f"{name} -> {new_rel}")


# --- Python -------------------------------------------------------------------------------


def _py_bindings(src: Source) -> tuple[dict[str, Node], set[str]]:
    imports: dict[str, Node] = {}
    others: set[str] = set()
    for stmt in src.root.named_children:
        if stmt.type in ("import_statement", "import_from_statement"):
            module = stmt.child_by_field_name("module_name")
            for n in stmt.named_children:
                if n == module:
                    continue
                if n.type == "aliased_import":
                    imports[src.text(n.child_by_field_name("alias"))] = stmt
                elif n.type == "dotted_name":
                    imports[src.text(n).split(".")[0]] = stmt
            continue
        if stmt.type in ("function_definition", "class_definition", "decorated_definition"):
            d = (
                stmt.child_by_field_name("definition")
                if stmt.type == "decorated_definition"
                else stmt
            )
            others.add(src.text(d.child_by_field_name("name")))
            continue
        for n in walk(stmt):
            if (
                n.type == "identifier"
                and n.parent is not None
                and n.parent.type
                in (
                    "assignment",
                    "augmented_assignment",
                    "for_statement",
                    "as_pattern_target",
                    "pattern_list",
                    "tuple_pattern",
                    "global_statement",
                )
            ):
                others.add(src.text(n))
    return imports, others


def plan_py(comp: Component, src: Source, plan: Plan) -> None:
    folder = posixpath.dirname(src.rel)
    package = posixpath.join(folder, "__init__.py") in comp.originals
    if not package and folder:
        return
    stem = posixpath.splitext(posixpath.basename(src.rel))[0]
    if stem == "__init__":
        return
    imports, others = _py_bindings(src)
    cands: dict[str, tuple[Node, set[str]]] = {}
    for stmt in src.root.named_children:
        if stmt.type == "decorated_definition":
            plan.skip("decorated function (registers at import)")
            continue
        if stmt.type != "function_definition":
            continue
        name = src.text(stmt.child_by_field_name("name"))
        used = {src.text(n) for n in walk(stmt) if n.type == "identifier"}
        if used & PY_FILE_RELATIVE or of_type(stmt, "global_statement", "nonlocal_statement"):
            plan.skip("file-relative name in moved code")
            continue
        cands[name] = (stmt, used)
    changed = True
    while changed:
        changed = False
        for name, (_, used) in list(cands.items()):
            if (used - {name}) & (others - set(cands) - set(imports)):
                del cands[name]
                changed = True
    new_rel = posixpath.join(folder, f"{stem}_part.py")
    if not cands or new_rel in comp.originals:
        return
    needed = sorted(
        {imports[u] for _, used in cands.values() for u in used if u in imports},
        key=lambda n: n.start_byte,
    )
    parts: list = []
    if b"from __future__ import annotations" in src.data:
        parts.append("from __future__ import annotations\n\n")
    for stmt in needed:
        if src.text(stmt).startswith("from __future__"):
            continue
        parts += [Piece(stmt.start_byte, stmt.end_byte), "\n"]
    names = sorted(cands, key=lambda k: cands[k][0].start_byte)
    for name in names:
        stmt = cands[name][0]
        parts += ["\n\n", Piece(stmt.start_byte, stmt.end_byte), "\n"]
    plan.new_files.append(NewFile(new_rel, parts, origin=src.rel))
    module = f".{stem}_part" if package else f"{stem}_part"
    first = cands[names[0]][0]
    for name in names:
        stmt = cands[name][0]
        text = f"from {module} import {', '.join(names)}" if stmt == first else ""
        plan.edits.append(Edit(src.rel, stmt.start_byte, stmt.end_byte, [text]))
        plan.site(src.rel, src.data, stmt.start_byte, f"{name} -> {new_rel}")


def plan(comp: Component, plan_: Plan) -> None:
    for src in comp.sources("js"):
        plan_js(comp, src, plan_)
    for src in comp.sources("python"):
        plan_py(comp, src, plan_)


FAMILY = Family(6, "split", "split a file in two (functions move to their own module)", plan)
