"""A team's scale-out: `KB_EXECUTOR=celery kb refresh` on a PostgreSQL instance.

Real parts only: Debian's PostgreSQL (bench/postgres.py) and redis-server (bench/cluster.py)
on loopback in temporary folders, two real dagster-celery workers, the real `kb refresh`
and `kb ui`. The Celery build publishes the same warehouse as the in-process one, the UI
started against the same instance shows the partition runs, and a worker killed mid-step
leaves a failed run that names it — never a run stuck in STARTED.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from bench.cluster import CeleryCluster, graph_dump, redis_available
from bench.postgres import PostgresServer, postgres_available
from kb.loader import load_kb
from tests.support.dagster_dev import free_port, graphql, wait_for
from tests.support.portfolio import git, kb_cli
from tests.support.processes import running, start, stop_group

pytestmark = pytest.mark.slow

KB = str(Path(sys.executable).with_name("kb"))
RUNS = "{ runsOrError { ... on Runs { results { runId status tags { key value } } } } }"


@pytest.fixture(scope="module")
def postgres():
    if why := postgres_available() or redis_available():
        pytest.skip(f"{why}: scripts/test.sh installs Debian's postgresql and redis-server")
    with PostgresServer() as server:
        yield server


@pytest.fixture
def cluster(postgres, tmp_path):
    from tests.support.portfolio import copy_example

    kb_root = copy_example(tmp_path / "portfolio")
    data_dir = tmp_path / "data-celery"
    url = postgres.new_database(f"kb_{uuid.uuid4().hex[:12]}")  # each test its own instance
    with CeleryCluster(
        data_dir / "dagster", workers=2, work=tmp_path / "celery", postgres_url=url
    ) as running_cluster:
        yield kb_root, data_dir, running_cluster


def _instance(env: dict[str, str], data_dir: Path, monkeypatch):
    import dagster as dg

    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return dg.DagsterInstance.from_config(str(data_dir / "dagster"))


def test_celery_on_postgres_builds_what_in_process_does_the_ui_shows_it_and_a_lost_worker_fails(
    cluster, tmp_path, monkeypatch
):
    """One cluster for the whole story (a Celery build costs minutes here)."""
    kb_root, data_dir, celery = cluster
    local = tmp_path / "data-local"
    assert kb_cli("refresh", "--kb", str(kb_root), "--data-dir", str(local)).returncode == 0

    result = kb_cli(
        "refresh", "--kb", str(kb_root), "--data-dir", str(data_dir), env=celery.env(), timeout=900
    )

    assert result.returncode == 0, result.stdout + result.stderr
    components = len(load_kb(kb_root).components())
    assert f"{components} partition run(s) on the celery executor" in result.stdout
    logs = celery.worker_logs()
    assert graph_dump(data_dir) == graph_dump(local)
    assert "postgres" in (data_dir / "dagster" / "dagster.yaml").read_text()

    with _instance(celery.env(), data_dir, monkeypatch) as instance:
        runs = instance.get_runs()
        stored = {r.run_id: r.status.value for r in runs}
        partition_runs = [r for r in runs if r.tags.get("dagster/partition")]
        steps = {
            r.run_id: {s.step_key for s in instance.get_run_step_stats(r.run_id)}
            for r in partition_runs
        }
    assert len(stored) == components + 1  # a run per partition, then the build run
    assert set(stored.values()) == {"SUCCESS"}
    # each partition's steps (code_facts, doc_chunks and their checks) ran on the workers,
    # one Celery task per step, and both workers took some
    assert len(partition_runs) == components
    assert all({"code_facts", "doc_chunks"} <= keys for keys in steps.values()), steps
    assert sum(log.count("succeeded") for log in logs) == sum(map(len, steps.values()))
    assert all("succeeded" in log for log in logs)

    port = free_port()
    env = {**os.environ, **celery.env()}
    env.pop("DAGSTER_HOME", None)
    argv = [KB, "ui", "--kb", str(kb_root), "--data-dir", str(data_dir), "--port", str(port)]
    with running(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        shown = wait_for(lambda: graphql(port, RUNS)["runsOrError"]["results"], 240, 1)
        assert shown, "kb ui did not answer GraphQL"
        in_ui = {r["runId"]: r["status"] for r in shown}  # the daemon may have added its own
        assert {run_id: in_ui.get(run_id) for run_id in stored} == stored
        partitions = {
            t["value"] for r in shown for t in r["tags"] if t["key"] == "dagster/partition"
        }
        assert partitions == {c.key for c in load_kb(kb_root).components()}

    _kill_workers_mid_step(kb_root, data_dir, celery, tmp_path, monkeypatch)


def _big_component(kb_root: Path) -> str:
    """Give one component enough code that its extraction takes seconds; its key."""
    component = next(c for c in load_kb(kb_root).components() if c.repo_path)
    lines = [
        f"export async function load{i}(id) {{ return fetch(`/api/items/${{id}}/{i}`); }}"
        for i in range(120_000)
    ]
    (component.repo_path / "generated_big.js").write_text("\n".join(lines) + "\n")
    git(kb_root.parent, "add", "-A")
    git(kb_root.parent, "commit", "-q", "-m", "a big generated module")
    return component.key


def _step_started(instance, partition: str, earlier: set[str]) -> bool:
    """Whether a step of a new run of `partition` (none of `earlier`) has started."""
    import dagster as dg

    runs = instance.get_runs(filters=dg.RunsFilter(tags={"dagster/partition": partition}))
    return any(
        instance.all_logs(run.run_id, of_type=dg.DagsterEventType.STEP_START)
        for run in runs
        if run.run_id not in earlier
    )


def _kill_workers_mid_step(kb_root, data_dir, celery, tmp_path, monkeypatch) -> None:
    """Every worker SIGKILLed while the big component's step runs: the refresh ends with one
    line naming the lost worker, no run is left STARTED, and with workers back the next
    refresh publishes what an in-process build does."""
    partition = _big_component(kb_root)
    env = {**os.environ, **celery.env()}
    env.pop("DAGSTER_HOME", None)
    argv = [KB, "refresh", "--kb", str(kb_root), "--data-dir", str(data_dir)]
    with _instance(celery.env(), data_dir, monkeypatch) as instance:
        earlier = {run.run_id for run in instance.get_runs()}
    refresh = start(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        with _instance(celery.env(), data_dir, monkeypatch) as instance:
            started = wait_for(lambda: _step_started(instance, partition, earlier), 300, 0.1)
            assert started, "the big component's step never started"
            celery.kill_workers()
            try:
                out, _ = refresh.communicate(timeout=300)
            except subprocess.TimeoutExpired:
                pytest.fail("the refresh hung after its workers were killed")
            assert refresh.returncode == 1, out
            assert "was lost while running task" in out and partition in out, out
            # this refresh's runs; a run the UI's daemon queued before it stopped stays
            # QUEUED until a daemon runs again (Dagster's run queue), which is not this test's
            deadline = time.monotonic() + 60
            while True:
                ours = [r for r in instance.get_runs() if r.run_id not in earlier]
                statuses = [r.status.value for r in ours]
                done = not {"STARTED", "STARTING", "QUEUED", "NOT_STARTED"} & set(statuses)
                if done or time.monotonic() > deadline:
                    break
                time.sleep(0.5)
            assert done, f"runs left unfinished: {statuses}"
            assert "FAILURE" in statuses
    finally:
        stop_group(refresh)

    celery.start_workers(2)  # the machines are back: the next refresh builds it
    again = kb_cli(
        "refresh", "--kb", str(kb_root), "--data-dir", str(data_dir), env=celery.env(), timeout=900
    )
    assert again.returncode == 0, again.stdout + again.stderr
    local = tmp_path / "data-local"  # brought to the same commit in process
    assert kb_cli("refresh", "--kb", str(kb_root), "--data-dir", str(local)).returncode == 0
    assert graph_dump(data_dir) == graph_dump(local)
