"""Family 5: reach a module through a re-export (a barrel `index` module) or a namespace
import (`import * as api`).

Only imports of the component's own modules (relative, resolvable to a file) are
rewritten, alternating the two forms. The barrel is one new folder per target module
whose `index` re-exports it alone (`export * from '../m'`, plus `default` when it has
one; `module.exports = require('../m')` for CommonJS; a Python package `__init__` doing
`from ..m import a, b`): importing it evaluates exactly the module it did before. The
namespace form turns each use of `a` into `ns.a`: safe when no inner scope rebinds the
name, nothing exports or shorthand-uses it unhandled, and the imported function does not
read `this` (a call through the namespace passes it). Python's namespace form imports
the module (`from . import m as kb_m`) and is refused when a name is itself a submodule.
"""

from __future__ import annotations

import posixpath
import re

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import NewFile, Plan
from bench.metamorphic.families.base import Family, claim, replace
from bench.metamorphic.syntax import (
    Source,
    is_js_binding,
    js_name_nodes,
    lexical_this,
    module_kind,
    of_type,
    py_in_class_body,
    py_is_parameter,
    py_name_nodes,
)

JS_EXTS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs")


def resolve_js(comp: Component, importer: str, spec: str) -> str | None:
    if not spec.startswith("."):
        return None
    base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec))
    for cand in [base, *(base + e for e in JS_EXTS), *(f"{base}/index{e}" for e in JS_EXTS)]:
        if cand in comp.originals and cand.endswith(JS_EXTS):
            return cand
    return None


def _this_using_export(comp: Component, target: str, name: str) -> bool:
    """Whether `name` in the target module is a function (not an arrow) that reads `this`."""
    src = comp.source(target)
    if src is None:
        return True
    for n in of_type(
        src.root,
        "function_declaration",
        "function_expression",
        "function",
        "generator_function_declaration",
    ):
        fname = n.child_by_field_name("name")
        owner = (
            n.parent.child_by_field_name("name")
            if n.parent is not None and n.parent.type == "variable_declarator"
            else None
        )
        named = (fname is not None and src.text(fname) == name) or (
            owner is not None and src.text(owner) == name
        )
        if named and lexical_this(src, n.child_by_field_name("body") or n):
            return True
    return False


def _js_namespace(comp: Component, src: Source, plan: Plan, stmt: Node, target: str) -> None:
    clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
    named = (
        next((c for c in clause.named_children if c.type == "named_imports"), None)
        if clause
        else None
    )
    if (
        named is None
        or b"import type" in src.data[stmt.start_byte : stmt.end_byte]
        or "type " in src.text(named)
    ):
        return
    stem = re.sub(r"\W", "_", posixpath.basename(target).split(".")[0])
    ns = claim(plan, src, "kb" + stem[:1].upper() + stem[1:])
    if ns is None:
        return
    specs = [s for s in named.named_children if s.type == "import_specifier"]
    edits: list[tuple[Node, str]] = []
    for spec in specs:
        imported = src.text(spec.child_by_field_name("name"))
        local_node = spec.child_by_field_name("alias") or spec.child_by_field_name("name")
        local = src.text(local_node)
        if _this_using_export(comp, target, imported):
            plan.skip("imported function reads this")
            return
        for tok in js_name_nodes(src, local, with_types=True):
            if tok == local_node or tok.parent == spec:
                continue
            if is_js_binding(tok) or tok.parent.type in ("export_specifier",):
                plan.skip("name rebound or re-exported")
                return
            if tok.type == "shorthand_property_identifier":
                edits.append((tok, f"{local}: {ns}.{imported}"))
            elif tok.type == "shorthand_property_identifier_pattern":
                plan.skip("name in a destructuring pattern")
                return
            else:
                edits.append((tok, f"{ns}.{imported}"))
    others = [c for c in clause.named_children if c.type != "named_imports"]
    head = (src.text(others[0]) + ", ") if others else ""
    if any(plan.taken(src.rel, t.start_byte, t.end_byte) for t, _ in edits) or not replace(
        plan, src, clause, f"{head}* as {ns}"
    ):
        return
    for tok, text in edits:
        replace(plan, src, tok, text)
    plan.site(src.rel, src.data, stmt.start_byte, f"named imports of {target} -> import * as {ns}")


