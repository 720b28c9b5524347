"""`kb refresh`: materialize exactly what is stale, through Dagster, in process.

1. sync the component partitions with the KB; 2. observe the sources (KB hash,
component versions); 3. evaluate the assets' automation conditions (the same ones the
Dagster UI's automation sensor evaluates), with the cursor kept in the data dir;
4. run everything stale in ONE run: the stale partitions of partitioned assets as a
partition range (current components inside the range are reused, not re-extracted),
the stale unpartitioned assets and everything downstream, with the blocking checks
(KB validation, no cross-project edge) in the same run, guarding the publish step.

`Refresher` holds what a refresh needs from Dagster (instance, definitions, the asset
job); `kb refresh` makes one per call (cold), the refresh service keeps one warm
(`pipeline.service`). `Phases` times each step for `kb refresh --profile`.
"""

from __future__ import annotations

import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import dagster as dg
from dagster import deserialize_value, serialize_value
from dagster._core.storage.asset_check_execution_record import AssetCheckExecutionRecordStatus

# Before the Definitions import below: their beta APIs warn at decoration time, and a
# CLI user should see our progress lines, not Dagster's API-stability notices.
warnings.filterwarnings("ignore", category=dg.BetaWarning)
warnings.filterwarnings("ignore", category=dg.PreviewWarning)

from assets.code import component_versions, observed_versions  # noqa: E402
from assets.knowledge import kb_source  # noqa: E402
from assets.partitions import components_partitions  # noqa: E402
from kb.model import KnowledgeBase  # noqa: E402
from kb.problems import Problem  # noqa: E402
from pipeline.definitions import build_definitions  # noqa: E402
from pipeline.distributed import run_partitions  # noqa: E402
from pipeline.fastpath import staleness  # noqa: E402
from pipeline.instance import (  # noqa: E402
    dagster_home,
    event_log_identity,
    failed_if_crashed,
    open_instance,
    sqlite_root,
)
from pipeline.phases import Phases  # noqa: E402
from pipeline.sensors import partition_requests  # noqa: E402
from pipeline.settings import selected_executor  # noqa: E402
from pipeline.sqlite_keepalive import wal_kept_open  # noqa: E402
from pipeline.step_errors import step_error_line  # noqa: E402
from vocab.memory import imports_without_gc  # noqa: E402
from warehouse.staging import read_memo, write_memo  # noqa: E402

# Dagster's console logger prints step failures with stack traces; `run_refresh` reports
# each failure as one line of its own instead.
QUIET = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
CURSOR_FILE = "automation_cursor.json"
# Memo (warehouse.staging) of the source versions reported as observations, under the
# event log's identity: a cold `kb refresh` skips those already in that log, as the
# refresh service does in memory.
REPORTED_MEMO = "observed_versions"
# The tag an observation's data version travels in (what `ObserveResult(data_version=…)`
# records; the same tag Dagster's UI reads).
DATA_VERSION_TAG = "dagster/data_version"
# Present while a build's materializations have not been taken in by a tick yet.
PENDING_FILE = "automation_cursor.pending"
# Assets whose blocking checks must have passed on their current materialization in
# every build run that publishes (re-run in the run when they did not).
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


def sync_partitions(instance: dg.DagsterInstance, kb: KnowledgeBase) -> bool:
    """Add and delete component partitions to match the KB; True when any changed."""
    existing = instance.get_dynamic_partitions(components_partitions.name)
    requests = list(partition_requests([c.key for c in kb.components()], existing))
    for request in requests:
        if isinstance(request, dg.AddDynamicPartitionsRequest):
            instance.add_dynamic_partitions(
                request.partitions_def_name, list(request.partition_keys)
            )
        else:
            for key in request.partition_keys:
                instance.delete_dynamic_partition(request.partitions_def_name, key)
    return bool(requests)


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


def observe_sources(
    instance: dg.DagsterInstance,
    kb: KnowledgeBase,
    data_dir: Path,
    reported: dict[str, str] | None = None,
) -> None:
    """What the `observe_sources` job records (each component's version, the KB hash), as
    the same observations reported without a run: a run's bookkeeping cost more than
    the observing. The UI's `repo_commits_sensor` still runs the job.

    `reported` (the refresh service's memory of what it reported) skips a version
    already observed: the same data version again is no news to the conditions."""
    keys = instance.get_dynamic_partitions(components_partitions.name)
    versions = {**observed_versions(kb, keys, data_dir), "": kb.content_hash}
    for key, version in sorted(versions.items()):
        if reported is not None and reported.get(key) == version:
            continue
        instance.report_runless_asset_event(
            dg.AssetObservation(
                asset_key=component_versions.key if key else kb_source.key,
                partition=key or None,
                tags={DATA_VERSION_TAG: version},
            )
        )
        if reported is not None:
            reported[key] = version


