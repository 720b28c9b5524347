"""The automation condition shared by the assets.

`STALE_OR_MISSING` is what `kb refresh` and the Dagster UI's automation sensor both
evaluate: an asset (partition) runs when it was never materialized, when an upstream
changed (a new commit observed, the KB edited), or when its code version changed.
"""

from __future__ import annotations

import dagster as dg

_CHANGED = dg.AutomationCondition.any_deps_updated() | dg.AutomationCondition.code_version_changed()

STALE_OR_MISSING = (
    dg.AutomationCondition.missing() | _CHANGED.since_last_handled()
) & ~dg.AutomationCondition.in_progress()


def md_list(items, limit: int = 50) -> dg.MetadataValue:
    """A Markdown bullet list for the Dagster UI (`none` when empty, capped at `limit`)."""
    items = list(items)
    lines = [f"- {item}" for item in items[:limit]]
    if len(items) > limit:
        lines.append(f"- … and {len(items) - limit} more")
    return dg.MetadataValue.md("\n".join(lines) or "none")
