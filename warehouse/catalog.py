"""The `_global` catalog: what every component uses, and the routes it serves.

`component_frames(facts)` turns one component's ComponentFacts into its tables (the
shape `build_project_graph` and `build_catalog` read). `build_catalog(kb, tables)`
collects the catalog rows of all components into `catalog_*` tables plus catalog nodes
(`_global:package:express`, ...) and edges from the knowledge component node
(`<p>:component:<c>`), never from a code node. Middleware nodes of the graph that no
extractor catalogued get a row too, and `catalog_routes` lists every route (a table, no
node: a path shared by two projects joins nothing). `cross_project_edges(edges)` lists the
edges that join two projects (a build error).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from extractors.facts import ComponentFacts, Edge, Node
from kb.model import KnowledgeBase
from warehouse.reader import dict_rows
from warehouse.staging import one_table_of_each
from warehouse.tables import TABLES, concat, frame

# catalog row table → (catalog table, catalog node kind, edge type)
CATALOG_KINDS: dict[str, tuple[str, str, str]] = {
    "packages": ("catalog_packages", "package", "USES_PACKAGE"),
    "middleware": ("catalog_middleware", "middleware_name", "USES_MIDDLEWARE_NAME"),
    "hosts": ("catalog_hosts", "host", "CALLS_HOST"),
    "tf_types": ("catalog_tf_types", "tf_resource_type", "USES_TF_TYPE"),
    "env_vars": ("catalog_env_vars", "env_var_name", "READS_ENV_NAME"),
}
CATALOG_TABLES = [v[0] for v in CATALOG_KINDS.values()]
# catalog row tables that are portfolio tables of their own, with no catalog node
PLAIN_TABLES = ("coverage",)
ROUTES_TABLE = "catalog_routes"  # a table only: no catalog node joins projects by a path


def _node_rows(tables: dict[str, pl.DataFrame], kind: str) -> list[dict[str, Any]]:
    nodes = tables.get("nodes")
    if nodes is None or nodes.is_empty() or "kind" not in nodes.columns:
        return []
    return dict_rows(nodes.filter(pl.col("kind") == kind))


def routes_of(component_tables: dict[str, dict[str, pl.DataFrame]]) -> pl.DataFrame:
    """`catalog_routes`: every route node's name, method, path and declaring `file:line`."""
    rows = []
    for _, tables in sorted(component_tables.items()):
        for r in _node_rows(tables, "route"):
            a = r.get("attrs") or {}
            method, _, path = str(r.get("name") or "").partition(" ")
            extra = {k: a[k] for k in ("framework", "handler") if a.get(k)}
            rows.append({
                "project": r.get("project"), "component": r.get("component"), "name": r.get("name"),
                "method": str(a.get("method") or method).upper(), "path": a.get("path") or path,
                "file": r.get("file"), "line": r.get("line"), "attrs": extra,
            })  # fmt: skip
    df = frame(ROUTES_TABLE, rows)
    return df.sort(["project", "component", "name", "file", "line"], nulls_last=True)


def middleware_from_nodes(
    component_tables: dict[str, dict[str, pl.DataFrame]], listed: pl.DataFrame
) -> pl.DataFrame:
    """`catalog_middleware` rows for middleware nodes no extractor catalogued (a NestJS
    `app.use(helmet())`, a guard): if the graph has the node, the catalog lists it."""
    rows_in = dict_rows(listed.select(["project", "component", "name", "file", "line"]))
    have = {(r["project"], r["component"], str(r["name"]).lower()) for r in rows_in}
    # the same use catalogued under its package name (`koa-helmet` for a local `koaHelmet`)
    at = {(r["project"], r["component"], r["file"], r["line"]) for r in rows_in}
    rows = []
    for _, tables in sorted(component_tables.items()):
        for r in _node_rows(tables, "middleware"):
            key = (r.get("project"), r.get("component"), str(r.get("name") or "").lower())
            if not key[2] or key in have or (*key[:2], r.get("file"), r.get("line")) in at:
                continue
            have.add(key)
            a = r.get("attrs") or {}
            extra = {
                k: a[k] for k in ("package", "framework", "role", "middleware_kind") if a.get(k)
            }
            extra["from_graph"] = True
            rows.append({"project": key[0], "component": key[1], "name": r.get("name"),
                         "file": r.get("file"), "line": r.get("line"), "attrs": extra})  # fmt: skip
    return frame("catalog_middleware", rows)


