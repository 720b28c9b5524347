"""Schedules: the import schedule from kb.yaml `imports.schedule` (cron).

One run per source partition, so a failing Confluence hub never holds back a Drive
folder. The run key is the tick time + source, so a tick is never launched twice.
"""

from __future__ import annotations

import dagster as dg


def imports_schedule(job: dg.UnresolvedAssetJobDefinition, cron: str, sources: list[str]):
    @dg.schedule(
        name="imports_schedule",
        cron_schedule=cron,
        job=job,
        execution_timezone="UTC",
        default_status=dg.DefaultScheduleStatus.RUNNING,
    )
    def _schedule(context: dg.ScheduleEvaluationContext):
        tick = (
            context.scheduled_execution_time.isoformat() if context.scheduled_execution_time else ""
        )
        for key in sources:
            yield dg.RunRequest(run_key=f"{tick}:{key}", partition_key=key)

    return _schedule
