"""Doc context broker assets: chunk each component repo's Markdown and the KB's own docs.

Thin wrappers over `doc_context`; each returns its `doc_chunks` table (per component
partition, or for the KB) and publish lands them in the warehouse, where
`doc_context.search` indexes them for `doc_context` and `kb context`.
"""

import dagster as dg
from dagster import AssetExecutionContext

from assets.automation import STALE_OR_MISSING, md_list
from assets.code import component_versions
from assets.code_versions import code_version
from assets.knowledge import kb_indexes
from assets.partitions import components_partitions
from assets.resources import STAGING, KbResource
from doc_context import ChunkSet, component_chunks, kb_chunks, repo_scopes
from doc_context.index import chunk_frames
from warehouse.staging import Tables

DOCS_CODE = code_version("docs")  # doc_context sources
KB_KEY = "_kb"


def _stats(key: str, chunk_set: ChunkSet) -> dict[str, object]:
    return {
        "chunks": len(chunk_set.rows),
        "files": len({r["path"] for r in chunk_set.rows}),
        "tokens": sum(r["tokens"] for r in chunk_set.rows),
        "skipped": [f"{key} {path}: {why}" for path, why in chunk_set.skipped],
        "warnings": [f"{key} {path}: {why}" for path, why in chunk_set.warnings],
    }


def _output(value, stats: list[dict[str, object]]) -> dg.Output:
    notes = [n for s in stats for n in (*s["skipped"], *s["warnings"])]
    return dg.Output(
        value,
        metadata={
            "chunks": sum(s["chunks"] for s in stats),
            "files": sum(s["files"] for s in stats),
            "tokens": sum(s["tokens"] for s in stats),
            "skipped / warnings": md_list(notes),
        },
    )


@dg.asset(
    partitions_def=components_partitions,
    deps=[component_versions],
    code_version=DOCS_CODE,
    automation_condition=STALE_OR_MISSING,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="docs",
    io_manager_key=STAGING,
)
def doc_chunks(context: AssetExecutionContext, kb: KbResource) -> dg.Output[dict[str, Tables]]:
    """Markdown chunks of each component's repo (root, docs/, skills/, subproject meta)."""
    scopes = repo_scopes(kb.kb().components())
    chunks = {key: component_chunks(scopes.get(key)) for key in context.partition_keys}
    return _output(
        {key: chunk_frames(c) for key, c in chunks.items()},
        [_stats(key, c) for key, c in chunks.items()],
    )


@dg.asset(
    deps=[kb_indexes],  # after kb_docs, and after index/decisions.md (chunked too) is written
    code_version=DOCS_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="docs",
    io_manager_key=STAGING,
)
def kb_doc_chunks(kb: KbResource) -> dg.Output[Tables]:
    """Markdown chunks of the KB's own docs and imported originals (`_imports/raw`)."""
    chunk_set = kb_chunks(kb.kb().config.root)
    return _output(chunk_frames(chunk_set), [_stats(KB_KEY, chunk_set)])
