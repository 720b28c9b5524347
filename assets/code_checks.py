"""`code_current`: whether each component's code facts come from what its repo holds now.

Dagster shows a partition's staleness on that partition's own page only, so after a
commit the lineage and the partition list still look green. This check puts it where a
person looks first: the check badge on `code_facts` in the lineage and the asset list,
with the stale partitions counted (and named) in its result. It runs after every
extraction and with every observation of the sources — the `observe_sources` job the
repo-commits sensor launches after a commit — whether or not anything rebuilds then.
Severity WARN: it reports, it never stops a build.
"""

from __future__ import annotations

import dagster as dg

from assets.automation import md_list
from assets.code import code_facts
from assets.resources import KbResource
from kb.versions import component_versions, versions_cache
from warehouse.code_stage import read_stamp


@dg.asset_check(
    asset=code_facts,
    name="code_current",
    description="Every component partition was extracted from its repo's current version "
    "(last commit touching its folder, plus uncommitted changes).",
)
def code_current(kb: KbResource) -> dg.AssetCheckResult:
    knowledge = kb.kb()
    data_dir = kb.data_path()
    comps = knowledge.components()
    now = component_versions({c.key: c.repo_path for c in comps}, versions_cache(data_dir))
    stale: dict[str, str] = {}
    for comp in comps:
        if now[comp.key] == "missing":  # no checkout: its last facts are kept, nothing to redo
            continue
        stamp = read_stamp(data_dir, comp.key) or {}
        built = stamp.get("version")
        if built != now[comp.key]:
            stale[comp.key] = f"built {built or 'never'}, now {now[comp.key]}"
        elif stamp.get("nested", []) != list(comp.nested):  # a monorepo's folders moved
            stale[comp.key] = "the components nested in its folder changed"
    named = ", ".join(list(stale)[:5]) + (" …" if len(stale) > 5 else "")
    return dg.AssetCheckResult(
        passed=not stale,
        severity=dg.AssetCheckSeverity.WARN,
        description=(
            f"{len(stale)} of {len(comps)} partitions stale: {named} — `kb refresh` (or the "
            "UI's automation, when on) rebuilds them"
            if stale
            else f"all {len(comps)} partitions current"
        ),
        metadata={
            "stale partitions": len(stale),
            "partitions": len(comps),
            "stale": md_list(f"{key}: {why}" for key, why in stale.items()),
        },
    )
