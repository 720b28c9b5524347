"""End to end on the bundled example portfolio: extract every component, then bridge."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import polars as pl
import pytest

from extractors.registry import extract_component
from kb.loader import load_kb
from warehouse.bridges import build_project_graph
from warehouse.catalog import build_catalog, component_frames, cross_project_edges
from warehouse.tables import validate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "kb"
pytestmark = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="example portfolio not present")


@cache
def portfolio():
    kb = load_kb(EXAMPLES)
    tables = {
        c.key: component_frames(extract_component(c.project, c.id, c.repo_path))
        for c in kb.components()
        if c.repo_path
    }
    return kb, tables


def calls(project: str) -> dict[str, dict]:
    kb, tables = portfolio()
    graph = build_project_graph(kb, project, tables)
    for table in ("nodes", "edges", "unresolved"):
        validate(table, graph[table])
    assert cross_project_edges(graph["edges"]) == []
    out = {}
    for e in graph["edges"].filter(pl.col("type") == "CALLS").to_dicts():
        out[e["dst"].split(":route:", 1)[1]] = {**e, "attrs": json.loads(e["attrs"])}
    return out


def test_contact_form_reaches_the_contact_api_route():
    edge = calls("acme-shop")["POST /api/jp/contact"]
    assert edge["src"].startswith("acme-shop/web:http_call:")
    assert edge["dst"] == "acme-shop/contact-api:route:POST /api/jp/contact"
    attrs = edge["attrs"]
    assert attrs["via"] == "NEXT_PUBLIC_CONTACT_API_URL"
    assert attrs["envs"] == ["dev", "prod"] and attrs["confidence"] == "high"
    assert attrs["path"] == "/api/jp/contact"


def test_vue_portal_calls_fastapi_routes_after_router_prefixes():
    got = calls("globex-portal")
    assert got["GET /v1/orders/{order_id}"]["attrs"]["match"] == "param"
    assert got["POST /v1/orders"]["attrs"]["confidence"] == "high"
    assert all(e["src"].startswith("globex-portal/web:") for e in got.values())


def test_firebase_hosting_rewrite_and_callable_reach_functions():
    got = calls("initech-events")
    assert got["GET /api/events"]["attrs"]["via"] == "rewrite /api/**"
    assert got["POST /api/events/:id/register"]["attrs"]["resolution"] == "rewrite"
    assert "POST /sendTicket" in got


def test_catalog_of_the_portfolio_compares_across_projects():
    kb, tables = portfolio()
    out = build_catalog(kb, tables)
    pkgs = out["catalog_packages"]
    express = pkgs.filter(pl.col("package") == "express")
    assert express.height >= 1 and express["version"].null_count() == 0
    flask = pkgs.filter(pl.col("package") == "flask").to_dicts()
    assert [(r["project"], r["component"]) for r in flask] == [("initech-events", "api")]
    assert cross_project_edges(out["edges"]) == []
    assert not [i for i in out["nodes"]["id"] if not i.startswith("_global:")]
