"""One query walk per Python file for the Python extractors that read its imports and its
method calls (python.symbols, python.sdk_calls, engine.sdk_hosts).

A query's cost is the tree walk, not its pattern count: the eight separate queries these
extractors used cost ~5x one combined query. Each concern's patterns are kept as written;
a match is routed back to its concern by pattern index, and the matches of one concern keep
the order its own query would return (tree-sitter returns matches in document order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node as TsNode
from tree_sitter import QueryCursor

from extractors.python.model import Match, PyIndex
from extractors.source import compiled_query

if TYPE_CHECKING:
    from extractors.base import ComponentContext
    from extractors.source import SourceFile

PARTS: tuple[tuple[str, str], ...] = (
    ("imports", "[(import_statement) (import_from_statement)] @i"),
    ("http", "(call function: (attribute object: (_) @obj attribute: (identifier) @verb)) @call"),
)
_COMBINED = "\n".join(source for _, source in PARTS)
_OWNER: list[str] = []  # pattern index -> part name, filled on first use


def py_index(ctx: ComponentContext, sf: SourceFile) -> PyIndex:
    cache = ctx.shared.py_index
    index = cache.get(sf.rel)
    if index is not None:
        return index
    if not _OWNER:
        for name, source in PARTS:
            _OWNER.extend([name] * compiled_query("python", source).pattern_count)
    parts: dict[str, list[Match]] = {name: [] for name, _ in PARTS}
    owner = _OWNER
    for pattern, match in QueryCursor(compiled_query("python", _COMBINED)).matches(
        sf.tree.root_node
    ):
        parts[owner[pattern]].append(match)
    index = cache[sf.rel] = PyIndex(parts)
    return index


def py_matches(ctx: ComponentContext, sf: SourceFile, part: str) -> list[Match]:
    return py_index(ctx, sf).parts[part]


def py_captures(ctx: ComponentContext, sf: SourceFile, part: str, name: str) -> list[TsNode]:
    """Like base.captures(...)[name] for that part's query on the whole file."""
    return [node for match in py_index(ctx, sf).parts[part] for node in match.get(name, ())]


def call_args(sf: SourceFile, call: TsNode) -> tuple[list[TsNode], dict[str, TsNode]]:
    """(positional argument nodes, {keyword: value node}) of a Python call."""
    args = call.child_by_field_name("arguments")
    positional, named = [], {}
    for arg in args.named_children if args is not None else []:
        if arg.type == "keyword_argument":
            name = arg.child_by_field_name("name")
            named["" if name is None else sf.node_text(name)] = arg.child_by_field_name("value")
        elif arg.type != "comment":
            positional.append(arg)
    return positional, named
