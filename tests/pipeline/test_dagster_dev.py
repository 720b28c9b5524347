"""`dagster dev` (configured in pyproject.toml) shows the asset graph and materializes it.

Starts the real webserver + daemon on a loopback port for a copy of the example, asks
its GraphQL API for the asset graph, and waits for the automation sensor to build the
warehouse on its own (the same automation conditions `kb refresh` evaluates).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _graphql(port: int, query: str) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql",
        data=json.dumps({"query": query}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())["data"]


@pytest.mark.slow
def test_dagster_dev_shows_graph_and_materializes(example_kb: Path, tmp_path: Path) -> None:
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    data_dir = tmp_path / "data"
    port = _free_port()
    env = {
        **os.environ,
        "DAGSTER_HOME": str(home),
        "KB_ROOT": str(example_kb),
        "KB_DATA_DIR": str(data_dir),
    }
    dagster = Path(sys.executable).with_name("dagster")
    proc = subprocess.Popen(
        [str(dagster), "dev", "-h", "127.0.0.1", "-p", str(port)],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        nodes = None
        while time.monotonic() < deadline:
            try:
                data = _graphql(port, "{ assetNodes { assetKey { path } isPartitioned } }")
                nodes = {
                    "/".join(n["assetKey"]["path"]): n["isPartitioned"] for n in data["assetNodes"]
                }
                if nodes:
                    break
            except (OSError, KeyError, TypeError, ValueError):
                pass
            time.sleep(1)
        assert nodes, "dagster dev did not answer GraphQL within 120 s"
        assert set(nodes) >= EXPECTED_ASSETS
        assert nodes["code_facts"] and not nodes["warehouse"]
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not (data_dir / "manifest.json").exists():
            time.sleep(2)
        assert (data_dir / "manifest.json").exists(), (
            "the automation sensor never built the warehouse"
        )
        manifest = json.loads((data_dir / "manifest.json").read_text())
        assert set(manifest["components"]) >= {"acme-shop/contact-api", "globex-portal/api"}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