def stale_selection(
    defs: dg.Definitions,
    instance: dg.DagsterInstance,
    data_dir: Path,
    phases: Phases | None = None,
    kb: KnowledgeBase | None = None,
    reported: dict[str, str] | None = None,
) -> dict[dg.AssetKey, set[str | None]]:
    """Observe the sources, evaluate automation conditions; what they request, per asset.

    A tick before observing takes in the materializations of the last build when no
    tick has since (`PENDING_FILE`): Dagster's `since_last_handled` drops a trigger that
    fires on the same tick as its reset, so a commit observed on the first tick after a
    build would otherwise be lost (the build's "newly updated" reset would swallow it).
    The refresh service runs that tick right after answering, off the caller's clock.
    The tick after observing sees the new commits and KB edits. Both ticks' requests count.
    """
    phases = phases or Phases()
    if kb is None:
        from assets.resources import KbResource

        kb = next(r for r in defs.resources.values() if isinstance(r, KbResource)).kb()
    home = dagster_home(data_dir)
    cursor_path, pending = home / CURSOR_FILE, home / PENDING_FILE
    requested: dict[dg.AssetKey, set[str | None]] = {}
    if pending.exists() or not cursor_path.exists():
        requested = _evaluate(defs, instance, cursor_path)
        pending.unlink(missing_ok=True)
        phases.lap("tick (take in last build)")
    observe_sources(instance, kb, data_dir, reported)
    phases.lap("observe sources")
    for key, parts in _evaluate(defs, instance, cursor_path).items():
        requested.setdefault(key, set()).update(parts)
    phases.lap("tick (automation conditions)")
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


