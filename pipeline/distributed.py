"""Scale-out: a refresh's stale partitions as per-partition runs on a Dagster executor.

`kb refresh` runs in one process by default. With `KB_EXECUTOR=celery` (or
`multiprocess`), every stale component partition of the partitioned assets
(`code_facts`, `doc_chunks`) becomes its own run of the `component_partition` job; the
job's executor places the run's steps: `dagster_celery.celery_executor` sends each step
to whichever Celery worker takes it from the broker, `multiprocess_executor` to a local
subprocess. No scheduler of ours: Dagster plans the steps, Celery queues them, the
workers record their events in the shared instance. The unpartitioned rest of the
refresh (graph, indexes, checks, publish) then runs in process as before, reading the
staged partitions from the shared data dir: one writer publishes the warehouse.

Settings (environment, so `kb refresh`, hooks and services pick them up unchanged):
  KB_EXECUTOR          in_process (default) | multiprocess | celery
  KB_CELERY_BROKER     broker URL, e.g. redis://127.0.0.1:6379/0
  KB_CELERY_BACKEND    result backend URL (defaults to the broker URL)
  KB_PARTITION_RUNS    how many partition runs are in flight at once (default 4)
Workers: `dagster-celery worker start -A dagster_celery.app -y <celery.yaml>` with the
same DAGSTER_HOME (the instance: PostgreSQL through KB_POSTGRES_URL across machines,
docs/team.md) and the data dir on a path they all see.

A worker that dies mid-step (its machine lost, the process killed) never reports its
task: Dagster's Celery executor would wait for it forever and the run would stay
STARTED. `pipeline.lost_workers` watches each partition run's tasks and fails a task
whose worker no longer answers, so the run ends FAILURE and the refresh says which.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import dagster as dg

from assets.partitions import components_partitions
from pipeline.settings import setting_error
from pipeline.step_errors import step_error_line

PARTITION_JOB = "component_partition"
# The pid of the process coordinating a partition run (`_end_with_parent`).
COORDINATOR_TAG = "kb/coordinator_pid"
QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}


def _executor_def(name: str) -> dg.ExecutorDefinition:
    if name == "celery":
        from dagster_celery import celery_executor

        return celery_executor
    return dg.multiprocess_executor


def partition_job(kb_root: str, data_dir: str, executor: str) -> dg.JobDefinition:
    """The per-partition job over the partitioned assets (rebuilt by the workers too)."""
    from pipeline.definitions import build_definitions

    defs = build_definitions(kb_root, data_dir)
    job = dg.define_asset_job(
        PARTITION_JOB,
        selection=_partitioned(defs),
        partitions_def=components_partitions,
        executor_def=_executor_def(executor),
    )
    return dg.Definitions(
        assets=defs.assets, asset_checks=defs.asset_checks, resources=defs.resources, jobs=[job]
    ).resolve_job_def(PARTITION_JOB)


def _partitioned(defs: dg.Definitions) -> dg.AssetSelection:
    specs = defs.resolve_all_asset_specs()
    keys = [s.key for s in specs if s.partitions_def == components_partitions]
    return dg.AssetSelection.assets(*keys) - dg.AssetSelection.groups("sources")


def _celery_urls() -> tuple[str, str]:
    broker = os.environ["KB_CELERY_BROKER"]
    return broker, os.environ.get("KB_CELERY_BACKEND") or broker


def _run_config(executor: str) -> dict:
    if executor != "celery":
        return QUIET
    broker, backend = _celery_urls()
    # the task's record then names the worker running it (pipeline.lost_workers)
    source = {"task_track_started": True}
    config = {"broker": broker, "backend": backend, "config_source": source}
    return {**QUIET, "execution": {"config": config}}


def run_partitions(
    instance: dg.DagsterInstance,
    kb_root: Path,
    data_dir: Path,
    requested: dict[dg.AssetKey, set[str]],
    executor: str,
) -> list[str]:
    """One run per stale partition (its stale assets only), spread by `executor`.

    Several runs are in flight at once, each coordinated by its own process (Dagster's
    run set-up reconfigures `logging`, which deadlocks when two runs start in threads of
    one process); the executor decides where the steps execute. Returns one error line
    per failed run."""
    if error := setting_error(executor):
        return [error]
    by_partition: dict[str, list[str]] = {}
    for key, partitions in requested.items():
        for partition in partitions:
            by_partition.setdefault(partition, []).append(key.to_user_string())
    jobs = [
        (instance.root_directory, str(kb_root), str(data_dir), executor, p, sorted(keys))
        for p, keys in sorted(by_partition.items())
    ]
    in_flight = max(1, min(int(os.environ.get("KB_PARTITION_RUNS", "4")), len(jobs)))
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=in_flight, mp_context=context) as pool:
        return [e for e in pool.map(_run_partition, jobs, chunksize=1) if e]


def _run_partition(job: tuple) -> str | None:
    home, kb_root, data_dir, executor, partition, keys = job

    warnings.filterwarnings("ignore", category=dg.BetaWarning)
    warnings.filterwarnings("ignore", category=dg.PreviewWarning)

    recon = dg.build_reconstructable_job(
        "pipeline.distributed",
        "partition_job",
        reconstructable_kwargs={"kb_root": kb_root, "data_dir": data_dir, "executor": executor},
    )
    watch = None
    if executor == "celery":
        from pipeline.lost_workers import LostWorkerWatch

        watch = LostWorkerWatch(*_celery_urls())
    with dg.DagsterInstance.from_config(home) as instance, watch or contextlib.nullcontext():
        _end_with_parent(instance)
        result = dg.execute_job(
            recon,
            instance=instance,
            run_config=_run_config(executor),
            tags={"dagster/partition": partition, COORDINATOR_TAG: str(os.getpid())},
            asset_selection=[dg.AssetKey.from_user_string(k) for k in keys],
            raise_on_error=False,
        )
        if result.success:
            return None
        return f"{partition}: run {result.run_id} failed {_why(result, watch)}".rstrip()


def _end_with_parent(instance: dg.DagsterInstance) -> None:
    """When the `kb refresh` that started this coordinator goes away (killed, Ctrl-C'd in
    another terminal), fail the run it coordinates and exit: an orphan would wait for its
    steps forever and leave the run STARTED in every UI."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        mine = dg.RunsFilter(
            tags={COORDINATOR_TAG: str(os.getpid())},
            statuses=[dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.STARTING],
        )
        with contextlib.suppress(Exception):
            for run in instance.get_runs(filters=mine):
                instance.report_run_failed(run, "the kb refresh coordinating this run stopped")
        os._exit(1)

    threading.Thread(target=watch, name="kb-parent-watch", daemon=True).start()


def _why(result: dg.ExecuteJobResult, watch) -> str:
    """The first line of what failed: a lost worker, a step's error, or the run's."""
    if watch is not None and watch.lost:
        return watch.lost[0]
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data.error:
            return step_error_line(event.step_failure_data.error)
    for event in result.all_events:
        if event.is_failure and event.message:
            return event.message.strip().splitlines()[0]
    return ""