def component_frames(facts: ComponentFacts) -> dict[str, pl.DataFrame]:
    """nodes, edges, unresolved, problems and one `catalog_*` frame per catalog table."""
    out = {
        "nodes": frame("nodes", facts.nodes),
        "edges": frame("edges", facts.edges),
        "unresolved": frame("unresolved", facts.unresolved),
        "problems": frame("problems", facts.problems),
    }
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in (*CATALOG_TABLES, *PLAIN_TABLES)}
    for row in facts.catalog:
        if row.table in PLAIN_TABLES:
            rows[row.table].append(
                {
                    **row.attrs,
                    "project": row.project,
                    "component": row.component,
                    "file": row.file,
                    "line": row.line,
                }  # fmt: skip
            )
            continue
        table = CATALOG_KINDS.get(row.table, (f"catalog_{row.table}",))[0]
        if table not in TABLES:
            continue
        cols = TABLES[table]
        extra = {k: v for k, v in row.attrs.items() if k not in cols}
        record = {k: v for k, v in row.attrs.items() if k in cols}
        record.update(
            project=row.project,
            component=row.component,
            name=row.name,
            file=row.file,
            line=row.line,
            attrs=extra,
        )
        rows[table].append(record)
    for table, records in rows.items():
        out[table] = frame(table, records)
    return out


def build_catalog(
    kb: KnowledgeBase, component_tables: dict[str, dict[str, pl.DataFrame]]
) -> dict[str, pl.DataFrame]:
    """Catalog tables and `_global` catalog nodes/edges from every component's rows.

    Only components the KB knows get edges (the source is the knowledge component node).
    """
    out: dict[str, pl.DataFrame] = {}
    for table in CATALOG_TABLES:
        df = concat(
            table, one_table_of_each([t for _, t in sorted(component_tables.items())], table)
        )
        if table == "catalog_middleware":
            df = concat(table, [df, middleware_from_nodes(component_tables, df)])
        out[table] = df.sort(["project", "component", "name", "file", "line"], nulls_last=True)
    for table in PLAIN_TABLES:
        df = concat(
            table, one_table_of_each([t for _, t in sorted(component_tables.items())], table)
        )
        out[table] = df.sort(["project", "component", "package"], nulls_last=True)
    out[ROUTES_TABLE] = routes_of(component_tables)
    nodes: dict[str, Node] = {}
    edges: dict[tuple[str, str, str], Edge] = {}
    for _, (table, kind, edge_type) in CATALOG_KINDS.items():
        for row in dict_rows(out[table]):
            name, project, comp = row["name"], row["project"], row["component"]
            if not name or not project or not comp or kb.component(f"{project}/{comp}") is None:
                continue
            node_id = f"_global:{kind}:{name}"
            node = nodes.setdefault(
                node_id, Node(node_id, kind, name, None, None, attrs={"used_by": []})
            )
            if table == "catalog_packages" and row.get("ecosystem"):
                ecos = node.attrs.setdefault("ecosystems", [])
                if row["ecosystem"] not in ecos:
                    ecos.append(row["ecosystem"])
                    ecos.sort()
            key = (f"{project}:component:{comp}", node_id, edge_type)
            if key in edges:
                continue
            used = f"{project}/{comp}"
            if used not in node.attrs["used_by"]:
                node.attrs["used_by"].append(used)
            attrs: dict[str, Any] = {}
            if table == "catalog_packages":
                attrs = {k: row.get(k) for k in ("ecosystem", "version", "declared")}
            extra = row.get("attrs") or {}
            attrs.update({k: v for k, v in extra.items() if k in {"dev", "envs", "stack"}})
            edges[key] = Edge(
                key[0], node_id, edge_type, project, comp, row["file"], row["line"], attrs
            )
    for node in nodes.values():
        node.attrs["used_by"].sort()
    out["nodes"] = frame("nodes", sorted(nodes.values(), key=lambda n: n.id))
    out["edges"] = frame("edges", [edges[k] for k in sorted(edges)])
    return out


def project_of(node_id: str) -> str:
    """`_global` for catalog ids, else the project of `p:kind:q` or `p/c:kind:q`."""
    head = node_id.split(":", 1)[0]
    return head.split("/", 1)[0]


def cross_project_edges(edges_df: pl.DataFrame) -> list[str]:
    """One message per edge whose two ends sit in different projects (`_global` is neutral).

    The projects are cut out in Polars (every edge of every refresh passes here); only
    the offending rows, normally none, come back to Python."""
    problems: list[str] = []
    if edges_df is None or edges_df.is_empty():
        return problems

    def project(column: str) -> pl.Expr:  # project_of, column-wise
        return pl.col(column).str.split(":").list.first().str.split("/").list.first()

    bad = (
        edges_df.select(["src", "dst", "type", "file", "line"])
        .with_columns(project("src").alias("_a"), project("dst").alias("_b"))
        .filter(
            (pl.col("_a") != pl.col("_b"))
            & (pl.col("_a") != "_global")
            & (pl.col("_b") != "_global")
        )
    )
    for row in bad.iter_rows(named=True):
        a, b = row["_a"], row["_b"]
        where = f" ({row['file']}:{row['line']})" if row.get("file") else ""
        problems.append(
            f"edge {row['src']} -[{row['type']}]-> {row['dst']} joins projects {a} and {b}{where}"
        )
    return problems
