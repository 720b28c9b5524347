"""Extraction started ahead of the run (`kb refresh` does it before loading Dagster) is
taken by the run's own extraction, checked against the version the run sees, and leaves
no worker behind. Real git repos, real worker processes, real Parquet staging."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from assets.extraction import PARALLEL_FROM, extract_ahead, extract_many, settle_ahead
from kb.loader import load_kb
from kb.model import Component
from tests.support.portfolio import git, kb_cli

# By design nothing starts ahead on one core (nothing to overlap): said, not silently passed.
pytestmark = pytest.mark.skipif(
    (os.cpu_count() or 1) < 2, reason="extraction ahead is off on a one-core machine"
)
CODE = "v1"
NAMES = [f"svc{i}" for i in range(PARALLEL_FROM)]


def _portfolio(root: Path) -> tuple[Path, list[Component]]:
    """PARALLEL_FROM components, one small TS module each, in one git repo, and the KB that
    lists them; returns the KB root and its components."""
    kb = root / "kb"
    (kb / "projects" / "p").mkdir(parents=True)
    (kb / "kb.yaml").write_text("name: ahead\nrepos_root: ../repos\n")
    (kb / "projects" / "p" / "project.md").write_text("---\nkind: project\nid: p\ntitle: P\n---\n")
    for name in NAMES:
        (root / "repos" / name).mkdir(parents=True)
        (root / "repos" / name / "index.ts").write_text(
            f"export function {name}Handler(id: string) {{ return fetch(`/api/{name}/${{id}}`); }}\n"
        )
        (kb / "projects" / "p" / name).mkdir()
        (kb / "projects" / "p" / name / "component.md").write_text(
            f"---\nkind: component\nproject: p\nid: {name}\ntitle: {name}\n"
            f"role: service\nrepo: {name}\n---\n"
        )
    git(root / "repos", "init", "-q", "-b", "main")
    git(root / "repos", "add", "-A")
    git(root / "repos", "commit", "-qm", "four services")
    return kb, load_kb(kb).components()


def _repos(root: Path) -> list[Component]:
    return _portfolio(root.parent)[1]


def _staged_nodes(data: Path, comp: Component) -> list[dict]:
    folder = data / "staging" / "code_facts" / comp.key.replace("/", "__")
    return pl.read_parquet(folder / "nodes.parquet").sort("id").to_dicts()


def test_the_run_takes_what_was_extracted_ahead_and_it_equals_extraction_in_the_run(
    tmp_path: Path,
) -> None:
    comps = _repos(tmp_path / "repos")
    ahead, plain = tmp_path / "ahead", tmp_path / "plain"
    assert sorted(extract_ahead(ahead, comps, CODE)) == sorted(c.key for c in comps)
    stamps = extract_many(ahead, comps, CODE)
    # extracted (by the workers started ahead), not "reused": the run reports them so
    assert {k: s["reused"] for k, s in stamps.items()} == {c.key: False for c in comps}
    assert not multiprocessing.active_children()  # the ahead workers are stopped
    in_run = extract_many(plain, comps, CODE)
    assert {k: s["version"] for k, s in stamps.items()} == {
        k: s["version"] for k, s in in_run.items()
    }
    for comp in comps:
        assert _staged_nodes(ahead, comp) == _staged_nodes(plain, comp)
        assert any(n["name"] == f"{comp.id}Handler" for n in _staged_nodes(ahead, comp))


def _touch(repos: Path, name: str, line: str) -> str:
    source = repos / name / "index.ts"
    source.write_text(source.read_text() + line)
    git(repos, "commit", "-qam", f"touch {name}")
    return git(repos, "rev-parse", "HEAD")[:12]


def test_a_commit_after_the_ahead_start_is_extracted_again_by_the_run(tmp_path: Path) -> None:
    comps = _repos(tmp_path / "repos")
    data, repos = tmp_path / "data", tmp_path / "repos"
    extract_many(data, comps, CODE)
    # every component changed: all are started ahead, each at its last commit
    started = {f"p/{n}": _touch(repos, n, f"export const {n}Next = 2;\n") for n in NAMES}
    assert len(extract_ahead(data, comps, CODE)) == len(comps)
    # committed while Dagster would still be loading: the run sees a newer version
    head = _touch(repos, "svc1", "export const lateArrival = () => 1;\n")
    stamps = extract_many(data, comps, CODE)
    assert stamps["p/svc1"]["version"] == head and not stamps["p/svc1"]["reused"]
    assert any(n["name"] == "lateArrival" for n in _staged_nodes(data, comps[1]))
    assert {k: s["version"] for k, s in stamps.items()} == started | {"p/svc1": head}
    assert not any(s["reused"] for s in stamps.values())


def test_nothing_is_started_ahead_for_current_components_or_too_little_work(
    tmp_path: Path,
) -> None:
    comps = _repos(tmp_path / "repos")
    data = tmp_path / "data"
    extract_many(data, comps, CODE)
    assert extract_ahead(data, comps, CODE) == []  # every staged stamp is current
    _touch(tmp_path / "repos", "svc0", "export const small = 1;\n")
    assert extract_ahead(data, comps, CODE) == []  # one small component: extracted in the run
    assert not multiprocessing.active_children()
    stamps = extract_many(data, comps, CODE)
    assert [k for k, s in stamps.items() if not s["reused"]] == ["p/svc0"]


def test_ahead_work_the_run_never_asks_for_is_finished_and_stopped(tmp_path: Path) -> None:
    comps = _repos(tmp_path / "repos")
    data = tmp_path / "data"
    extract_ahead(data, comps, CODE)
    settle_ahead()  # the refresh ended without a code_facts step
    assert not multiprocessing.active_children()
    # what had started is staged whole and current: the next run reuses it
    stamps = extract_many(data, comps, CODE)
    started = [k for k, s in stamps.items() if s["reused"]]
    redone = [k for k, s in stamps.items() if not s["reused"]]
    assert sorted(started + redone) == sorted(c.key for c in comps)
    for comp in comps:
        assert any(n["name"] == f"{comp.id}Handler" for n in _staged_nodes(data, comp))


def test_a_cold_refresh_parses_while_dagster_loads(tmp_path: Path) -> None:
    """Through `kb refresh`: the stale components start before Dagster is loaded, and the
    published graph has every component's handler."""
    kb, comps = _portfolio(tmp_path / "portfolio")
    data = tmp_path / "data"
    result = kb_cli("refresh", "--no-service", "--kb", str(kb), "--data-dir", str(data))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    ahead = lines.index(
        f"parsing {len(comps)} component(s) in worker processes while Dagster loads …"
    )
    assert ahead < lines.index("loading the Dagster pipeline …")
    handlers = kb_cli(
        "sql", "--kb", str(kb), "--data-dir", str(data), "--json",
        "select name from nodes where name like '%Handler' order by name",
    )  # fmt: skip
    assert handlers.returncode == 0, handlers.stderr
    assert [row["name"] for row in json.loads(handlers.stdout)] == [f"{n}Handler" for n in NAMES]


KILLED_REFRESH = """
import multiprocessing, os, signal, sys
from pathlib import Path
from assets.extraction import extract_ahead
from kb.loader import load_kb
extract_ahead(Path(sys.argv[2]), load_kb(Path(sys.argv[1])).components(), "v1")
print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # as a cancelled CI job or a killed hook would
"""


def _running(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status  # a zombie has ended; only its exit is unreaped


def test_workers_end_when_the_refresh_that_started_them_is_killed(tmp_path: Path) -> None:
    kb, _ = _portfolio(tmp_path / "portfolio")
    said = tmp_path / "workers.txt"
    with said.open("w") as out:  # a file, not a pipe: orphans would hold a pipe open
        killed = subprocess.run(
            [sys.executable, "-c", KILLED_REFRESH, str(kb), str(tmp_path / "data")],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=Path(__file__).resolve().parents[2],
            timeout=120,
        )
    assert killed.returncode == -signal.SIGKILL, said.read_text()
    workers = [int(pid) for pid in said.read_text().split()]
    assert workers, said.read_text()
    deadline = time.monotonic() + 30
    while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in workers if _running(pid)], "orphaned extraction workers"
