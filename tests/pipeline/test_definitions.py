"""The Dagster code location, materialized for real in a temporary DAGSTER_HOME.

One copy of the example is built in process from `Definitions`; the tests that follow
run in order on it: `kb refresh` twice (the second does nothing), a commit to one
component (the fast path and Dagster's own automation evaluation name exactly that
partition, and `kb refresh` re-extracts only it), then a KB edit (KB assets, no code).
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import dagster as dg
import pytest

from assets.partitions import components_partitions
from kb.loader import load_kb
from pipeline.definitions import build_definitions
from pipeline.fastpath import staleness
from pipeline.refresh import stale_selection
from tests.support.checks import (
    assert_nothing_to_do,
    output,
    skip_if_code_changed,
    skip_if_source_changed_since_import,
)
from tests.support.portfolio import copy_example, git, kb_cli

warnings.filterwarnings("ignore", category=dg.BetaWarning)
warnings.filterwarnings("ignore", category=dg.PreviewWarning)

CODE_FACTS = dg.AssetKey("code_facts")
COMPONENT = "acme-shop/contact-api"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dagster_home")
    (path / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def kb_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_example(tmp_path_factory.mktemp("dagster") / "portfolio")


def _refresh(kb_root: Path, home: Path):
    result = kb_cli("refresh", "--kb", str(kb_root), env={"DAGSTER_HOME": str(home)})
    assert result.returncode == 0, output(result)
    assert "Traceback" not in output(result)
    return result


def _dagster_requests(kb_root: Path, home: Path, tmp_path: Path, monkeypatch) -> dict:
    """What Dagster's automation evaluation requests now, on a throwaway copy of the instance."""
    skip_if_source_changed_since_import()
    scratch = tmp_path / "home-copy"
    shutil.copytree(home, scratch)
    monkeypatch.setenv("DAGSTER_HOME", str(scratch))
    instance = dg.DagsterInstance.get()
    kb = load_kb(kb_root)
    defs = build_definitions(str(kb.config.root), str(kb.config.data_dir))
    return stale_selection(defs, instance, kb.config.data_dir)


def _stamps(kb_root: Path) -> dict[str, bytes]:
    base = kb_root / ".kb" / "staging" / "code_facts"
    return {p.parent.name: p.read_bytes() for p in sorted(base.glob("*/stamp.json"))}


def _scheduled(defs: dg.Definitions) -> set[dg.AssetKey]:
    """Assets a schedule runs (imports): `kb refresh` never builds those."""
    keys: set[dg.AssetKey] = set()
    for schedule in defs.schedules or []:
        job = defs.resolve_job_def(schedule.job_name)
        keys |= set(job.asset_layer.selected_asset_keys)
    return keys


def test_every_asset_is_versioned_and_automated() -> None:
    from pipeline.definitions import defs

    graph = defs.resolve_asset_graph()
    scheduled = _scheduled(defs)
    for spec in defs.resolve_all_asset_specs():
        if graph.get(spec.key).is_observable and not graph.get(spec.key).is_materializable:
            continue  # sources: observed, never materialized
        name = spec.key.to_user_string()
        assert spec.code_version, f"{name} has no code_version"
        if spec.key not in scheduled:
            assert spec.automation_condition is not None, f"{name} has no automation condition"
    checks = {k.name: graph.get_check_spec(k) for k in graph.asset_check_keys}
    assert checks["kb_validation"].blocking
    assert checks["kb_validation"].asset_key == dg.AssetKey("kb_docs")
    assert checks["no_cross_project_edges"].blocking
    assert checks["no_cross_project_edges"].asset_key == dg.AssetKey("project_graph")
    observed = defs.resolve_job_def("observe_sources").asset_layer.selected_asset_keys
    assert set(observed) == {dg.AssetKey("kb_source"), dg.AssetKey("component_versions")}


