"""A project graph built from its tables holds exactly the rows' nodes and edges.

`build_graph` fills networkx's adjacency directly (the first call on a 30k-node
partition depends on it), so it is checked against the public networkx API: same
nodes and data, parallel edges keyed 0, 1, …, edges with a missing end dropped,
another project's nodes left out, and a kind index that matches a scan."""

from __future__ import annotations

import json

import networkx as nx
import polars as pl

from mcp_server.graph import build_graph


def _nodes(rows: list[tuple]) -> pl.DataFrame:
    cols = ("id", "project", "component", "kind", "name", "file", "line", "end_line", "attrs")
    return pl.DataFrame([dict(zip(cols, r, strict=True)) for r in rows])


def _edges(rows: list[tuple]) -> pl.DataFrame:
    cols = ("src", "dst", "type", "project", "component", "file", "line", "attrs")
    return pl.DataFrame([dict(zip(cols, r, strict=True)) for r in rows])


ATTRS = json.dumps({"method": "GET"})
OWN = {
    "nodes": _nodes(
        [
            ("shop:api:a.ts", "shop", "api", "code_file", "a.ts", "a.ts", 1, 9, "{}"),
            ("shop:api:a.ts:get", "shop", "api", "route", "GET /x", "a.ts", 3, 4, ATTRS),
            ("shop:api:a.ts:h", "shop", "api", "symbol", None, "a.ts", 5, 8, ATTRS),
        ]
    ),
    "edges": _edges(
        [
            ("shop:api:a.ts", "shop:api:a.ts:h", "DEFINES", "shop", "api", "a.ts", 5, "{}"),
            ("shop:api:a.ts:get", "shop:api:a.ts:h", "ROUTES_TO", "shop", "api", "a.ts", 3, ATTRS),
            ("shop:api:a.ts:get", "shop:api:a.ts:h", "ROUTES_TO", "shop", "api", "a.ts", 4, "{}"),
            ("shop:api:a.ts:h", "gone:x", "CALLS_FN", "shop", "api", "a.ts", 6, "{}"),
        ]
    ),
    "unresolved": pl.DataFrame(
        [{"component": "api", "kind": "call", "file": "a.ts", "line": 7, "attrs": "{}"}]
    ),
}
SHARED = {
    "nodes": _nodes(
        [
            (
                "_global:package:left-pad",
                "_global",
                None,
                "package",
                "left-pad",
                None,
                None,
                None,
                "{}",
            ),
            ("other:web:b.ts", "other", "web", "code_file", "b.ts", "b.ts", 1, 2, "{}"),
        ]
    ),
    "edges": _edges(
        [("shop:api:a.ts", "_global:package:left-pad", "IMPORTS", "shop", "api", "a.ts", 1, "{}")]
    ),
}


def _reference() -> nx.MultiDiGraph:
    g = nx.MultiDiGraph()
    keys = ("kind", "project", "component", "file", "line", "end_line")
    for df in (OWN["nodes"], SHARED["nodes"][:1]):
        for r in df.to_dicts():
            data = {k: r[k] for k in keys} | {"attrs": json.loads(r["attrs"])}
            g.add_node(r["id"], **data, name=r["name"] or r["id"])
    for df in (OWN["edges"], SHARED["edges"]):
        for r in df.to_dicts():
            if r["src"] in g and r["dst"] in g:
                data = {k: r[k] for k in ("type", "file", "line", "component")}
                g.add_edge(r["src"], r["dst"], **data, attrs=json.loads(r["attrs"]))
    return g


def test_graph_from_tables_equals_networkx_built_graph() -> None:
    pg = build_graph("shop", OWN, SHARED)
    ref = _reference()
    assert dict(pg.g.nodes(data=True)) == dict(ref.nodes(data=True))
    assert sorted(pg.g.edges(keys=True, data=True), key=repr) == sorted(
        ref.edges(keys=True, data=True), key=repr
    )
    assert sorted(pg.g.in_edges("shop:api:a.ts:h", keys=True)) == sorted(
        ref.in_edges("shop:api:a.ts:h", keys=True)
    )
    assert "other:web:b.ts" not in pg.g  # another project's node, even from _global
    assert pg.node("shop:api:a.ts:h")["name"] == "shop:api:a.ts:h"  # no name: its id
    assert pg.unresolved[0]["attrs"] == {}


def test_rows_with_equal_attrs_do_not_share_one_dict() -> None:
    pg = build_graph("shop", OWN, SHARED)
    pg.attrs("shop:api:a.ts:get")["method"] = "POST"
    assert pg.attrs("shop:api:a.ts:h") == {"method": "GET"}


def test_kind_index_matches_a_scan_of_the_graph() -> None:
    pg = build_graph("shop", OWN, SHARED)
    for kind in ("route", "package", "code_file", "tf_resource"):
        scan = [(n, d) for n, d in pg.g.nodes(data=True) if d.get("kind") == kind]
        assert pg.of_kind(kind) == scan
