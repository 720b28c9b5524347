"""A refresh after one component's commit re-extracts exactly that component, and what it
publishes equals a from-scratch build's nodes and edges, byte for byte — in process
(`--no-service`) and when handed to the warm refresh service (`kb serve-refresh`)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.handoff import connect
from tests.support.portfolio import commit_to, git, refresh, tiny_portfolio
from tests.support.processes import start, stop_group


def _stamps(data: Path) -> dict[str, str]:
    base = data / "staging" / "code_facts"
    return {p.parent.name: p.read_text() for p in sorted(base.glob("*/stamp.json"))}


def _graph_files(data: Path) -> dict[str, bytes]:
    """Every partition's nodes/edges Parquet of the published build."""
    build = data / json.loads((data / "manifest.json").read_text())["path"]
    return {
        f"{p.parent.name}/{p.name}": p.read_bytes()
        for table in ("nodes", "edges")
        for p in sorted(build.glob(f"*/{table}.parquet"))
    }


def _assert_one_extracted(result, before: dict, after: dict, component: str) -> None:
    extracting = [ln for ln in result.stdout.splitlines() if ln.startswith("extracting")]
    assert extracting == [f"extracting 1 stale component(s): tiny/{component}"], result.stdout
    assert sorted(k for k in after if after[k] != before.get(k)) == [f"tiny__{component}"]


def _age_kb_files(kb: Path) -> None:
    """As if the KB was last edited an hour ago (the no-op's fingerprint trusts no file
    written in the last seconds)."""
    old = time.time() - 3600
    for path in kb.rglob("*"):
        os.utime(path, (old, old))


def test_one_component_refresh_equals_a_from_scratch_build(tmp_path: Path) -> None:
    kb, data = tiny_portfolio(tmp_path / "portfolio"), tmp_path / "data"
    refresh(kb, data, "--no-service")
    _age_kb_files(kb)
    for _ in range(2):  # the second answers from the KB fingerprint the first wrote
        assert "nothing to do" in refresh(kb, data).stdout
    assert (data / "kb-fingerprint.json").is_file()
    before = _stamps(data)
    commit_to(kb, "one", "export const three = () => one() + 2;\n")
    project = kb / "projects" / "tiny" / "project.md"
    project.write_text(project.read_text().replace("# Tiny", "# Tiny portfolio"))
    result = refresh(kb, data, "--no-service")
    assert "stale: KB edited" in result.stdout, result.stdout  # the fingerprint saw the edit
    _assert_one_extracted(result, before, _stamps(data), "one")
    scratch = tmp_path / "scratch"
    refresh(kb, scratch, "--all", "--no-service")
    assert _graph_files(data) == _graph_files(scratch)
    assert any(b"three" in v for v in _graph_files(data).values())


