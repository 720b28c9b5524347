"""Family 7 for Python: a top-level function becomes a `@staticmethod` of a class, or the
function a factory returns (`name = use_kb_name()` first in each caller). Its lines are
re-indented except those that continue a multi-line string (their text is the value)."""

from __future__ import annotations

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Edit, Piece, Plan
from bench.metamorphic.families.base import claim, commit
from bench.metamorphic.syntax import (
    Source,
    of_type,
    py_in_class_body,
    py_is_parameter,
    py_name_nodes,
)


def _indented(src: Source, node: Node, by: str) -> list:
    """The node's lines as pieces, each prefixed by `by` except lines that continue a
    multi-line string (their text is part of the value)."""
    data = src.data
    strings = [
        (s.start_byte, s.end_byte)
        for s in of_type(node, "string")
        if b"\n" in data[s.start_byte : s.end_byte]
    ]
    parts: list = []
    pos = node.start_byte
    line_start = data.rfind(b"\n", 0, pos) + 1
    first = True
    while pos < node.end_byte:
        nl = data.find(b"\n", pos, node.end_byte)
        end = node.end_byte if nl < 0 else nl + 1
        inside = any(a < line_start < b for a, b in strings) and not first
        if data[pos:end].strip() and not inside:
            parts.append(by)
        parts.append(Piece(pos, end))
        first = False
        pos = line_start = end
    return parts


def plan_py(comp: Component, src: Source, plan: Plan, counter: list[int]) -> None:
    strings = b" ".join(src.data[s.start_byte : s.end_byte] for s in of_type(src.root, "string"))
    for stmt in src.root.named_children:
        if stmt.type != "function_definition":
            continue
        name = src.text(stmt.child_by_field_name("name"))
        uses = [
            n
            for n in py_name_nodes(src, name)
            if not (stmt.start_byte <= n.start_byte < stmt.end_byte)
        ]
        inner = [
            n
            for n in py_name_nodes(src, name)
            if stmt.start_byte <= n.start_byte < stmt.end_byte
            and n != stmt.child_by_field_name("name")
        ]
        if not uses:
            continue
        if (
            inner
            or name.encode() in strings
            or any(
                py_is_parameter(n)
                or py_in_class_body(n)
                or n.parent.type in ("assignment", "global_statement")
                for n in uses
            )
        ):
            plan.skip("name rebound, recursive or spelled in a string")
            continue
        if any(
            other.has_word(name)
            for other in comp.sources("python", tests=True)
            if other.rel != src.rel
        ):
            plan.skip("used by another module")
            continue
        if (
            stmt.start_byte == 0
            or src.data[line_start(src, stmt.start_byte) : stmt.start_byte].strip()
        ):
            continue
        calls_only = all(
            n.parent.type == "call" and n.parent.child_by_field_name("function") == n for n in uses
        )
        variant = counter[0] % 2
        counter[0] += 1
        if variant == 1 and not calls_only:
            variant = 0
        if variant == 1 and any(
            _py_def_of(n) is not None
            and of_type(_py_def_of(n), "global_statement", "nonlocal_statement")
            for n in uses
        ):
            variant = 0
        if any(plan.taken(src.rel, n.start_byte, n.end_byte) for n in uses):
            continue
        if variant == 0:
            cls = claim(plan, src, "KbApi")
            if cls is None:
                continue
            parts = [f"class {cls}:\n    @staticmethod\n", *_indented(src, stmt, "    ")]
            edits = [Edit(src.rel, stmt.start_byte, stmt.end_byte, parts)]
            edits += [Edit(src.rel, n.start_byte, n.end_byte, [f"{cls}.{name}"]) for n in uses]
            if not commit(plan, edits):
                plan.skip("collides with another rewrite")
                continue
            plan.site(src.rel, src.data, stmt.start_byte, f"{name} -> staticmethod {cls}.{name}")
        else:
            factory = claim(plan, src, f"use_kb_{name}")
            if factory is None:
                continue
            parts = [f"def {factory}():\n", *_indented(src, stmt, "    "), f"\n    return {name}"]
            edits = [Edit(src.rel, stmt.start_byte, stmt.end_byte, parts)]
            seen: set[int] = set()
            for n in uses:
                fn = _py_def_of(n)
                if fn is None:
                    edits.append(Edit(src.rel, n.start_byte, n.end_byte, [f"{factory}()"]))
                    continue
                if fn.id in seen:
                    continue
                seen.add(fn.id)
                body = fn.child_by_field_name("body")
                stmts = [c for c in body.named_children if c.type != "comment"]
                first = stmts[0] if stmts else None
                if (
                    first is not None
                    and first.type in ("string", "expression_statement")
                    and src.text(first).startswith(('"', "'"))
                    and len(stmts) > 1
                ):
                    first = stmts[1]
                if first is None:
                    continue
                ind = src.data[line_start(src, first.start_byte) : first.start_byte].decode()
                edits.append(
                    Edit(
                        src.rel,
                        first.start_byte,
                        first.start_byte,
                        [f"{name} = {factory}()\n{ind}"],
                    )
                )
            if not commit(plan, edits):
                plan.skip("collides with another rewrite")
                continue
            plan.site(
                src.rel, src.data, stmt.start_byte, f"{name} -> returned by factory {factory}()"
            )


def _py_def_of(node: Node) -> Node | None:
    """The function whose body a use is in (None at module level, in a lambda or a class)."""
    p = node.parent
    while p is not None:
        if p.type == "function_definition":
            return p
        if p.type in ("lambda", "class_definition"):
            return None
        p = p.parent
    return None


def line_start(src: Source, offset: int) -> int:
    return src.data.rfind(b"\n", 0, offset) + 1
