"""The JS-family module tables the extractors share (`ctx.shared.js`): plain data, filled by
`typescript.py`, read through `common.py`."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from tree_sitter import Node as TsNode

from extractors.source import SourceFile


@dataclass
class Binding:
    """One imported local name: `import { imported as local } from spec`."""

    spec: str
    target: str | None  # rel of the resolved file, None for a package or unresolved
    imported: str  # "default", "*", or the exported name
    package: str | None
    line: int
    cjs: bool = False  # `const x = require(spec)`: x is the module's `module.exports` value


@dataclass
class ModuleInfo:
    rel: str
    sf: SourceFile
    file_id: str  # code_file node id
    owner_id: str  # what module-level code is attributed to (code_file, or a Vue component)
    imports: dict[str, Binding] = field(default_factory=dict)
    exports: dict[str, str] = field(default_factory=dict)  # exported name -> local name
    reexports: dict[str, tuple[str, str]] = field(default_factory=dict)
    star_reexports: list[str] = field(default_factory=list)
    symbols: dict[str, str] = field(default_factory=dict)  # local (dotted) name -> node id
    aliases: dict[str, str] = field(default_factory=dict)  # "obj.prop" -> local name
    consts: dict[str, TsNode] = field(default_factory=dict)  # top-level name -> value node
    anonymous: dict[int, str] = field(default_factory=dict)  # function start byte -> node id
    alias_nodes: dict[str, TsNode] = field(default_factory=dict)
    env_names: dict[str, str] = field(default_factory=dict)  # `const { A: a } = process.env`
    _starts: list[int] = field(default_factory=list)
    _ranges: list[tuple[int, int, str, int]] = field(default_factory=list)

    def add_range(self, start: int, end: int, node_id: str) -> None:
        self._ranges.append((start, end, node_id, -1))

    def seal(self) -> None:
        """Sort symbol ranges and link each to its enclosing range (ranges nest properly)."""
        self._ranges.sort(key=lambda r: (r[0], -r[1]))
        linked: list[tuple[int, int, str, int]] = []
        stack: list[int] = []
        for start, end, node_id, _ in self._ranges:
            while stack and linked[stack[-1]][1] <= start:
                stack.pop()
            linked.append((start, end, node_id, stack[-1] if stack else -1))
            stack.append(len(linked) - 1)
        self._ranges = linked
        self._starts = [r[0] for r in linked]

    def enclosing(self, byte: int) -> str:
        """The innermost symbol containing `byte`, else the module owner."""
        span = self.innermost(byte)
        return span[2] if span is not None else self.owner_id

    def innermost(self, byte: int) -> tuple[int, int, str] | None:
        """(start, end, symbol id) of the innermost symbol range containing `byte`."""
        i = bisect.bisect_right(self._starts, byte) - 1
        while i >= 0:
            start, end, node_id, parent = self._ranges[i]
            if start <= byte < end:
                return start, end, node_id
            i = parent
        return None
