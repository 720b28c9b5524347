"""CALLS_FN edges from the engine's evaluation of each call's callee, for every language
family (`js/calls.py`, `python/calls.py` say what a callee value's symbol is): one edge per
caller/callee pair and file, at the first call's line, from the symbol the call is written
in (or the code_file, for module-level code); a call of the caller's own code is no edge."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from tree_sitter import Node as TsNode

if TYPE_CHECKING:
    from extractors.base import ComponentContext
    from extractors.engine.evaluate import Evaluator
    from extractors.lang.base import FileAdapter

# (file, its module table, its adapter, the call) -> (caller symbol, callee symbol) pairs
CallPairs = Callable[[str, Any, "FileAdapter", TsNode], Iterable[tuple[str, "str | None"]]]


def emit_call_edges(ctx: ComponentContext, mods: dict[str, Any], ev: Evaluator,
                    pairs_of: CallPairs) -> None:  # fmt: skip
    for rel in sorted(mods):
        mod = mods[rel]
        a = ev.program.adapter(rel)
        if a is None:
            continue
        seen: set[tuple[str, str]] = set()
        for call in a.calls():
            for caller, callee in pairs_of(rel, mod, a, call):
                if callee is None or callee == caller or (caller, callee) in seen:
                    continue
                seen.add((caller, callee))
                ctx.add_edge(caller, callee, "CALLS_FN", rel, call.start_point[0] + 1)
