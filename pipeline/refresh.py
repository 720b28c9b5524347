"""`kb refresh`: materialize exactly what is stale, through Dagster, in process.

1. sync the component partitions with the KB; 2. observe the sources (KB hash,
component versions); 3. evaluate the assets' automation conditions (the same ones the
Dagster UI's automation sensor evaluates), with the cursor kept in the data dir;
4. run everything stale in ONE run: the stale partitions of partitioned assets as a
partition range (current components inside the range are reused, not re-extracted),
the stale unpartitioned assets and everything downstream, with the blocking checks
(KB validation, no cross-project edge) in the same run, guarding the publish step.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import dagster as dg
from dagster._serdes import deserialize_value, serialize_value

# Before the Definitions import below: their beta APIs warn at decoration time, and a
# CLI user should see our progress lines, not Dagster's API-stability notices.
warnings.filterwarnings("ignore", category=dg.BetaWarning)
warnings.filterwarnings("ignore", category=dg.PreviewWarning)

from assets.partitions import components_partitions  # noqa: E402
from kb.model import KnowledgeBase  # noqa: E402
from kb.problems import Problem  # noqa: E402
from pipeline.definitions import build_definitions  # noqa: E402
from pipeline.distributed import run_partitions, selected_executor  # noqa: E402
from pipeline.fastpath import staleness  # noqa: E402
from pipeline.sensors import partition_requests  # noqa: E402

# Dagster's console logger prints step failures with stack traces; `run_refresh` reports
# each failure as one line of its own instead.
QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
CURSOR_FILE = "automation_cursor.json"
# Assets whose blocking checks must run in every build run that publishes.
GUARDED = {dg.AssetKey("kb_docs"), dg.AssetKey("project_graph")}


@dataclass
class RefreshOutcome:
    materialized: list[str] = field(default_factory=list)
    failed_checks: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    validation_errors: list[Problem] = field(default_factory=list)  # when kb_validation failed

    @property
    def ok(self) -> bool:
        return not self.failed_checks and not self.errors


def dagster_home(data_dir: Path) -> Path:
    """`$DAGSTER_HOME` when set (tests, `dagster dev`), else `<data_dir>/dagster`."""
    home = Path(os.environ.get("DAGSTER_HOME") or data_dir / "dagster")
    home.mkdir(parents=True, exist_ok=True)
    config = home / "dagster.yaml"
    if not config.exists():
        config.write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    return home


def open_instance(data_dir: Path) -> dg.DagsterInstance:
    from dagster._core.instance.ref import InstanceRef

    return dg.DagsterInstance.from_ref(InstanceRef.from_dir(str(dagster_home(data_dir))))


def sync_partitions(instance: dg.DagsterInstance, kb: KnowledgeBase) -> None:
    existing = instance.get_dynamic_partitions(components_partitions.name)
    for request in partition_requests([c.key for c in kb.components()], existing):
        if isinstance(request, dg.AddDynamicPartitionsRequest):
            instance.add_dynamic_partitions(
                request.partitions_def_name, list(request.partition_keys)
            )
        else:
            for key in request.partition_keys:
                instance.delete_dynamic_partition(request.partitions_def_name, key)


def _evaluate(
    defs: dg.Definitions, instance: dg.DagsterInstance, cursor_path: Path
) -> dict[dg.AssetKey, set[str | None]]:
    """One automation tick, its cursor kept in the data dir; what it requests, per asset."""
    cursor = None
    if cursor_path.exists():
        try:
            cursor = deserialize_value(cursor_path.read_text(encoding="utf-8"))
        except Exception:  # an unreadable cursor only costs one full evaluation
            cursor = None
    result = dg.evaluate_automation_conditions(defs=defs, instance=instance, cursor=cursor)
    cursor_path.write_text(serialize_value(result.cursor), encoding="utf-8")
    requested = {}
    for spec in defs.resolve_all_asset_specs():
        parts = result.get_requested_partitions(spec.key)
        if parts:
            requested[spec.key] = set(parts)
    return requested


def stale_selection(
    defs: dg.Definitions, instance: dg.DagsterInstance, data_dir: Path
) -> dict[dg.AssetKey, set[str | None]]:
    """Observe the sources, evaluate automation conditions; what they request, per asset.

    Two ticks. The first, before observing, takes in the materializations of the last
    build: Dagster's `since_last_handled` drops a trigger that fires on the same tick as
    its reset, so a commit observed on the first tick after a build would otherwise be
    lost (the build's "newly updated" reset would swallow it). The second tick sees the
    new commits and KB edits. Both ticks' requests count.
    """
    cursor_path = dagster_home(data_dir) / CURSOR_FILE
    requested = _evaluate(defs, instance, cursor_path)
    defs.resolve_job_def("observe_sources").execute_in_process(instance=instance, run_config=QUIET)
    for key, parts in _evaluate(defs, instance, cursor_path).items():
        requested.setdefault(key, set()).update(parts)
    return requested


def _all_selection(
    defs: dg.Definitions, instance: dg.DagsterInstance
) -> dict[dg.AssetKey, set[str | None]]:
    keys = instance.get_dynamic_partitions(components_partitions.name)
    out: dict[dg.AssetKey, set[str | None]] = {}
    for spec in defs.resolve_all_asset_specs():
        if spec.automation_condition is None:  # sources, and imports (`kb import` runs those)
            continue
        out[spec.key] = set(keys) if spec.partitions_def else {None}
    return out


def run_refresh(
    kb: KnowledgeBase, data_dir: Path, force: bool = False, say: Callable[[str], None] = print
) -> RefreshOutcome:
    start = time.perf_counter()
    instance = open_instance(data_dir)
    defs = build_definitions(str(kb.config.root), str(data_dir))
    sync_partitions(instance, kb)
    requested = stale_selection(defs, instance, data_dir)
    if not requested and not force:
        # Dagster counts a request as handled even when its run failed (no retry
        # storms), so after a failed build it sees nothing stale while the published
        # warehouse is still behind. The manifest is the referee: rebuild everything;
        # components whose staged facts are current are reused, not re-extracted.
        behind = staleness(kb, data_dir).reasons
        if behind:
            say(f"the published warehouse is behind ({behind[0]}): rebuilding")
            force = True
    if force:
        requested = _all_selection(defs, instance)
    outcome = RefreshOutcome()
    if not requested:
        say(
            f"nothing stale per Dagster's automation conditions ({time.perf_counter() - start:.1f}s)"
        )
        return outcome
    assets = list(defs.assets or []) + list(defs.asset_checks or [])
    resources = dict(defs.resources)
    position = {
        k: i for i, k in enumerate(instance.get_dynamic_partitions(components_partitions.name))
    }
    partitioned = {k: v for k, v in requested.items() if v != {None}}
    graph = defs.resolve_asset_graph()
    partitioned_keys = {s.key for s in defs.resolve_all_asset_specs() if s.partitions_def}
    downstream = dg.AssetSelection.assets(*requested).downstream().resolve(graph)
    unpartitioned = {
        k for k in downstream if k not in partitioned_keys and graph.get(k).is_materializable
    }
    if unpartitioned:  # blocking checks guard only their own run: always re-check
        unpartitioned |= GUARDED
    tags: dict[str, str] = {}
    if partitioned:
        keys = sorted({p for v in partitioned.values() for p in v if p}, key=position.__getitem__)
        shown = ", ".join(keys[:8]) + (" …" if len(keys) > 8 else "")
        say(f"extracting {len(keys)} stale component(s): {shown}")
        tags = {
            "dagster/asset_partition_range_start": keys[0],
            "dagster/asset_partition_range_end": keys[-1],
        }
    if partitioned and (executor := selected_executor()):  # scale-out hook (docs/scale.md)
        say(f"{len(keys)} partition run(s) on the {executor} executor")
        outcome.errors += run_partitions(instance, kb.config.root, data_dir, partitioned, executor)
        if not outcome.ok:
            return outcome
        partitioned_run, tags = {}, {}
    else:
        partitioned_run = partitioned
    selection = sorted(partitioned_run) + sorted(unpartitioned)
    say(f"one run: {', '.join(k.to_user_string() for k in selection)}")
    result = dg.materialize(
        assets,
        selection=selection,
        instance=instance,
        resources=resources,
        tags=tags,
        run_config=QUIET,
        raise_on_error=False,
    )
    _collect(result, outcome)
    if "kb_validation" in outcome.failed_checks:
        outcome.validation_errors = _validation_errors(defs)
    if force and outcome.ok:
        # A forced build is not something the automation cursor asked for: one more tick
        # takes it in, so code-version changes it already built are not requested again.
        _evaluate(defs, instance, dagster_home(data_dir) / CURSOR_FILE)
    outcome.materialized += [f"{k.to_user_string()}[{len(v)}]" for k, v in partitioned.items()]
    outcome.materialized += [k.to_user_string() for k in sorted(unpartitioned)]
    say(f"{'stopped' if not outcome.ok else 'done'} in {time.perf_counter() - start:.1f}s")
    return outcome


def _collect(result: dg.ExecuteInProcessResult, outcome: RefreshOutcome) -> None:
    for evaluation in result.get_asset_check_evaluations():
        if not evaluation.passed:
            outcome.failed_checks.append(evaluation.check_name)
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data and event.step_failure_data.error:
            error = event.step_failure_data.error
            if error.cls_name == "DagsterAssetCheckFailedError":
                continue  # reported by name in failed_checks
            outcome.errors.append(
                f"{event.step_key}: {error.cls_name}: {error.message.strip().splitlines()[0]}"
            )


def _validation_errors(defs: dg.Definitions) -> list[Problem]:
    """The KB's errors as `kb_docs` staged them for its (failed) validation check, sorted."""
    from assets.knowledge import problems_of
    from assets.resources import STAGING

    problems = problems_of(defs.resources[STAGING].stored("kb_docs"))
    return sorted(p for p in problems if p.severity == "error")
