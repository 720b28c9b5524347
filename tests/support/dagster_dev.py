"""A real `dagster dev` (webserver + daemon) on a loopback port, and its GraphQL API.

Shared by the slow Dagster UI tests (tests/pipeline/test_dagster_*.py): they start it for
a copy of the example KB, talk to http://127.0.0.1:PORT/graphql, and stop the whole
process group afterwards.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from tests.support.processes import start, stop_group

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def graphql(port: int, query: str, variables: dict | None = None) -> dict:
    """POST one query; returns its `data` (raises on GraphQL errors)."""
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = json.loads(response.read())
    if answer.get("errors"):
        raise RuntimeError(answer["errors"])
    return answer["data"]


def wait_for(probe, timeout: float, every: float = 2.0):
    """Call `probe()` until it returns something truthy (errors count as not yet)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, KeyError, TypeError, ValueError, RuntimeError):
            if result := probe():
                return result
        time.sleep(every)
    return None


@contextlib.contextmanager
def dagster_dev(kb_root: Path, tmp_path: Path, data_dir: Path | None = None) -> Iterator[int]:
    """Run `dagster dev` for `kb_root`; yields its port once GraphQL lists assets."""
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    port = free_port()
    env = {**os.environ, "DAGSTER_HOME": str(home), "KB_ROOT": str(kb_root)}
    if data_dir is not None:
        env["KB_DATA_DIR"] = str(data_dir)
    dagster = Path(sys.executable).with_name("dagster")
    proc = start(
        [str(dagster), "dev", "-h", "127.0.0.1", "-p", str(port)],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        up = wait_for(lambda: graphql(port, "{ assetNodes { id } }")["assetNodes"], 240, 1)
        assert up, "dagster dev did not answer GraphQL within 240 s"
        yield port
    finally:
        stop_group(proc, grace=60)