@pytest.mark.slow
def test_materialize_everything_in_a_temporary_dagster_home(
    kb_root: Path, home: Path, monkeypatch
) -> None:
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    instance = dg.DagsterInstance.get()
    kb = load_kb(kb_root)
    defs = build_definitions(str(kb.config.root), str(kb.config.data_dir))
    keys = [c.key for c in kb.components()]
    instance.add_dynamic_partitions(components_partitions.name, keys)
    defs.resolve_job_def("observe_sources").execute_in_process(instance=instance)
    graph = defs.resolve_asset_graph()
    specs = [  # what `kb refresh` builds: every automated asset (not the scheduled imports)
        s
        for s in defs.resolve_all_asset_specs()
        if graph.get(s.key).is_materializable and s.automation_condition is not None
    ]
    everything = list(defs.assets or []) + list(defs.asset_checks or [])
    resources = dict(defs.resources)
    partitioned = [s.key for s in specs if s.partitions_def]
    result = dg.materialize(
        everything,
        selection=partitioned,
        instance=instance,
        resources=resources,
        tags={
            "dagster/asset_partition_range_start": keys[0],
            "dagster/asset_partition_range_end": keys[-1],
        },
    )
    assert result.success
    rest = [s.key for s in specs if not s.partitions_def]
    result = dg.materialize(everything, selection=rest, instance=instance, resources=resources)
    assert result.success
    checks = {e.check_name: e.passed for e in result.get_asset_check_evaluations()}
    assert checks == {"kb_validation": True, "no_cross_project_edges": True}
    for spec in specs:
        event = instance.get_latest_materialization_event(spec.key)
        assert event is not None, f"{spec.key.to_user_string()} never materialized"
    assert set(instance.get_materialized_partitions(CODE_FACTS)) == set(keys)
    assert (kb.config.data_dir / "manifest.json").is_file()
    assert len(_stamps(kb_root)) == len(keys)
    sql = kb_cli("sql", "--kb", str(kb_root), "select kind, count(*) from nodes group by 1")
    assert sql.returncode == 0, output(sql)


@pytest.mark.slow
def test_refresh_twice_the_second_does_nothing(
    kb_root: Path, home: Path, tmp_path, monkeypatch
) -> None:
    assert _dagster_requests(kb_root, home, tmp_path, monkeypatch) == {}
    _refresh(kb_root, home)
    second = _refresh(kb_root, home)
    assert_nothing_to_do(second)
    assert "extracting" not in second.stdout and "run:" not in second.stdout


@pytest.mark.slow
def test_commit_to_one_component_restales_exactly_it(
    kb_root: Path, home: Path, tmp_path, monkeypatch
) -> None:
    repo = kb_root.parent
    target = repo / "repos" / COMPONENT / "src" / "index.ts"
    assert target.is_file(), "example layout changed: pick another file of contact-api"
    target.write_text(target.read_text(encoding="utf-8") + "\n// touched by a test\n", "utf-8")
    git(repo, "commit", "-qam", "touch contact-api")

    fast = staleness(load_kb(kb_root), kb_root / ".kb")
    assert fast.stale_components == [COMPONENT]
    requested = _dagster_requests(kb_root, home, tmp_path, monkeypatch)
    assert requested.get(CODE_FACTS) == {COMPONENT}, requested  # the two agree

    stamps = _stamps(kb_root)
    result = _refresh(kb_root, home)
    skip_if_code_changed(result)
    extracting = [ln for ln in result.stdout.splitlines() if ln.startswith("extracting")]
    assert len(extracting) == 1, output(result)
    assert extracting[0].startswith("extracting 1 stale component(s)"), extracting
    assert extracting[0].endswith(f": {COMPONENT}"), extracting
    after = _stamps(kb_root)
    changed = sorted(k for k in after if after[k] != stamps.get(k))
    assert changed == [COMPONENT.replace("/", "__")]
    assert_nothing_to_do(_refresh(kb_root, home))