class Refresher:
    """Dagster's side of `kb refresh`: the instance, the definitions and the asset job.

    Made once per `kb refresh` (cold), or once per refresh service and reused (warm):
    nothing here depends on the KB's content, only on its root and data dir (and on
    kb.yaml's imports, which `current()` checks).
    """

    def __init__(self, kb_root: Path, data_dir: Path, phases: Phases | None = None) -> None:
        phases = phases or Phases()
        self.kb_root, self.data_dir = Path(kb_root), Path(data_dir)
        with imports_without_gc():  # opening storage imports SQLAlchemy, Alembic, …
            self.instance = open_instance(self.data_dir)
            phases.lap("open instance")
            self.defs = build_definitions(str(self.kb_root), str(self.data_dir))
        self.graph = self.defs.resolve_asset_graph()
        self.partitioned = {s.key for s in self.defs.resolve_all_asset_specs() if s.partitions_def}
        self.job = self.defs.resolve_implicit_global_asset_job_def()
        self.kb_yaml = _mtime(self.kb_root / "kb.yaml")
        self.carry: dict[dg.AssetKey, set[str | None]] = {}  # requests of `take_in`
        # source versions observed (partition, "" = KB), kept across processes
        self.log_identity = event_log_identity(self.instance)
        held = self.log_identity and read_memo(
            self.data_dir, REPORTED_MEMO, "all", self.log_identity
        )
        self._saved: dict[str, str] = dict(held or {})  # as last written to the memo
        self.reported: dict[str, str] = dict(self._saved)
        phases.lap("definitions")

    def _keep_reported(self) -> None:
        if self.log_identity is not None and self.reported != self._saved:
            write_memo(self.data_dir, REPORTED_MEMO, "all", self.log_identity, self.reported)
            self._saved = dict(self.reported)

    def take_in(self) -> None:
        """The tick that takes in the last build, run by the service between requests;
        what it requests is kept for the next refresh, as if it had run then."""
        home = dagster_home(self.data_dir)
        if (home / PENDING_FILE).exists():
            for key, parts in _evaluate(self.defs, self.instance, home / CURSOR_FILE).items():
                self.carry.setdefault(key, set()).update(parts)
            (home / PENDING_FILE).unlink(missing_ok=True)

    def current(self) -> bool:
        """False when kb.yaml changed since the definitions were built (imports may differ)."""
        return _mtime(self.kb_root / "kb.yaml") == self.kb_yaml

    def refresh(
        self,
        kb: KnowledgeBase,
        force: bool = False,
        say: Callable[[str], None] = print,
        phases: Phases | None = None,
    ) -> RefreshOutcome:
        phases = phases or Phases()
        defs, instance, data_dir = self.defs, self.instance, self.data_dir
        if sync_partitions(instance, kb):
            self.reported.clear()
        phases.lap("sync partitions")
        if force:
            # Everything is rebuilt: no tick needed to decide what. The sources are still
            # observed; the next tick takes in this build (PENDING_FILE) with them.
            observe_sources(instance, kb, data_dir, self.reported)
            phases.lap("observe sources")
            requested = {}
        else:
            requested = stale_selection(defs, instance, data_dir, phases, kb, self.reported)
        self._keep_reported()
        for key, parts in self.carry.items():
            requested.setdefault(key, set()).update(parts)
        self.carry = {}
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
            say(f"nothing stale per Dagster's automation conditions ({phases.total():.1f}s)")
            return outcome
        selection, tags, partitioned, unpartitioned = self._plan(requested, say)
        (dagster_home(data_dir) / PENDING_FILE).touch()
        if partitioned and (executor := selected_executor()):  # scale-out (docs/scale.md)
            runs = len({p for parts in partitioned.values() for p in parts if p})
            say(f"{runs} partition run(s) on the {executor} executor")
            outcome.errors += run_partitions(
                instance, self.kb_root, data_dir, partitioned, executor
            )
            if not outcome.ok:
                return outcome
            selection, tags = sorted(unpartitioned), {}
            phases.lap("partition runs")
        run_id = str(uuid.uuid4())  # Dagster's own run ids are UUID4 strings too
        with wal_kept_open(sqlite_root(instance), run_id), failed_if_crashed(instance, run_id):
            result = self.job.execute_in_process(
                instance=instance,
                asset_selection=selection,
                tags=tags,
                run_config=QUIET,
                raise_on_error=False,
                run_id=run_id,
            )
        phases.lap("build run")
        _collect(result, outcome)
        if "kb_validation" in outcome.failed_checks:
            outcome.validation_errors = _validation_errors(defs)
        outcome.materialized += [f"{k.to_user_string()}[{len(v)}]" for k, v in partitioned.items()]
        outcome.materialized += [k.to_user_string() for k in sorted(unpartitioned)]
        say(f"{'stopped' if not outcome.ok else 'done'} in {phases.total():.1f}s")
        return outcome

    def _checks_passed(self, key: dg.AssetKey) -> bool:
        """Whether `key`'s checks all passed on its latest materialization. Then the asset is
        not re-run only to re-check it: its content is unchanged (else the conditions
        would have requested it), and re-running it would make everything downstream of
        it newly updated for the next tick (the KB assets rebuilt on every refresh)."""
        checks = list(self.graph.get(key).check_keys)
        latest = self.instance.get_latest_materialization_event(key)
        if latest is None or not checks:
            return False
        records = self.instance.event_log_storage.get_latest_asset_check_execution_by_key(checks)
        return all(
            (r := records.get(c)) is not None
            and r.status == AssetCheckExecutionRecordStatus.SUCCEEDED
            and r.run_id == latest.run_id
            for c in checks
        )

    def _plan(self, requested: dict[dg.AssetKey, set[str | None]], say: Callable[[str], None]):
        """One run: the stale partitions as a range, everything downstream, the guards."""
        position = {
            k: i
            for i, k in enumerate(self.instance.get_dynamic_partitions(components_partitions.name))
        }
        partitioned = {k: v for k, v in requested.items() if v != {None}}
        downstream = dg.AssetSelection.assets(*requested).downstream().resolve(self.graph)
        unpartitioned = {
            k
            for k in downstream
            if k not in self.partitioned and self.graph.get(k).is_materializable
        }
        if unpartitioned:  # blocking checks guard only their own run: re-check unless passed
            unpartitioned |= {k for k in GUARDED if not self._checks_passed(k)}
        tags: dict[str, str] = {}
        if partitioned:
            keys = sorted(
                {p for v in partitioned.values() for p in v if p}, key=position.__getitem__
            )
            shown = ", ".join(keys[:8]) + (" …" if len(keys) > 8 else "")
            say(f"extracting {len(keys)} stale component(s): {shown}")
            tags = {
                "dagster/asset_partition_range_start": keys[0],
                "dagster/asset_partition_range_end": keys[-1],
            }
        selection = sorted(partitioned) + sorted(unpartitioned)
        say(f"one run: {', '.join(k.to_user_string() for k in selection)}")
        return selection, tags, partitioned, unpartitioned


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def run_refresh(
    kb: KnowledgeBase,
    data_dir: Path,
    force: bool = False,
    say: Callable[[str], None] = print,
    phases: Phases | None = None,
) -> RefreshOutcome:
    """A cold refresh: a fresh `Refresher`, one refresh, and the pending tick left for next
    time (no reason to make this caller wait for it)."""
    phases = phases or Phases()
    return Refresher(kb.config.root, data_dir, phases).refresh(kb, force, say, phases)


def _collect(result: dg.ExecuteInProcessResult, outcome: RefreshOutcome) -> None:
    for evaluation in result.get_asset_check_evaluations():
        # a WARN check (code_current) reports in the UI; only ERROR checks stop a build
        if not evaluation.passed and evaluation.severity == dg.AssetCheckSeverity.ERROR:
            outcome.failed_checks.append(evaluation.check_name)
    for event in result.all_events:
        if event.is_step_failure and event.step_failure_data and event.step_failure_data.error:
            error = event.step_failure_data.error
            if error.cls_name == "DagsterAssetCheckFailedError":
                continue  # reported by name in failed_checks
            outcome.errors.append(f"{event.step_key}: {step_error_line(error)}")


def _validation_errors(defs: dg.Definitions) -> list[Problem]:
    """The KB's errors as `kb_docs` staged them for its (failed) validation check, sorted."""
    from assets.knowledge import problems_of
    from assets.resources import STAGING

    problems = problems_of(defs.resources[STAGING].stored("kb_docs"))
    return sorted(p for p in problems if p.severity == "error")