@pytest.mark.slow
def test_refresh_handed_to_the_service_equals_a_from_scratch_build(tmp_path: Path) -> None:
    kb, data = tiny_portfolio(tmp_path / "portfolio"), tmp_path / "data"
    kb_exe = Path(sys.executable).with_name("kb")
    service = start(
        [str(kb_exe), "serve-refresh", "--kb", str(kb), "--data-dir", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        listening = connect(data, wait=60.0)  # else `--service` would start a second one
        assert listening is not None, "the refresh service never listened"
        listening.close()
        first = refresh(kb, data, "--service")
        assert "handing over to the refresh service" in first.stdout, first.stdout
        before = _stamps(data)
        same = refresh(kb, data)  # nothing changed: the running service answers that too
        assert "handing over" in same.stdout and "nothing stale" in same.stdout, same.stdout
        assert _stamps(data) == before
        commit_to(kb, "two", "export function four() { return two(); }\n")
        result = refresh(kb, data)
        assert "handing over to the refresh service" in result.stdout, result.stdout
        _assert_one_extracted(result, before, _stamps(data), "two")
        assert "refresh service, peak memory" in result.stdout.strip().splitlines()[-1]
    finally:
        service.send_signal(signal.SIGTERM)  # `kill <pid>`, as docs/cli.md tells
        with contextlib.suppress(subprocess.TimeoutExpired):
            service.wait(timeout=60)
        stop_group(service)
    scratch = tmp_path / "scratch"
    refresh(kb, scratch, "--all", "--no-service")
    assert _graph_files(data) == _graph_files(scratch)
    # the service is gone: a refresh falls back to in process
    commit_to(kb, "one", "export const five = 5;\n")
    fallback = refresh(kb, data)
    assert "handing over" not in fallback.stdout and "done in" in fallback.stdout


def _add_project(root: Path, kb: Path, project: str, component: str, code: str) -> None:
    """A second project with one component, committed to the portfolio's repo."""
    (root / "repos" / component).mkdir(parents=True)
    (root / "repos" / component / "index.js").write_text(code)
    folder = kb / "projects" / project
    (folder / component).mkdir(parents=True)
    (folder / "project.md").write_text(
        f"---\nkind: project\nid: {project}\ntitle: {project}\n---\n# {project}\n"
    )
    (folder / component / "component.md").write_text(
        f"---\nkind: component\nproject: {project}\nid: {component}\ntitle: {component}\n"
        f"role: library\nrepo: {component}\n---\n# {component}\n"
    )
    git(root, "add", "-A")
    git(root, "commit", "-qm", f"add {project}")


def _published(data: Path) -> tuple[Path, dict]:
    manifest = json.loads((data / "manifest.json").read_text())
    return data / manifest["path"], manifest


def _tables(data: Path) -> dict[str, list]:
    """Every published table's rows (the `builds` table's build times left out), but the
    KB's doc chunks: they include verification-report.md, which each build rewrites."""
    import polars as pl

    build, _ = _published(data)
    out = {}
    for path in sorted(build.glob("*/*.parquet")):
        if path.parent.name == "partition=_global" and path.stem == "doc_chunks":
            continue
        df = pl.read_parquet(path)
        if path.stem == "builds":
            df = df.drop("built_at")
        out[f"{path.parent.name}/{path.name}"] = sorted(map(repr, df.rows()))
    return out


def test_an_unchanged_project_is_reused_and_the_result_equals_a_from_scratch_build(
    tmp_path: Path,
) -> None:
    root = tmp_path / "portfolio"
    kb, data = tiny_portfolio(root), tmp_path / "data"
    _add_project(root, kb, "solo", "alone", "export function alone() { return 1; }\n")
    refresh(kb, data, "--no-service")
    first, _ = _published(data)
    solo = first / "partition=solo" / "nodes.parquet"
    staged = data / "staging" / "project_graph" / "solo" / "nodes.parquet"
    staged_inode = staged.stat().st_ino
    commit_to(kb, "one", "export const six = () => one() + 5;\n")
    refresh(kb, data, "--no-service")
    second, manifest = _published(data)
    assert second != first
    # the untouched project: its graph not rebuilt, its published files linked, not written
    assert staged.stat().st_ino == staged_inode
    assert (second / "partition=solo" / "nodes.parquet").stat().st_ino == solo.stat().st_ino
    assert (second / "partition=tiny" / "nodes.parquet").stat().st_ino != (
        first / "partition=tiny" / "nodes.parquet"
    ).stat().st_ino
    assert manifest["partitions"]["solo"]["tables"]["nodes"] > 0
    scratch = tmp_path / "scratch"
    refresh(kb, scratch, "--all", "--no-service")
    assert _graph_files(data) == _graph_files(scratch)
    assert _tables(data) == _tables(scratch)
    assert any(b"six" in v for v in _graph_files(data).values())


def _doc_chunks(data: Path) -> list:
    """The published component doc chunks, row by row."""
    import polars as pl

    build, _ = _published(data)
    return sorted(
        repr(r) for r in pl.read_parquet(build / "partition=tiny" / "doc_chunks.parquet").rows()
    )


def _docs_taken_back(data: Path) -> str:
    """What the last doc_chunks materialization says it took back unchanged (Dagster UI)."""
    import dagster as dg

    from pipeline.instance import open_instance

    instance = open_instance(data)
    try:
        record = instance.fetch_materializations(dg.AssetKey("doc_chunks"), limit=1).records[0]
        return record.asset_materialization.metadata["docs taken back unchanged"].value
    finally:
        instance.dispose()


def test_a_code_commit_reuses_the_component_docs_and_a_doc_commit_rechunks_them(
    tmp_path: Path,
) -> None:
    root = tmp_path / "portfolio"
    kb, data = tiny_portfolio(root), tmp_path / "data"
    readme = root / "repos" / "one" / "README.md"
    readme.write_text("# One\n\n## Setup\n\nRun the harbour crane.\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "one: readme")
    refresh(kb, data, "--no-service")
    staged = data / "staging" / "doc_chunks" / "tiny__one" / "doc_chunks.parquet"
    inode = staged.stat().st_ino

    commit_to(kb, "one", "export const seven = 7;\n")  # code only: the docs are taken back
    refresh(kb, data, "--no-service")
    assert _docs_taken_back(data) == "- tiny/one"
    assert staged.stat().st_ino == inode
    assert any("harbour crane" in row for row in _doc_chunks(data))

    readme.write_text("# One\n\n## Setup\n\nRun the lighthouse lamp.\n")  # docs: re-chunked
    git(root, "commit", "-qam", "one: readme edited")
    refresh(kb, data, "--no-service")
    assert _docs_taken_back(data) == "none"
    assert staged.stat().st_ino != inode
    rows = _doc_chunks(data)
    assert any("lighthouse lamp" in row for row in rows)
    assert not any("harbour crane" in row for row in rows)
    scratch = tmp_path / "scratch"
    refresh(kb, scratch, "--all", "--no-service")
    assert rows == _doc_chunks(scratch)
