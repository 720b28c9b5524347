"""Jobs: observing the sources (KB content hash, component versions), and its schedule."""

from __future__ import annotations

import dagster as dg

from assets.code_checks import code_current

observe_sources_job = dg.define_asset_job(
    "observe_sources",
    selection=dg.AssetSelection.groups("sources", include_sources=True)
    | dg.AssetSelection.checks(code_current),
    description="Record each component's current version and the KB hash (what makes code "
    "stale), and check which code_facts partitions that makes stale.",
)

# The repo-commits sensor observes within a minute of a commit; this daily run is the
# backstop when sensors are switched off, and shows in the UI's Schedules list. An
# observation that finds nothing new changes no data version, so it rebuilds nothing.
observe_sources_daily = dg.ScheduleDefinition(
    name="observe_sources_daily",
    job=observe_sources_job,
    cron_schedule="0 6 * * *",
    execution_timezone="UTC",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Observe every component's version and the KB hash once a day (06:00 UTC).",
)
