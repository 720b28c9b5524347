"""Shape the published warehouse into what the viewer page draws.

One partition's nodes and edges go out in one JSON document, with the graph vocabulary
(node kinds and edge types per layer, from `vocab`) that the legend groups and orders
them by. A project partition also carries the `_global` knowledge nodes of that project
(project, component, env, secret, ...) and the catalog nodes its components point at,
so bridge edges such as component -HAS_CODE-> code_file and env_var -RESOLVES_TO-> secret
connect on screen.
Edges whose ends are not both present are dropped and counted, never drawn dangling.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from vocab import EDGE_TYPES, NODE_KINDS
from warehouse.reader import GLOBAL, Warehouse, dict_rows

NODE_COLUMNS = ("id", "kind", "name", "project", "component", "file", "line", "end_line")
EDGE_COLUMNS = ("src", "dst", "type", "project", "component", "file", "line")


# Node kinds and edge types per layer (vocab/): the legend groups and orders by them.
VOCABULARY = {"node_kinds": NODE_KINDS, "edge_types": EDGE_TYPES}


class UnknownPartition(Exception):
    """The page asked for a partition the published build does not have."""


def _rows(df: pl.DataFrame, columns: tuple[str, ...]) -> list[dict[str, Any]]:
    if df.height == 0:
        return []
    present = [c for c in columns if c in df.columns]
    out = dict_rows(df.select([*present, "attrs"] if "attrs" in df.columns else present))
    for row in out:
        row.setdefault("attrs", {})
        for key in [k for k, v in row.items() if v is None]:
            del row[key]
    return out


# (data dir, build id, partition) -> (nodes, edges) as drawn; a build never changes.
_DRAWN: dict[tuple[str, str, str], tuple[int, int]] = {}


def _drawn_counts(wh: Warehouse, build_id: str, name: str) -> tuple[int, int]:
    """What the page draws for `name` — its own rows plus the global layer it connects to
    — so the menu's count is the footer's count (not the partition's stored rows)."""
    key = (str(wh.data_dir), build_id, name)
    if key not in _DRAWN:
        drawn = graph(wh, name)
        _DRAWN[key] = (len(drawn["nodes"]), len(drawn["edges"]))
    return _DRAWN[key]


def partitions(wh: Warehouse) -> dict[str, Any]:
    """Partition names with the node/edge counts the page draws for each, projects first
    and `_global` last."""
    manifest = wh.manifest()
    items = []
    for name in sorted(manifest["partitions"]):
        nodes, edges = _drawn_counts(wh, str(manifest.get("build_id")), name)
        items.append({"name": name, "nodes": nodes, "edges": edges})
    items.sort(key=lambda p: (p["name"] == GLOBAL, p["name"]))
    return {
        "build_id": manifest.get("build_id"),
        "built_at": manifest.get("built_at"),
        "partitions": items,
    }


def graph(wh: Warehouse, partition: str) -> dict[str, Any]:
    """Nodes and edges of `partition`, plus the global layer it connects to."""
    names = wh.partitions()
    if partition not in names:
        raise UnknownPartition(partition)
    nodes = _rows(wh.read(partition, "nodes"), NODE_COLUMNS)
    edges = _rows(wh.read(partition, "edges"), EDGE_COLUMNS)
    if partition != GLOBAL and GLOBAL in names:
        nodes, edges = _with_global(wh, partition, nodes, edges)
    ids = {n["id"] for n in nodes}
    kept = [e for e in edges if e["src"] in ids and e["dst"] in ids]
    return {
        "partition": partition,
        "build_id": wh.manifest().get("build_id"),
        "nodes": nodes,
        "edges": kept,
        "dropped_edges": len(edges) - len(kept),
        "vocabulary": VOCABULARY,
    }


def _with_global(
    wh: Warehouse, project: str, nodes: list[dict[str, Any]], edges: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Add the project's own knowledge nodes, then global edges touching the set."""
    g_nodes = _rows(wh.read(GLOBAL, "nodes"), NODE_COLUMNS)
    g_edges = _rows(wh.read(GLOBAL, "edges"), EDGE_COLUMNS)
    by_id = {n["id"]: n for n in g_nodes}
    ids = {n["id"] for n in nodes}
    added = [
        n
        for n in g_nodes
        if n["id"] not in ids and (n.get("project") == project or n["id"].startswith(project + ":"))
    ]
    ids.update(n["id"] for n in added)
    # Catalog edges (component -> package, host, ...) start at one of our nodes.
    extra_edges = [e for e in g_edges if e["src"] in ids or e.get("project") == project]
    for edge in extra_edges + edges:
        for end in (edge["src"], edge["dst"]):
            if end not in ids and end in by_id:
                added.append(by_id[end])
                ids.add(end)
    return nodes + added, edges + extra_edges
