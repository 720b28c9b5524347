"""What every family is: a number, a name, and a planner that turns one component into a
`Plan` (edits, new files, sites, skips). Planning never writes; the runner renders."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Edit, Plan
from bench.metamorphic.syntax import Source, fresh, py_import_end


@dataclass(frozen=True)
class Family:
    number: int
    key: str
    title: str
    plan_component: Callable[[Component, Plan], None]

    def plan(self, comp: Component) -> Plan:
        plan = Plan()
        self.plan_component(comp, plan)
        return plan


def claim(plan: Plan, src: Source, wanted: str) -> str | None:
    """A name that is no word of the file and not yet introduced in it by this plan."""
    taken = plan.claimed.setdefault(src.rel, set())
    name = fresh(src, wanted, taken)
    if name is not None:
        taken.add(name)
    return name


def replace(plan: Plan, src: Source, node: Node | tuple[int, int], text: str) -> bool:
    """Plan replacing a node's bytes (or a byte range); False when it overlaps a planned edit."""
    start, end = (node.start_byte, node.end_byte) if isinstance(node, Node) else node
    if plan.taken(src.rel, start, end):
        return False
    plan.edits.append(Edit(src.rel, start, end, [text]))
    return True


def insert(plan: Plan, src: Source, offset: int, text: str) -> bool:
    if any(e.file == src.rel and e.start < offset < e.end for e in plan.edits):
        return False
    plan.edits.append(Edit(src.rel, offset, offset, [text]))
    return True


def commit(plan: Plan, edits: list[Edit]) -> bool:
    """Add these edits only if none collides with one already planned (all or nothing:
    a rewrite half applied is a different program)."""

    def clash(a: Edit, b: Edit) -> bool:
        if a.file != b.file:
            return False
        if a.start == a.end or b.start == b.end:  # an insertion clashes strictly inside
            point, other = (a, b) if a.start == a.end else (b, a)
            return other.start < point.start < other.end
        return a.start < b.end and b.start < a.end

    if any(clash(a, b) for a in edits for b in plan.edits) or any(
        clash(a, b) for i, a in enumerate(edits) for b in edits[i + 1 :]
    ):
        return False
    plan.edits.extend(edits)
    return True


def line_start(src: Source, offset: int) -> int:
    return src.data.rfind(b"\n", 0, offset) + 1


def js_insert_point(src: Source) -> int:
    """After the directives ('use client'), imports and requires at the top of a JS module:
    where a new top-level declaration can go without running before what it needs."""
    pos = 0
    for child in src.root.named_children:
        t = child.type
        if t in ("comment", "hash_bang_line") or (
            t == "expression_statement"
            and child.named_children
            and child.named_children[0].type == "string"
        ):
            pos = child.end_byte
            continue
        if t == "import_statement" or (
            t in ("lexical_declaration", "variable_declaration") and _is_require(src, child)
        ):
            pos = child.end_byte
            continue
        break
    return pos


def _is_require(src: Source, decl: Node) -> bool:
    for d in decl.named_children:
        value = d.child_by_field_name("value")
        if value is None:
            return False
        fn = value.child_by_field_name("function") if value.type == "call_expression" else None
        if fn is None or src.text(fn) != "require":
            return False
    return bool(decl.named_children)


def py_os_name(src: Source, plan: Plan) -> str | None:
    """The name `os` is bound to at module level (adding `import os` once when needed)."""
    if (src.rel, "os") in plan.memo:
        return plan.memo[(src.rel, "os")]
    plan.memo[(src.rel, "os")] = _bind_os(src, plan)
    return plan.memo[(src.rel, "os")]


def _bind_os(src: Source, plan: Plan) -> str | None:
    for stmt in src.root.named_children:
        if stmt.type == "import_statement" and src.text(stmt).strip() == "import os":
            return "os"
    alias = "os" if not src.has_word("os") else claim(plan, src, "_kb_os")
    if alias is None:
        return None
    at = py_import_end(src)
    line = "import os" if alias == "os" else f"import os as {alias}"
    insert(plan, src, at, ("\n" if at else "") + line + ("\n" if not at else ""))
    return alias
