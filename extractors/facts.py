"""The facts an extractor emits: plain dataclasses, the code layer's boundary type.

Ids follow the contract in spec/mcp-tools.md:
`<project>/<component>:<kind>:<qualifier>` for code nodes. `file` is relative to the
component's repo folder (POSIX), `line` is 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Node:
    id: str
    kind: str
    name: str
    project: str | None
    component: str | None
    file: str | None = None
    line: int | None = None
    end_line: int | None = None
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Edge:
    src: str
    dst: str
    type: str
    project: str | None
    component: str | None
    file: str | None = None
    line: int | None = None
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Unresolved:
    """Something the static graph could not resolve (a dynamic URL, an unknown import)."""

    project: str
    component: str
    file: str
    line: int
    kind: str
    expr: str
    reason: str


@dataclass
class CatalogRow:
    """One row for a `catalog_<table>` table: packages, middleware, hosts, tf_types, env_vars.

    `attrs` carries the table's extra columns (packages: ecosystem, package, version, declared).
    """

    table: str
    project: str
    component: str
    name: str
    file: str | None = None
    line: int | None = None
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass
class ExtractProblem:
    """A file we skipped or could only partly read; lands in the `problems` table."""

    severity: str  # "error" | "warning" | "info"
    path: str
    line: int | None
    rule: str
    message: str


@dataclass
class ComponentFacts:
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    unresolved: list[Unresolved] = field(default_factory=list)
    catalog: list[CatalogRow] = field(default_factory=list)
    problems: list[ExtractProblem] = field(default_factory=list)

    def extend(self, other: ComponentFacts) -> None:
        self.nodes.extend(other.nodes)
        self.edges.extend(other.edges)
        self.unresolved.extend(other.unresolved)
        self.catalog.extend(other.catalog)
        self.problems.extend(other.problems)
