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
