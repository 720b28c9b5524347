"""Code-layer assets: component versions (observed) and code facts per component."""

import hashlib
from pathlib import Path

import dagster as dg
from dagster import AssetExecutionContext

from assets.automation import STALE_OR_MISSING, md_list
from assets.extraction import extract_many
from assets.partitions import components_partitions
from assets.resources import STAGING, KbResource
from extractors import extractors_code_version
from kb.model import KnowledgeBase
from kb.versions import component_versions as versions_of
from kb.versions import versions_cache

EXTRACTORS_VERSION = extractors_code_version()


@dg.observable_source_asset(
    partitions_def=components_partitions,
    group_name="sources",
    description="Each component's repo folder; data version = last commit touching it (+ dirty hash).",
)
def component_versions(context, kb: KbResource) -> dg.DataVersionsByPartition:
    keys = context.instance.get_dynamic_partitions(components_partitions.name)
    current = observed_versions(kb.kb(), keys, kb.data_path())
    return dg.DataVersionsByPartition({k: dg.DataVersion(v) for k, v in current.items()})


def observed_versions(knowledge: KnowledgeBase, keys: list[str], data_dir: Path) -> dict[str, str]:
    """The data version of each component partition: what `component_versions` observes
    (and what `kb refresh` reports as the same observations, without a run). A component
    holding other components' folders (a monorepo root) has them in its version too: a
    component added inside it or removed makes it stale (its files change)."""
    comps = {key: knowledge.component(key) for key in keys}
    folders = {key: (c.repo_path if c else None) for key, c in comps.items()}
    versions = versions_of(folders, versions_cache(data_dir))
    for key, comp in comps.items():
        if comp is not None and comp.nested and versions[key] != "missing":
            carved = hashlib.sha256("\0".join(comp.nested).encode()).hexdigest()[:8]
            versions[key] += f".nested.{carved}"
    return versions


@dg.asset(
    partitions_def=components_partitions,
    deps=[component_versions],
    code_version=EXTRACTORS_VERSION,
    automation_condition=STALE_OR_MISSING,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="code",
    io_manager_key=STAGING,
)
def code_facts(context: AssetExecutionContext, kb: KbResource) -> dg.MaterializeResult:
    """Tree-sitter facts (nodes, edges, unresolved, catalog rows) of each component in the run.

    The extraction workers stage each component's tables themselves (skipping current
    ones), in the folders `StagingIOManager` reads, so downstream assets receive
    `{component key: tables}` as their `code_facts` parameter."""
    knowledge = kb.kb()
    data_dir = kb.data_path()
    comps = [c for key in context.partition_keys if (c := knowledge.component(key))]
    missing = sorted(set(context.partition_keys) - {c.key for c in comps})
    stamps = extract_many(data_dir, comps, EXTRACTORS_VERSION)
    extracted, reused = [], []
    for key, stamp in sorted(stamps.items()):
        (reused if stamp["reused"] else extracted).append(f"{key} @ {stamp['version']}")
    context.log.info(f"extracted {len(extracted)}, reused {len(reused)} (already current)")
    return dg.MaterializeResult(
        metadata={
            "extracted": md_list(extracted),
            "reused (already current)": len(reused),
            "not in KB": ", ".join(missing) or "none",
        }
    )