def _js_barrel(
    comp: Component, src: Source, plan: Plan, source_node: Node, target: str, made: dict[str, str]
) -> None:
    folder = made.get(target)
    if folder is None:
        stem = posixpath.splitext(posixpath.basename(target))[0]
        folder = posixpath.join(posixpath.dirname(target), f"kb-{stem}")
        if any(k.startswith(folder + "/") or k == folder for k in comp.originals):
            return
        tsrc = comp.source(target)
        ext = ".ts" if target.endswith((".ts", ".tsx")) else ".js"
        rel = "../" + posixpath.basename(target).rsplit(".", 1)[0]
        if tsrc is not None and module_kind(tsrc) == "cjs":
            text = f"module.exports = require('{rel}');\n"
        else:
            explicit = tsrc is not None and comp.explicit_extensions(tsrc)
            target_spec = rel + (posixpath.splitext(target)[1] if explicit else "")
            text = f"export * from '{target_spec}';\n"
            if tsrc is not None and b"export default" in tsrc.data:
                text += f"export {{ default }} from '{target_spec}';\n"
        plan.new_files.append(NewFile(f"{folder}/index{ext}", [text]))
        made[target] = folder
    spec = posixpath.relpath(folder, posixpath.dirname(src.rel) or ".")
    spec = spec if spec.startswith(".") else "./" + spec
    if module_kind(src) == "esm" and comp.explicit_extensions(src):
        spec += (
            f"/index{posixpath.splitext(target)[1] if target.endswith(('.js', '.mjs')) else '.js'}"
        )
    quote = src.text(source_node)[0]
    if replace(plan, src, source_node, f"{quote}{spec}{quote}"):
        plan.site(
            src.rel,
            src.data,
            source_node.start_byte,
            f"import of {target} -> through barrel {folder}/index",
        )


def plan_js(comp: Component, plan: Plan, counter: list[int], made: dict[str, str]) -> None:
    for src in comp.sources("js"):
        for node in of_type(src.root, "import_statement", "call_expression"):
            if node.type == "import_statement":
                source = node.child_by_field_name("source")
            else:
                fn = node.child_by_field_name("function")
                args = node.child_by_field_name("arguments")
                if (
                    fn is None
                    or src.text(fn) != "require"
                    or args is None
                    or args.named_child_count != 1
                    or args.named_children[0].type != "string"
                ):
                    continue
                source = args.named_children[0]
            if source is None:
                continue
            target = resolve_js(comp, src.rel, src.text(source)[1:-1])
            if target is None:
                continue
            counter[0] += 1
            if counter[0] % 2 == 1 and node.type == "import_statement" and not src.is_vue:
                before = len(plan.sites)
                _js_namespace(comp, src, plan, node, target)
                if len(plan.sites) > before:
                    continue
            _js_barrel(comp, src, plan, source, target, made)


# --- Python -------------------------------------------------------------------------------


def _py_module_file(comp: Component, src: Source, stmt: Node) -> tuple[str, str] | None:
    """(module file, dotted or relative module text) of a `from X import ...` in the component."""
    module = stmt.child_by_field_name("module_name")
    if module is None:
        return None
    text = src.text(module)
    if text.startswith("."):
        dots = len(text) - len(text.lstrip("."))
        base = posixpath.dirname(src.rel)
        for _ in range(dots - 1):
            base = posixpath.dirname(base)
        path = posixpath.join(base, *text.lstrip(".").split(".")) if text.lstrip(".") else base
    else:
        path = text.replace(".", "/")
        roots = {r.split("/")[0] for r in comp.originals if r.endswith(".py")}
        if path.split("/")[0] not in roots:
            return None
    for cand in (path + ".py", path + "/__init__.py"):
        if cand in comp.originals:
            return cand, text
    return None


