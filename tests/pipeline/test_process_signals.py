"""Every process kb-graph starts stops when asked — also when its parent ignored the signal.

A shell's background job starts with SIGINT ignored, `nohup` adds SIGHUP, and a Python
parent that ran Dagster in process ignores SIGTERM too (Dagster copies SIGINT's
disposition onto SIGTERM): ignored dispositions survive `exec`, so the viewer of a test
once ignored `terminate()` for 24 minutes. Each process here is started the way such a
parent would (`trap '' INT TERM; exec …`) and must stop on `kill <pid>` (SIGTERM) and on a
terminal's Ctrl-C (SIGINT to its process group), leaving no process of its group behind.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.dagster_dev import free_port, graphql, wait_for
from tests.support.mcp_stdio import INITIALIZE
from tests.support.processes import group_alive, ignoring_stop_signals, start, stop_group

pytestmark = pytest.mark.slow

KB = str(Path(sys.executable).with_name("kb"))
HELLO = json.dumps(INITIALIZE)
# Generous bounds on "stops": a liveness limit on a shared machine, not a speed goal.
STOPS_WITHIN_S = 60


def _started(kind: str, kb: Path, data: Path) -> tuple[subprocess.Popen, str]:
    """Start `kind` ignoring SIGINT/SIGTERM as a background job would; wait until it serves."""
    env = {**os.environ}
    env.pop("DAGSTER_HOME", None)
    pipes = {"stdout": subprocess.PIPE, "stderr": subprocess.STDOUT, "text": True, "env": env}
    if kind == "viewer":
        argv = [KB, "viewer", "--kb", str(kb), "--port", "0"]
    elif kind == "mcp":
        argv = [KB, "mcp", "--kb", str(kb)]
        pipes["stdin"] = subprocess.PIPE
    elif kind == "refresh service":
        argv = [KB, "serve-refresh", "--kb", str(kb), "--data-dir", str(data)]
    else:
        port = free_port()
        argv = [KB, "ui", "--kb", str(kb), "--data-dir", str(data), "--port", str(port)]
        pipes["stdout"] = subprocess.DEVNULL
        pipes.pop("text")
    proc = start(ignoring_stop_signals(argv), **pipes)
    if kind == "viewer":
        line = proc.stdout.readline()
        assert " at http://" in line, line
    elif kind == "mcp":
        proc.stdin.write(HELLO + "\n")
        proc.stdin.flush()
        assert '"id":1' in proc.stdout.readline().replace(" ", "")
    elif kind == "refresh service":
        line = proc.stdout.readline()
        assert "warm in" in line, line
    else:
        up = wait_for(lambda: graphql(port, "{ assetNodes { id } }")["assetNodes"], 240, 1)
        assert up, "kb ui did not answer GraphQL"
    ignored = _ignored_signals(proc.pid)
    return proc, ignored


def _ignored_signals(pid: int) -> str:
    with open(f"/proc/{pid}/status", encoding="utf-8") as status:
        line = next(x for x in status if x.startswith("SigIgn:"))
    mask = int(line.split()[1], 16)
    return ",".join(s.name for s in (signal.SIGINT, signal.SIGTERM) if mask & (1 << (s - 1)))


@pytest.mark.parametrize("how", ["SIGTERM to the process", "SIGINT to its group"])
@pytest.mark.parametrize("kind", ["viewer", "mcp", "refresh service", "ui"])
def test_stops_when_asked_although_started_with_stop_signals_ignored(
    kind: str, how: str, built_example: Path, example_kb: Path, tmp_path: Path
) -> None:
    kb = example_kb if kind in ("refresh service", "ui") else built_example
    proc, ignored = _started(kind, kb, tmp_path / "data")
    try:
        assert ignored == "", f"{kind} still ignores {ignored}"
        if how.startswith("SIGTERM"):
            os.kill(proc.pid, signal.SIGTERM)
        else:
            os.killpg(proc.pid, signal.SIGINT)
        try:
            code = proc.wait(timeout=STOPS_WITHIN_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{kind} did not stop on {how}")
        deadline = time.monotonic() + STOPS_WITHIN_S
        while group_alive(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not group_alive(proc.pid), f"{kind} left processes of its group running"
        assert code != -signal.SIGKILL
    finally:
        stop_group(proc)


def test_the_viewer_through_uv_run_stops_on_terminate(built_example: Path) -> None:
    """The original failure: `uv run kb viewer` started by a parent that ignores SIGTERM."""
    uv = "uv"
    argv = [uv, "run", "--frozen", "kb", "viewer", "--kb", str(built_example), "--port", "0"]
    proc = start(ignoring_stop_signals(argv), stdout=subprocess.PIPE, text=True)
    try:
        assert " at http://" in proc.stdout.readline()
        proc.terminate()
        try:
            proc.wait(timeout=STOPS_WITHIN_S)
        except subprocess.TimeoutExpired:
            pytest.fail("uv run kb viewer did not stop on SIGTERM")
    finally:
        stop_group(proc)
