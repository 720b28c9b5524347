"""The Dagster code location of kb-graph (`dagster dev` loads this; see pyproject)."""

from __future__ import annotations

import dagster as dg

from assets import code, code_checks, docs_index, graph, knowledge, publish, verification
from assets.resources import kb_resources, kb_resources_from_env
from pipeline.jobs import observe_sources_daily, observe_sources_job
from pipeline.schedules import build_import_defs
from pipeline.sensors import components_sensor, repo_commits_sensor
from pipeline.settings import ui_automation

ASSET_MODULES = [knowledge, code, code_checks, graph, docs_index, verification, publish]

# The UI's daemon (`kb ui`, `dagster dev`) materializes what is stale by itself unless
# KB_UI_AUTOMATION=off (`kb ui --automation off`): then only `kb refresh` builds. A person's
# Start/Stop in the UI is stored in the instance and wins over this default.
automation_sensor = dg.AutomationConditionSensorDefinition(
    "kb_automation",
    target=dg.AssetSelection.all(),
    default_status=dg.DefaultSensorStatus.RUNNING
    if ui_automation()
    else dg.DefaultSensorStatus.STOPPED,
    minimum_interval_seconds=30,
)


def build_definitions(kb_root: str | None = None, data_dir: str | None = None) -> dg.Definitions:
    resources = kb_resources(kb_root, data_dir) if kb_root else kb_resources_from_env()
    imports = build_import_defs(resources["kb"].kb_root)  # empty when kb.yaml configures none
    return dg.Definitions(
        assets=[*dg.load_assets_from_modules(ASSET_MODULES), *imports["assets"]],
        asset_checks=dg.load_asset_checks_from_modules(ASSET_MODULES),
        jobs=[observe_sources_job, *imports["jobs"]],
        schedules=[observe_sources_daily, *imports["schedules"]],
        sensors=[components_sensor, repo_commits_sensor, automation_sensor],
        resources=resources,
        # Runs the UI's daemon launches (and a person's Materialize) execute their steps in
        # the run's own process, as `kb refresh` does. Dagster's default, a process per step,
        # imports this code location once per step: on a 46-component portfolio the daemon's
        # runs then queued faster than two cores drained them (bench/soak.py). The extraction
        # step spreads its own work over processes; scale-out is `KB_EXECUTOR`.
        executor=dg.in_process_executor,
    )


defs = build_definitions()
