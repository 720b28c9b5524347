"""Doc context broker assets: chunk each component repo's Markdown and the KB's own docs.

Thin wrappers over `kb.context`; the chunks go to staging as `doc_chunks` (key
`project/component`, or `_kb` for the KB) and publish lands them in the warehouse, where
`warehouse.doc_search` indexes them for `kb_context` and `kb context`.
"""

import dagster as dg
from dagster import AssetExecutionContext

from assets.automation import STALE_OR_MISSING, md_list
from assets.code import component_versions
from assets.code_versions import code_version
from assets.knowledge import kb_docs
from doc_context import ChunkSet, component_chunks, kb_chunks, repo_scopes
from doc_context.index import chunk_frames
from pipeline.partitions import components_partitions
from pipeline.resources import KbResource
from warehouse.staging import write_stage

DOCS_CODE = code_version("docs")  # kb.context + warehouse.doc_index sources
STAGE = "doc_chunks"
KB_KEY = "_kb"


def _stage(kb: KbResource, key: str, chunk_set: ChunkSet) -> dict[str, object]:
    write_stage(kb.data_path(), STAGE, key, chunk_frames(chunk_set))
    return {
        "chunks": len(chunk_set.rows),
        "files": len({r["path"] for r in chunk_set.rows}),
        "tokens": sum(r["tokens"] for r in chunk_set.rows),
        "skipped": [f"{key} {path}: {why}" for path, why in chunk_set.skipped],
        "warnings": [f"{key} {path}: {why}" for path, why in chunk_set.warnings],
    }


def _result(stats: list[dict[str, object]]) -> dg.MaterializeResult:
    notes = [n for s in stats for n in (*s["skipped"], *s["warnings"])]
    return dg.MaterializeResult(
        metadata={
            "chunks": sum(s["chunks"] for s in stats),
            "files": sum(s["files"] for s in stats),
            "tokens": sum(s["tokens"] for s in stats),
            "skipped / warnings": md_list(notes),
        }
    )


@dg.asset(
    partitions_def=components_partitions,
    deps=[component_versions],
    code_version=DOCS_CODE,
    automation_condition=STALE_OR_MISSING,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="docs",
)
def doc_chunks(context: AssetExecutionContext, kb: KbResource) -> dg.MaterializeResult:
    """Markdown chunks of each component's repo (root, docs/, skills/, subproject meta)."""
    scopes = repo_scopes(kb.kb().components())
    return _result(
        [_stage(kb, key, component_chunks(scopes.get(key))) for key in context.partition_keys]
    )


@dg.asset(
    deps=[kb_docs],
    code_version=DOCS_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="docs",
)
def kb_doc_chunks(kb: KbResource) -> dg.MaterializeResult:
    """Markdown chunks of the KB's own docs and imported originals (`_imports/raw`)."""
    return _result([_stage(kb, KB_KEY, kb_chunks(kb.kb().config.root))])