def plan_py(comp: Component, plan: Plan, counter: list[int]) -> None:
    for src in comp.sources("python"):
        strings = b" ".join(
            src.data[s.start_byte : s.end_byte] for s in of_type(src.root, "string")
        )
        for stmt in src.root.named_children:
            if stmt.type != "import_from_statement":
                continue
            found = _py_module_file(comp, src, stmt)
            if found is None or found[0].endswith("__init__.py"):
                continue
            target, module_text = found
            names = [n for n in stmt.named_children if n != stmt.child_by_field_name("module_name")]
            if not names or any(n.type not in ("dotted_name", "aliased_import") for n in names):
                continue
            counter[0] += 1
            pkg_dir = posixpath.dirname(target)
            pairs = []
            for n in names:
                imported = src.text(
                    n.child_by_field_name("name") if n.type == "aliased_import" else n
                )
                local = (
                    src.text(n.child_by_field_name("alias"))
                    if n.type == "aliased_import"
                    else imported
                )
                pairs.append((imported, local))
            if any(
                f"{pkg_dir}/{posixpath.splitext(posixpath.basename(target))[0]}/{imp}.py"
                in comp.originals
                for imp, _ in pairs
            ):
                plan.skip("imported name is a submodule")
                continue
            if counter[0] % 2 == 1:
                _py_namespace(comp, src, plan, stmt, target, module_text, pairs, strings)
            else:
                _py_barrel(comp, src, plan, stmt, target, module_text, pairs)


def _py_namespace(comp, src, plan, stmt, target, module_text, pairs, strings) -> None:
    stem = posixpath.splitext(posixpath.basename(target))[0]
    ns = claim(plan, src, f"kb_{stem}")
    if ns is None:
        return
    edits = []
    for imported, local in pairs:
        if local.encode() in strings:
            plan.skip("named inside a string")
            return
        uses = [n for n in py_name_nodes(src, local) if not _inside(n, stmt)]
        if any(py_is_parameter(n) or py_in_class_body(n) or _is_assigned(n) for n in uses):
            plan.skip("name rebound locally")
            return
        edits += [(n, f"{ns}.{imported}") for n in uses]
    if module_text.startswith("."):
        parent, _, last = module_text.rpartition(".")
        parent = parent if parent.strip(".") or parent else "."
        parent = (
            parent + "." if parent.endswith(".") is False and parent.strip(".") == "" else parent
        )
        line = f"from {parent or '.'} import {last} as {ns}"
        init = posixpath.join(posixpath.dirname(target), "__init__.py")
        if init in comp.originals and re.search(
            rb"\b" + last.encode() + rb"\b", comp.originals[init]
        ):
            plan.skip("package __init__ names the module")
            return
    else:
        line = f"import {module_text} as {ns}"
    if not replace(plan, src, stmt, line):
        return
    for n, text in edits:
        replace(plan, src, n, text)
    plan.site(src.rel, src.data, stmt.start_byte, f"from {module_text} import … -> {line}")


def _py_barrel(comp, src, plan, stmt, target, module_text, pairs) -> None:
    stem = posixpath.splitext(posixpath.basename(target))[0]
    folder = posixpath.join(posixpath.dirname(target), f"kb_{stem}")
    init = f"{folder}/__init__.py"
    names = ", ".join(imp for imp, _ in pairs)
    if any(nf.rel == init for nf in plan.new_files):
        existing = next(nf for nf in plan.new_files if nf.rel == init)
        existing.parts.append(f"from ..{stem} import {names}\n")
    elif any(k.startswith(folder + "/") for k in comp.originals):
        return
    else:
        plan.new_files.append(NewFile(init, [f"from ..{stem} import {names}\n"]))
    module_node = stmt.child_by_field_name("module_name")
    new_module = (
        module_text + f".kb_{stem}".replace(f".{stem}.kb_", ".kb_")
        if False
        else _barrel_module(module_text, stem)
    )
    if replace(plan, src, module_node, new_module):
        plan.site(
            src.rel, src.data, stmt.start_byte, f"from {module_text} -> through package {folder}"
        )


def _barrel_module(module_text: str, stem: str) -> str:
    """`app.services.crm` -> `app.services.kb_crm`; `.crm` -> `.kb_crm`."""
    head, sep, last = module_text.rpartition(".")
    return f"{head}{sep}kb_{last}" if last == stem else module_text


def _inside(node: Node, stmt: Node) -> bool:
    return stmt.start_byte <= node.start_byte < stmt.end_byte


def _is_assigned(node: Node) -> bool:
    p = node.parent
    return (
        p is not None
        and p.type in ("assignment", "augmented_assignment", "for_statement")
        and p.child_by_field_name("left") == node
    )


def plan(comp: Component, plan_: Plan) -> None:
    counter = [0]
    plan_js(comp, plan_, counter, {})
    plan_py(comp, plan_, [0])


FAMILY = Family(5, "reexport", "re-export through a barrel module, or import * as ns", plan)