@pytest.mark.slow
def test_status_names_the_stale_component(kb_root: Path, home: Path) -> None:
    repo = kb_root.parent
    target = repo / "repos" / "globex-portal" / "api" / "README-test.md"
    target.write_text("touched\n", encoding="utf-8")
    git(repo, "add", "-A", "repos")
    git(repo, "commit", "-qm", "touch globex api")
    result = kb_cli("status", "--kb", str(kb_root))
    assert result.returncode == 0, output(result)
    stale = [ln for ln in result.stdout.splitlines() if "code_graph_stale" in ln]
    assert len(stale) == 1 and stale[0].strip().startswith("globex-portal/api:"), result.stdout
    _refresh(kb_root, home)
    assert "code_graph_stale" not in kb_cli("status", "--kb", str(kb_root)).stdout


@pytest.mark.slow
def test_kb_edit_stales_kb_assets_but_no_code_facts(
    kb_root: Path, home: Path, tmp_path, monkeypatch
) -> None:
    doc = kb_root / "projects/acme-shop/contact-api/architecture.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\nOne more sentence.\n", "utf-8")
    fast = staleness(load_kb(kb_root), kb_root / ".kb")
    assert fast.stale_components == []
    assert any(r.startswith("KB edited") for r in fast.reasons), fast.reasons
    requested = _dagster_requests(kb_root, home, tmp_path, monkeypatch)
    assert dg.AssetKey("kb_docs") in requested, requested
    assert CODE_FACTS not in requested, requested

    stamps = _stamps(kb_root)
    result = _refresh(kb_root, home)
    skip_if_code_changed(result)
    assert "extracting" not in result.stdout, output(result)
    assert _stamps(kb_root) == stamps
    assert_nothing_to_do(_refresh(kb_root, home))


def test_sensors_keep_partitions_in_sync_and_notice_commits(
    example_kb: Path, tmp_path, monkeypatch
) -> None:
    """What `dagster dev` runs: the components sensor and the repo commits sensor."""
    home = tmp_path / "sensor_home"
    home.mkdir()
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    instance = dg.DagsterInstance.get()
    defs = build_definitions(str(example_kb), str(example_kb / ".kb"))
    resources = {"kb": defs.resources["kb"]}

    def tick(name: str, cursor: str | None = None):
        sensor = defs.resolve_sensor_def(name)
        context = dg.build_sensor_context(instance=instance, resources=resources, cursor=cursor)
        return sensor.evaluate_tick(context)

    result = tick("components_sensor")
    added = [k for r in result.dynamic_partitions_requests for k in r.partition_keys]
    assert sorted(added) == sorted(c.key for c in load_kb(example_kb).components())
    instance.add_dynamic_partitions(components_partitions.name, added)
    assert tick("components_sensor").dynamic_partitions_requests == []

    first = tick("repo_commits_sensor")
    assert len(first.run_requests) == 1
    again = tick("repo_commits_sensor", first.cursor)
    assert again.run_requests == [] and "no new commits" in (again.skip_message or "")
    repo = example_kb.parent
    target = repo / "repos" / COMPONENT / "src" / "index.ts"
    target.write_text(target.read_text(encoding="utf-8") + "\n// new\n", encoding="utf-8")
    git(repo, "commit", "-qam", "new commit")
    assert len(tick("repo_commits_sensor", first.cursor).run_requests) == 1
    shutil.rmtree(example_kb / "projects" / "initech-events" / "web")
    requests = tick("components_sensor").dynamic_partitions_requests
    assert [(type(r).__name__, list(r.partition_keys)) for r in requests] == [
        ("DeleteDynamicPartitionsRequest", ["initech-events/web"])
    ]


@pytest.mark.slow
def test_dagster_cli_loads_the_code_location(tmp_path) -> None:
    """What `dagster dev` loads from pyproject's [tool.dagster]: it validates cleanly."""
    import os
    import subprocess
    import sys

    from tests.support.portfolio import REPO

    env = {**os.environ, "DAGSTER_HOME": str(tmp_path)}
    (tmp_path / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    dagster = Path(sys.executable).with_name("dagster")
    result = subprocess.run(
        [str(dagster), "definitions", "validate"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Validation successful for code location kb_graph" in result.stdout + result.stderr
