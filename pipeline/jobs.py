"""Jobs: observing the sources (KB content hash, component versions)."""

from __future__ import annotations

import dagster as dg

observe_sources_job = dg.define_asset_job(
    "observe_sources",
    selection=dg.AssetSelection.groups("sources", include_sources=True),
    description="Record each component's current version and the KB hash (what makes code stale).",
)
