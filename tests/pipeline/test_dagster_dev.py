"""`dagster dev` (configured in pyproject.toml) shows the asset graph and materializes it.

Starts the real webserver + daemon on a loopback port for a copy of the example, asks
its GraphQL API for the asset graph, and waits for the automation sensor to build the
warehouse on its own (the same automation conditions `kb refresh` evaluates).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.dagster_dev import dagster_dev, graphql, wait_for

EXPECTED_ASSETS = {
    "kb_source",
    "component_versions",
    "kb_docs",
    "kb_indexes",
    "knowledge_graph",
    "code_facts",
    "project_graph",
    "catalog",
    "doc_chunks",
    "kb_doc_chunks",
    "warehouse",
}


@pytest.mark.slow
def test_dagster_dev_shows_graph_and_materializes(example_kb: Path, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with dagster_dev(example_kb, tmp_path, data_dir) as port:
        data = graphql(port, "{ assetNodes { assetKey { path } isPartitioned } }")
        nodes = {"/".join(n["assetKey"]["path"]): n["isPartitioned"] for n in data["assetNodes"]}
        assert set(nodes) >= EXPECTED_ASSETS
        assert nodes["code_facts"] and not nodes["warehouse"]
        manifest = data_dir / "manifest.json"
        assert wait_for(manifest.exists, 300), "the automation sensor never built the warehouse"
        built = json.loads(manifest.read_text())
        assert set(built["components"]) >= {"acme-shop/contact-api", "globex-portal/api"}
