"""The `_global` catalog built from catalog rows of components in two projects."""

from __future__ import annotations

import json

import polars as pl
from test_bridges import write_kb

from extractors.facts import CatalogRow, ComponentFacts, Node
from kb.loader import load_kb
from warehouse.catalog import build_catalog, component_frames, cross_project_edges
from warehouse.tables import validate


def facts(project: str, component: str, *rows: CatalogRow) -> ComponentFacts:
    f = ComponentFacts(catalog=list(rows))
    f.nodes.append(
        Node(
            f"{project}/{component}:code_file:package.json",
            "code_file",
            "package.json",
            project,
            component,
            "package.json",
            1,
        )
    )
    return f


def pkg(project, component, name, version, declared, line, dev=False):
    return CatalogRow(
        "packages",
        project,
        component,
        name,
        "package.json",
        line,
        {"ecosystem": "npm", "package": name, "version": version, "declared": declared, "dev": dev},
    )


def test_catalog_tables_nodes_and_edges(tmp_path):
    kb = load_kb(write_kb(tmp_path, {"a": {"api": {}}, "b": {"api": {}, "web": {}}}))
    tables = {
        "a/api": component_frames(
            facts(
                "a",
                "api",
                pkg("a", "api", "express", "4.19.2", "^4.18.0", 12),
                CatalogRow("middleware", "a", "api", "helmet", "src/app.ts", 9),
                CatalogRow("hosts", "a", "api", "api.stripe.example", "src/pay.ts", 3),
                CatalogRow("env_vars", "a", "api", "STRIPE_KEY", "src/pay.ts", 2),
            )
        ),
        "b/api": component_frames(
            facts(
                "b",
                "api",
                pkg("b", "api", "express", "5.0.1", "^5.0.0", 8),
                CatalogRow("tf_types", "b", "api", "google_cloud_run_v2_service", "main.tf", 4),
            )
        ),
        "b/web": component_frames(
            facts("b", "web", pkg("b", "web", "vitest", "1.6.0", "^1", 20, True))
        ),
    }
    out = build_catalog(kb, tables)
    for table in (
        "catalog_packages",
        "catalog_middleware",
        "catalog_hosts",
        "catalog_tf_types",
        "catalog_env_vars",
        "nodes",
        "edges",
    ):
        validate(table, out[table])
    express = out["catalog_packages"].filter(pl.col("package") == "express").to_dicts()
    assert [(r["project"], r["version"], r["declared"], r["line"]) for r in express] == [
        ("a", "4.19.2", "^4.18.0", 12),
        ("b", "5.0.1", "^5.0.0", 8),
    ]
    assert json.loads(
        out["catalog_packages"].filter(pl.col("package") == "vitest")["attrs"][0]
    ) == {"dev": True}
    ids = set(out["nodes"]["id"])
    assert {
        "_global:package:express",
        "_global:middleware_name:helmet",
        "_global:host:api.stripe.example",
        "_global:tf_resource_type:google_cloud_run_v2_service",
        "_global:env_var_name:STRIPE_KEY",
    } <= ids
    node = out["nodes"].filter(pl.col("id") == "_global:package:express").to_dicts()[0]
    assert json.loads(node["attrs"])["used_by"] == ["a/api", "b/api"]
    edges = {(e["src"], e["dst"], e["type"]) for e in out["edges"].to_dicts()}
    assert ("a:component:api", "_global:package:express", "USES_PACKAGE") in edges
    assert ("b:component:api", "_global:package:express", "USES_PACKAGE") in edges
    assert ("a:component:api", "_global:middleware_name:helmet", "USES_MIDDLEWARE_NAME") in edges
    assert ("a:component:api", "_global:host:api.stripe.example", "CALLS_HOST") in edges
    assert (
        "b:component:api",
        "_global:tf_resource_type:google_cloud_run_v2_service",
        "USES_TF_TYPE",
    ) in edges
    assert ("a:component:api", "_global:env_var_name:STRIPE_KEY", "READS_ENV_NAME") in edges
    # no code internals in _global, and catalog edges never join two projects
    assert not [i for i in ids if not i.startswith("_global:")]
    assert all("/" not in e[0] for e in edges)
    assert cross_project_edges(out["edges"]) == []


def test_components_unknown_to_the_kb_get_no_catalog_edges(tmp_path):
    kb = load_kb(write_kb(tmp_path, {"a": {"api": {}}}))
    tables = {
        "a/ghost": component_frames(
            facts("a", "ghost", pkg("a", "ghost", "left-pad", "1.3.0", "*", 3))
        )
    }
    out = build_catalog(kb, tables)
    assert out["catalog_packages"].height == 1  # still listed where it was found
    assert out["edges"].is_empty() and out["nodes"].is_empty()


def test_graph_middleware_and_routes_reach_the_catalog(tmp_path):
    """A middleware node no extractor catalogued (a NestJS `app.use(helmet())`, a guard) gets
    a catalog row, once; every route is in catalog_routes with its method, path and line."""
    kb = load_kb(write_kb(tmp_path, {"n": {"api": {}}}))
    f = facts("n", "api", CatalogRow("middleware", "n", "api", "cors", "src/main.ts", 6))
    f.nodes += [
        Node(
            "n/api:middleware:helmet",
            "middleware",
            "helmet",
            "n",
            "api",
            "src/main.ts",
            5,
            attrs={"package": "helmet"},
        ),  # fmt: skip
        Node("n/api:middleware:cors", "middleware", "cors", "n", "api", "src/main.ts", 6),
        Node("n/api:middleware:corsMw", "middleware", "corsMw", "n", "api", "src/main.ts", 6),
        Node(
            "n/api:route:POST /api/users",
            "route",
            "POST /api/users",
            "n",
            "api",
            "src/users.controller.ts",
            12,
            attrs={"method": "POST", "path": "/api/users"},
        ),  # fmt: skip
    ]
    out = build_catalog(kb, {"n/api": component_frames(f)})
    validate("catalog_middleware", out["catalog_middleware"])
    validate("catalog_routes", out["catalog_routes"])
    mws = [(r["name"], r["line"]) for r in out["catalog_middleware"].to_dicts()]
    assert mws == [("cors", 6), ("helmet", 5)]  # cors once: the extractor's row stands,
    # also for the local name (`corsMw`) of the use it catalogued at that line
    helmet = out["catalog_middleware"].filter(pl.col("name") == "helmet").to_dicts()[0]
    assert json.loads(helmet["attrs"]) == {"from_graph": True, "package": "helmet"}
    assert "_global:middleware_name:helmet" in set(out["nodes"]["id"])
    routes = out["catalog_routes"].to_dicts()
    assert [
        (r["project"], r["component"], r["method"], r["path"], r["file"], r["line"]) for r in routes
    ] == [("n", "api", "POST", "/api/users", "src/users.controller.ts", 12)]
    assert not [i for i in out["nodes"]["id"] if ":route:" in i]  # a table, never a catalog node
