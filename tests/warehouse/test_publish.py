"""The warehouse as users meet it: atomic publish, crash safety, DuckDB and `kb sql`."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pandera.errors
import polars as pl
import pytest

from tests.support.checks import assert_one_line_failure, output, warehouse_snapshot
from tests.support.portfolio import TODAY, build, built_copy, kb_cli
from warehouse.publish import publish
from warehouse.tables import TABLES, frame, validate


@pytest.fixture(scope="module")
def own_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A built copy of the example for the tests that rebuild or kill builds (all slow)."""
    return built_copy(tmp_path_factory, "warehouse")


@pytest.fixture
def kb(built_example: Path) -> Path:
    """The session's built example: these tests only read it (or fail to publish over it)."""
    return built_example


def _node(node_id: str, line: int = 1) -> dict:
    return {"id": node_id, "project": "p", "kind": "route", "name": node_id, "line": line}


def _assert_complete(kb_root: Path) -> None:
    """The manifest names an existing build whose every partition has every table."""
    data_dir = kb_root / ".kb"
    manifest = json.loads((data_dir / "manifest.json").read_text(encoding="utf-8"))
    build_dir = data_dir / manifest["path"]
    assert build_dir.is_dir() and not build_dir.name.endswith(".tmp")
    assert set(manifest["partitions"]) >= {"_global", "acme-shop", "globex-portal"}
    for partition in manifest["partitions"]:
        folder = build_dir / f"partition={partition}"
        missing = [t for t in TABLES if not (folder / f"{t}.parquet").is_file()]
        assert not missing, f"{folder} lacks {missing}"
    result = kb_cli("sql", "--kb", str(kb_root), "--json", "select count(*) as n from nodes")
    assert result.returncode == 0, output(result)
    assert json.loads(result.stdout)[0]["n"] > 0


@pytest.mark.parametrize(
    "rows",
    [
        pytest.param([_node("p:route:a"), _node("p:route:a")], id="duplicate-node-ids"),
        pytest.param([_node("p:route:b", line=0)], id="line-0"),
    ],
)
def test_pandera_rejects_a_bad_table_and_nothing_switches(kb: Path, rows: list[dict]) -> None:
    data_dir = kb / ".kb"
    before = warehouse_snapshot(kb)
    builds_before = sorted(p.name for p in (data_dir / "builds").iterdir())
    duckdb_before = (data_dir / "kb.duckdb").read_bytes()
    with pytest.raises(pandera.errors.SchemaError):
        publish(data_dir, {"_global": {"nodes": frame("nodes", rows)}})
    assert warehouse_snapshot(kb) == before
    assert sorted(p.name for p in (data_dir / "builds").iterdir()) == builds_before
    assert (data_dir / "kb.duckdb").read_bytes() == duckdb_before
    _assert_complete(kb)


def test_an_empty_table_passes_only_with_the_contract_dtypes() -> None:
    assert validate("nodes", frame("nodes", [])).is_empty()
    wrong = frame("nodes", []).with_columns(pl.col("line").cast(pl.Utf8))
    with pytest.raises(pandera.errors.SchemaError):
        validate("nodes", wrong)
    with pytest.raises(pandera.errors.SchemaError):  # a contract column missing
        validate("nodes", frame("nodes", []).drop("kind"))


