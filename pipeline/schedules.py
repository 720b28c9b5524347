"""Schedules: the import schedule from kb.yaml `imports.schedule` (cron).

`build_import_defs(kb_root)` puts the import assets and job (`assets.imports`) together
with that schedule. One run per source partition, so a failing Confluence hub never holds back a Drive
folder. The run key is the tick time + source, so a tick is never launched twice.
"""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg

from assets.imports import import_assets


def credentials_present(imports: dict) -> bool:
    """True when every credential env var kb.yaml names for its imports is set."""
    names = []
    confluence = imports.get("confluence") or {}
    if confluence:
        names += [confluence.get("token_env"), confluence.get("user_env")]
    drive = imports.get("drive") or {}
    if drive:
        names.append(drive.get("credentials_env"))
    return all(os.environ.get(str(n)) for n in names if n)


def imports_schedule(
    job: dg.UnresolvedAssetJobDefinition, cron: str, sources: list[str], running: bool = True
):
    """Runs each source on `cron`; starts switched off when its credentials are absent."""

    @dg.schedule(
        name="imports_schedule",
        cron_schedule=cron,
        job=job,
        execution_timezone="UTC",
        default_status=dg.DefaultScheduleStatus.RUNNING
        if running
        else dg.DefaultScheduleStatus.STOPPED,
    )
    def _schedule(context: dg.ScheduleEvaluationContext):
        tick = (
            context.scheduled_execution_time.isoformat() if context.scheduled_execution_time else ""
        )
        for key in sources:
            yield dg.RunRequest(run_key=f"{tick}:{key}", partition_key=key)

    return _schedule


def build_import_defs(kb_root: str | Path) -> dict[str, list]:
    """{"assets": [...], "jobs": [...], "schedules": [...]} for the KB's configured imports."""
    built = import_assets(kb_root)
    schedules = []
    cron = built.imports.get("schedule")
    if built.assets and cron:
        running = credentials_present(built.imports)
        schedules.append(imports_schedule(built.jobs[0], str(cron), built.sources, running))
    return {"assets": built.assets, "jobs": built.jobs, "schedules": schedules}
