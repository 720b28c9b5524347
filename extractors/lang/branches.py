"""Which `if` conditions a statement runs under, for JS/TS and Python alike (both grammars
name an `if_statement`'s parts `condition`, `consequence` and `alternative`).

The evaluator is flow-insensitive: every assignment of a name is one of its values, every
`return` one of a function's results. Real code chooses with conditions it can often
decide statically (`if host is None: … else: …`, `if (!base) return DEFAULT`), so a value
written in a branch that cannot run, or a `return` after one that always does, is left out.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

EXITS = {"return_statement", "raise_statement", "throw_statement"}
BLOCKS = {"block", "statement_block"}


def guards(node: TsNode, stop: TsNode | None) -> list[tuple[TsNode, bool]]:
    """(condition, whether it must hold) of every `if` around `node` inside `stop`: in a
    consequence it holds, in an `else` (or `elif`) the `if`'s condition does not."""
    out: list[tuple[TsNode, bool]] = []
    child, parent = node, node.parent
    while parent is not None and parent != stop:
        if parent.type in ("if_statement", "elif_clause"):
            condition = parent.child_by_field_name("condition")
            consequence = parent.child_by_field_name("consequence")
            if condition is not None and child == consequence:
                out.append((condition, True))
            elif condition is not None and child.type in ("else_clause", "elif_clause"):
                out.append((condition, False))
        child, parent = parent, parent.parent
    return out


def exits_before(node: TsNode, stop: TsNode | None, cache: dict) -> list[TsNode]:
    """The conditions of the `if`s before `node`, in the blocks around it inside `stop`, that
    have no `else` and whose body ends by leaving the function (`if (!x) return d;`): when
    one of them holds, `node` never runs."""
    out: list[TsNode] = []
    child, parent = node, node.parent
    while parent is not None and parent != stop:
        if parent.type in BLOCKS or parent.type in ("module", "program"):
            out += [test for at, test in _exits_of(parent, cache) if at < child.start_byte]
        child, parent = parent, parent.parent
    return out


def _exits_of(block: TsNode, cache: dict) -> list[tuple[int, TsNode]]:
    """(start, condition) of a block's own `if`s that always leave, once per block (`cache`:
    the file's, by node id): bundled code has blocks of thousands of statements, asked
    about for each of them."""
    found = cache.get(block.id)
    if found is None:
        found = cache[block.id] = [
            (stmt.start_byte, stmt.child_by_field_name("condition"))
            for stmt in block.named_children
            if stmt.type == "if_statement" and _always_exits(stmt)
            and stmt.child_by_field_name("condition") is not None
        ]  # fmt: skip
    return found


def _always_exits(branch: TsNode) -> bool:
    if branch.child_by_field_name("alternative") is not None:
        return False
    body = branch.child_by_field_name("consequence")
    if body is not None and body.type in BLOCKS:
        body = body.named_children[-1] if body.named_children else None
    return body is not None and body.type in EXITS


CONDITIONAL = {
    "if_statement", "elif_clause", "else_clause", "for_statement", "for_in_statement",
    "while_statement", "do_statement", "try_statement", "except_clause", "catch_clause",
    "finally_clause", "switch_statement", "switch_case", "with_statement", "match_statement",
    "case_clause", "switch_default",
    # an assignment inside an expression that may not evaluate it: `a || (r = x)`, `c ? … : …`
    "binary_expression", "boolean_operator", "ternary_expression", "conditional_expression",
}  # fmt: skip


def unconditional(node: TsNode, stop: TsNode | None) -> bool:
    """Whether `node` runs whenever the function `stop` runs (no `if`, loop or `try` between)."""
    parent = node.parent
    while parent is not None and parent != stop:
        if parent.type in CONDITIONAL:
            return False
        parent = parent.parent
    return True
