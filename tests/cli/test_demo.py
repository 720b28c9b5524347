"""`bash scripts/demo.sh` (README command 1): progress while it sets up, and every "next"
command it prints works — the viewer included, the Dagster line being the README's."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import urllib.request

import pytest

from tests.support.portfolio import REPO, TODAY
from tests.support.processes import start, stop_group

ENV = {**os.environ, "KB_TODAY": TODAY}
ENV.pop("DAGSTER_HOME", None)
ENV.pop("KB_ROOT", None)


@pytest.fixture(scope="module")
def demo() -> subprocess.CompletedProcess:
    for stale in REPO.glob(".tmp_dagster_home_*"):
        raise AssertionError(f"{stale} exists before the demo ran — remove it")
    run = subprocess.run(
        ["bash", "scripts/demo.sh"], cwd=REPO, env=ENV, capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run


def _next_commands(stdout: str) -> list[str]:
    block = stdout.split("Where to look next", 1)[1]
    lines = [line.strip() for line in block.splitlines()]
    return [line for line in lines if line.startswith("uv run ")]


def _argv(line: str) -> list[str]:
    """A printed command as argv, its trailing description (two spaces or more) dropped."""
    command = re.split(r"\s{2,}", line)[0].replace("$PWD", str(REPO))
    return shlex.split(command)


@pytest.mark.slow
def test_demo_says_what_it_is_doing_before_the_build(demo) -> None:
    phases = [line for line in demo.stderr.splitlines() if line.startswith("demo: [")]
    assert [p.split("]")[0] for p in phases] == [
        "demo: [1/4",
        "demo: [2/4",
        "demo: [3/4",
        "demo: [4/4",
    ]
    assert "viewer front-end files" in demo.stderr


@pytest.mark.slow
def test_every_printed_command_runs(demo) -> None:
    commands = _next_commands(demo.stdout)
    assert len(commands) == 6, commands  # the Dagster UI address is a URL, not a command
    for line in commands:
        argv = _argv(line)
        if argv[2:4] in (["kb", "status"], ["kb", "sql"], ["kb", "context"]):
            run = subprocess.run(argv, cwd=REPO, env=ENV, capture_output=True, text=True)
            assert run.returncode == 0 and run.stdout.strip(), f"{line}\n{run.stderr}"
            assert "Traceback" not in run.stderr and "bundled example" not in run.stderr


@pytest.mark.slow
def test_printed_viewer_command_serves_the_page_and_the_graph(demo) -> None:
    line = next(c for c in _next_commands(demo.stdout) if " kb viewer" in c)
    proc = start(
        [*_argv(line), "--port", "0"],
        cwd=REPO,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = proc.stdout.readline()
        assert " at http://" in first, first + proc.stderr.read() if proc.poll() else first
        url = first.rsplit(" at ", 1)[1].strip()
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        with urllib.request.urlopen(url + "static/vendor/d3-force.js", timeout=10) as vendor:
            assert vendor.status == 200
        with urllib.request.urlopen(url + "api/partitions", timeout=10) as api:
            assert {p["name"] for p in json.load(api)["partitions"]} >= {"_global"}
    finally:
        stop_group(proc)


@pytest.mark.slow
def test_printed_mcp_command_serves_the_tools(demo) -> None:
    from mcp import StdioServerParameters

    from tests.support.mcp_stdio import StdioClient

    argv = _argv(next(c for c in _next_commands(demo.stdout) if " kb mcp" in c))
    client = StdioClient(
        params=StdioServerParameters(command=argv[0], args=argv[1:], cwd=str(REPO))
    )
    try:
        text, err = client.call("kb_status")
        assert not err and "build" in text
    finally:
        client.close()


@pytest.mark.slow
def test_printed_dagster_command_is_the_readmes_with_a_kept_ignored_home(demo) -> None:
    line = next(c for c in _next_commands(demo.stdout) if " kb ui" in c)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert _argv(line)[:4] == ["uv", "run", "kb", "ui"] and " ".join(_argv(line)) in readme
    home = REPO / "examples" / "kb" / ".kb" / "dagster"  # `kb ui --example`'s instance
    assert (home / "dagster.yaml").is_file()  # the runs `kb refresh` made live there
    ignored = subprocess.run(["git", "-C", str(REPO), "check-ignore", "-q", str(home)])
    assert ignored.returncode == 0, f"{home} is not git-ignored"
    assert not list(REPO.glob(".tmp_dagster_home_*"))