def _start_refresh_all(kb_root: Path) -> subprocess.Popen:
    env = {**os.environ, "KB_TODAY": TODAY}
    env.pop("DAGSTER_HOME", None)
    kb_exe = Path(sys.executable).with_name("kb")
    return subprocess.Popen(
        [str(kb_exe), "refresh", "--all", "--kb", str(kb_root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )


def _publishing(data_dir: Path) -> bool:
    builds = data_dir / "builds"
    return any(p.name.endswith(".tmp") for p in builds.iterdir()) or any(
        data_dir.glob("kb.duckdb.tmp-*")
    )


def _runs(data_dir: Path) -> set[tuple[str, int]]:
    """The staged outputs as they are: a Dagster run in progress replaces some of them
    (the event log is one SQLite file, so a run adds no file of its own to watch)."""
    out = set()
    for path in (data_dir / "staging").glob("*/*"):
        try:
            out.add((str(path), path.stat().st_ino))
        except OSError:  # replaced while we looked: the run is writing
            out.add((str(path), -1))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "moment", ["0.5s", "while-extracting", "in-the-dagster-run", "while-publishing"]
)
def test_killed_build_leaves_the_last_good_warehouse(own_kb: Path, moment: str) -> None:
    before = warehouse_snapshot(own_kb)
    runs = _runs(own_kb / ".kb")
    staged_facts = own_kb / ".kb" / "staging" / "code_facts"
    if moment == "while-extracting":  # every component is extracted again, in workers
        shutil.rmtree(staged_facts)
    proc = _start_refresh_all(own_kb)
    try:
        if moment.endswith("s"):
            time.sleep(float(moment.rstrip("s")))
        else:
            ready = {
                "while-publishing": lambda: _publishing(own_kb / ".kb"),
                "in-the-dagster-run": lambda: _runs(own_kb / ".kb") - runs,
                "while-extracting": lambda: any(staged_facts.glob("*/stamp.json")),
            }[moment]
            deadline = time.monotonic() + 120
            while not ready() and proc.poll() is None:
                assert time.monotonic() < deadline, f"the build never got to {moment}"
                time.sleep(0.005)
        assert proc.poll() is None, "the build finished before it could be killed"
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    now = warehouse_snapshot(own_kb)
    assert now == before or now["manifest"] != before["manifest"]  # old build, or a new whole one
    _assert_complete(own_kb)


@pytest.mark.slow
def test_kb_sql_answers_throughout_a_rebuild(own_kb: Path) -> None:
    """Readers never see a half-written build: every query during `refresh --all` works."""
    proc = _start_refresh_all(own_kb)
    answers = 0
    try:
        while proc.poll() is None:
            result = kb_cli("sql", "--kb", str(own_kb), "--json", "select count(*) as n from nodes")
            assert result.returncode == 0, output(result)
            assert json.loads(result.stdout)[0]["n"] > 0
            answers += 1
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    assert proc.returncode == 0
    assert answers >= 2
    _assert_complete(own_kb)


@pytest.mark.slow
def test_a_build_after_a_kill_succeeds_and_cleans_up(own_kb: Path) -> None:
    build(own_kb, "--all")
    _assert_complete(own_kb)
    leftovers = [p.name for p in (own_kb / ".kb" / "builds").iterdir() if p.name.endswith(".tmp")]
    assert not leftovers


def test_kb_duckdb_opens_read_only_for_analysts(kb: Path) -> None:
    con = duckdb.connect(str(kb / ".kb" / "kb.duckdb"), read_only=True)
    try:
        rows = dict(con.execute("select kind, count(*) from nodes group by 1").fetchall())
    finally:
        con.close()
    assert rows["project"] == 3
    assert rows["component"] == 10
    with (
        duckdb.connect(str(kb / ".kb" / "kb.duckdb"), read_only=True) as con,
        pytest.raises(duckdb.Error),
    ):
        con.execute("create table x as select 1")


def test_kb_duckdb_follows_each_build_and_the_data_dir_moving(tmp_path: Path) -> None:
    """An analyst's open session sees the next build; the file is rewritten only when the
    views must change (here: the data dir moved, its old place gone)."""
    data = tmp_path / "data"
    publish(data, {"_global": {"nodes": frame("nodes", [_node("p:route:a")])}})
    db = data / "kb.duckdb"
    made = (db.stat().st_ino, db.stat().st_mtime_ns)
    two = [_node("p:route:a"), _node("p:route:b")]
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("select count(*) from nodes").fetchone() == (1,)
        publish(data, {"_global": {"nodes": frame("nodes", two)}})
        assert con.execute("select count(*) from nodes").fetchone() == (2,)
    assert (db.stat().st_ino, db.stat().st_mtime_ns) == made
    moved = tmp_path / "moved"
    shutil.copytree(data, moved, symlinks=True)
    shutil.rmtree(data)
    publish(moved, {"_global": {"nodes": frame("nodes", [*two, _node("p:route:c")])}})
    with duckdb.connect(str(moved / "kb.duckdb"), read_only=True) as con:
        assert con.execute("select count(*) from nodes").fetchone() == (3,)


def test_kb_sql_json_is_an_array_of_row_objects(kb: Path) -> None:
    query = "select kind, count(*) as n from nodes group by 1 order by 1"
    result = kb_cli("sql", "--kb", str(kb), "--json", query)
    assert result.returncode == 0, output(result)
    rows = json.loads(result.stdout)
    assert isinstance(rows, list) and rows
    assert all(set(r) == {"kind", "n"} for r in rows)
    assert {"kind": "project", "n": 3} in rows


def test_kb_sql_prints_a_table(kb: Path) -> None:
    result = kb_cli("sql", "--kb", str(kb), "select kind, count(*) as n from nodes group by 1")
    assert result.returncode == 0, output(result)
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["kind", "n"]
    assert any(ln.split()[:2] == ["project", "3"] for ln in lines)
    assert lines[-1].endswith("rows)")


@pytest.mark.parametrize(
    "statement",
    [
        "drop view nodes",
        "delete from nodes",
        "create table x as select 1",
        "copy nodes to '/tmp/kb-sql-out.csv'",
        "select 1; drop view nodes",
        "select * from read_csv('/etc/passwd')",
        "select from from",
    ],
)
def test_kb_sql_rejects_anything_but_select(kb: Path, statement: str) -> None:
    result = kb_cli("sql", "--kb", str(kb), statement)
    line = assert_one_line_failure(result, r"^kb sql: ")
    assert output(result).strip() == line
    assert not Path("/tmp/kb-sql-out.csv").exists()
    _assert_complete(kb)


def test_builds_table_keeps_its_own_partition_column(kb: Path) -> None:
    """One `builds` row per partition, named by its own column, not by the folder it sits in."""
    query = "select partition, version from builds order by 1"
    result = kb_cli("sql", "--kb", str(kb), "--json", query)
    assert result.returncode == 0, output(result)
    rows = json.loads(result.stdout)
    assert [r["partition"] for r in rows] == [
        "_global",
        "acme-shop",
        "globex-portal",
        "initech-events",
    ]
    with duckdb.connect(str(kb / ".kb" / "kb.duckdb"), read_only=True) as con:
        assert con.execute(query).fetchall() == [(r["partition"], r["version"]) for r in rows]
        # tables without a column of that name get it from the partition folder
        kinds = con.execute("select distinct partition from nodes order by 1").fetchall()
    assert ("acme-shop",) in kinds and ("_global",) in kinds


def test_manifest_records_build_id_time_and_commit_per_component(kb: Path) -> None:
    manifest = json.loads((kb / ".kb" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["build_id"] and manifest["built_at"]
    repo = kb.parent
    head = subprocess.run(
        ["git", "-C", str(repo), "log", "-1", "--format=%H", "--", "repos/acme-shop/contact-api"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert manifest["components"]["acme-shop/contact-api"]["version"] == head[:12]
