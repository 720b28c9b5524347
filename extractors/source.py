"""A source file of a component and the tree-sitter plumbing around it: one parse per file
(`SourceFile.tree`, cached), queries compiled once per process (`compiled_query`), captures
and matches in document order."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from tree_sitter import Node as TsNode
from tree_sitter import Parser, Query, QueryCursor, Tree
from tree_sitter_language_pack import get_language, get_parser


@cache
def parser_for(language: str) -> Parser:
    return get_parser(language)  # type: ignore[arg-type]


@cache
def compiled_query(language: str, source: str) -> Query:
    """A tree-sitter query, compiled once per (language, source) for the process."""
    return Query(get_language(language), source)  # type: ignore[arg-type]


def captures(language: str, source: str, node: TsNode) -> dict[str, list[TsNode]]:
    """Captured nodes by name, in match (document) order.

    Built from `matches`: py-tree-sitter 0.26's own `QueryCursor.captures` returns each list
    in an order that changes from process to process, which made "first line" facts flaky.
    """
    out: dict[str, list[TsNode]] = {}
    for _, match in QueryCursor(compiled_query(language, source)).matches(node):
        for name, nodes in match.items():
            found = out.get(name)
            if found is None:
                out[name] = list(nodes)
            else:
                found.extend(nodes)
    return out


def named_descendants(node: TsNode) -> Iterator[TsNode]:
    """`node` and its named descendants in document order, walked with a tree cursor.

    Walking `named_children` instead keeps every visited node's children list on its parent's
    wrapper for as long as the root is held (py-tree-sitter caches them): a walk of a whole
    file kept ~15 bytes of Python objects per byte of source alive with the parsed file."""
    cursor = node.walk()
    while True:
        current = cursor.node  # each read of `cursor.node` makes a new wrapper
        if current.is_named:
            yield current
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


def matches(language: str, source: str, node: TsNode) -> list[tuple[int, dict[str, list[TsNode]]]]:
    return QueryCursor(compiled_query(language, source)).matches(node)


@dataclass
class SourceFile:
    rel: str  # POSIX path relative to the component root
    path: Path
    data: bytes
    language: str | None
    _tree: Tree | None = field(default=None, repr=False)
    # Set on a virtual file carved out of another one (a Vue SFC's <script> block, padded so
    # lines and columns match): the key of the real file in ctx.files. `rel` stays the same.
    virtual_of: str | None = None

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")

    @property
    def tree(self) -> Tree:
        """The parse tree, built on first use and shared by every extractor."""
        if self._tree is None:
            if self.language is None:
                raise ValueError(f"{self.rel}: no grammar for this file")
            self._tree = parser_for(self.language).parse(self.data)
        return self._tree

    def node_text(self, node: TsNode) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", "replace")

    @staticmethod
    def line(node: TsNode) -> int:
        return node.start_point[0] + 1

    @staticmethod
    def end_line(node: TsNode) -> int:
        return node.end_point[0] + 1
