"""One project's view of the context graph: its partition plus the shared layer.

A project-scoped graph holds the project's code partition and, from `_global`, only
nodes that belong to this project or to nobody (catalog `_global:*`, the KB's own
`_kb:*`), and edges between those. So another project's components, even through a
shared catalog node, never appear in an answer scoped to this project.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import polars as pl

from warehouse.reader import dict_rows

SHARED_PREFIXES = ("_global:", "_kb:")
SHARED_PROJECTS = {None, "", "_global", "_kb"}
# unresolved rows that can hide a call edge come first; unresolved imports last
UNRESOLVED_RANK = {"http_call": 0, "call": 1, "handler": 2, "route": 2, "import": 9}


@dataclass
class ProjectGraph:
    project: str
    g: nx.MultiDiGraph
    by_name: dict[str, list[str]] = field(default_factory=dict)
    by_file: dict[str, list[str]] = field(default_factory=dict)
    unresolved: list[dict[str, Any]] = field(default_factory=list)
    components: set[str] = field(default_factory=set)
    by_kind: dict[str, list[str]] = field(default_factory=dict)

    def kind_index(self, kind: str) -> list[str]:
        """This project's nodes of one kind (ids)."""
        return self.by_kind.get(kind, [])

    def node(self, node_id: str) -> dict[str, Any]:
        return self.g.nodes[node_id]

    def attrs(self, node_id: str) -> dict[str, Any]:
        return self.g.nodes[node_id].get("attrs") or {}

    def unresolved_of(self, component: str | None, files: set[str] | None = None) -> list[dict]:
        rows = [r for r in self.unresolved if component is None or r["component"] == component]
        rows.sort(key=lambda r: (UNRESOLVED_RANK.get(str(r.get("kind")), 5), r["file"], r["line"]))
        if files:
            near = [r for r in rows if r["file"] in files]
            return near or rows
        return rows


def hiding(
    pg: ProjectGraph, component: str | None, files: set[str] | None = None
) -> tuple[list[dict], int]:
    """Unresolved rows that could hide a call edge (no imports), and how many imports were left out."""
    rows = pg.unresolved_of(component, files)
    calls = [r for r in rows if r.get("kind") != "import"]
    return calls, len(rows) - len(calls)


def _keep_shared(row: dict[str, Any], project: str) -> bool:
    node_id = row["id"]
    if node_id.startswith(SHARED_PREFIXES):
        return True
    if node_id.startswith(project + ":") or node_id.startswith(project + "/"):
        return True
    return row.get("project") == project or (
        row.get("project") in SHARED_PROJECTS and ":" in node_id and node_id.startswith("_")
    )


def _rows(df: pl.DataFrame) -> list[dict[str, Any]]:
    """Rows as dicts, `attrs` already parsed (node and edge data hold dicts)."""
    return dict_rows(df)


def _node_data(row: dict[str, Any]) -> dict[str, Any]:
    keys = ("kind", "project", "component", "file", "line", "end_line", "attrs")
    data = {k: row.get(k) for k in keys}
    data["name"] = row.get("name") or row["id"]
    return data


def _edge_data(row: dict[str, Any]) -> dict[str, Any]:
    return {k: row.get(k) for k in ("type", "file", "line", "component", "attrs")}


def build_graph(
    project: str,
    own: dict[str, pl.DataFrame],
    shared: dict[str, pl.DataFrame],
) -> ProjectGraph:
    """Graph of `project` from its own tables and the `_global` tables."""
    g = nx.MultiDiGraph()
    pg = ProjectGraph(project, g)
    shared_nodes = [
        r for r in _rows(shared.get("nodes", pl.DataFrame())) if _keep_shared(r, project)
    ]
    node_rows = _rows(own.get("nodes", pl.DataFrame())) + shared_nodes
    g.add_nodes_from((row["id"], _node_data(row)) for row in node_rows)
    for row in node_rows:
        node_id = row["id"]
        pg.by_name.setdefault(str(row.get("name") or "").lower(), []).append(node_id)
        if row.get("file"):
            pg.by_file.setdefault(row["file"], []).append(node_id)
        if row.get("component") and row.get("project") == project:
            pg.components.add(row["component"])
            pg.by_kind.setdefault(str(row.get("kind")), []).append(node_id)
    nodes = g.nodes
    edge_rows = _rows(own.get("edges", pl.DataFrame())) + _rows(shared.get("edges", pl.DataFrame()))
    g.add_edges_from(
        (row["src"], row["dst"], _edge_data(row))
        for row in edge_rows
        if row["src"] in nodes and row["dst"] in nodes
    )
    pg.unresolved = _rows(own.get("unresolved", pl.DataFrame()))
    return pg


def folder_of(path: str | None) -> str:
    return os.path.dirname(path or "") or "."
