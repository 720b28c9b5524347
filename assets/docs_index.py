"""Doc context broker assets: chunk each component repo's Markdown and the KB's own docs.

Thin wrappers over `doc_context`; each returns its `doc_chunks` table (per component
partition, or for the KB) and publish lands them in the warehouse, where
`doc_context.search` indexes them for `doc_context` and `kb context`.
"""

from typing import NamedTuple

import dagster as dg
from dagster import AssetExecutionContext

from assets.automation import STALE_OR_MISSING, md_list
from assets.code import component_versions
from assets.code_versions import code_version, source_version
from assets.knowledge import kb_indexes
from assets.partitions import components_partitions
from assets.resources import SIGNATURE_META, STAGING, KbResource
from doc_context import (
    ChunkSet,
    chunk_discovery,
    component_discovery,
    discovery_signature,
    kb_chunks,
    repo_scopes,
)
from doc_context.discovery import RepoScope
from doc_context.index import chunk_frames
from warehouse.staging import Tables, read_memo, read_stage, staged_signature, write_memo

DOCS_CODE = code_version("docs")  # doc_context sources
# what a component's chunks depend on besides its files: the chunking and the redaction
CHUNKS_SALT = f"{DOCS_CODE}:{source_version('kb.secret_scan', 'kb.redaction', 'kb.tokens')}"
KB_KEY = "_kb"


def _stats(key: str, chunk_set: ChunkSet) -> dict[str, object]:
    return {
        "chunks": len(chunk_set.rows),
        "files": len({r["path"] for r in chunk_set.rows}),
        "tokens": sum(r["tokens"] for r in chunk_set.rows),
        "skipped": [f"{key} {path}: {why}" for path, why in chunk_set.skipped],
        "warnings": [f"{key} {path}: {why}" for path, why in chunk_set.warnings],
    }


def _output(value, stats: list[dict[str, object]], extra: dict | None = None) -> dg.Output:
    notes = [n for s in stats for n in (*s["skipped"], *s["warnings"])]
    return dg.Output(
        value,
        metadata={
            "chunks": sum(s["chunks"] for s in stats),
            "files": sum(s["files"] for s in stats),
            "tokens": sum(s["tokens"] for s in stats),
            "skipped / warnings": md_list(notes),
            **(extra or {}),
        },
    )


class ComponentChunks(NamedTuple):
    tables: Tables
    stats: dict[str, object]
    signature: str  # of what the tables were made from (`discovery_signature`)
    taken_back: bool  # the staged tables, unchanged, instead of a new chunking


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
    """Markdown chunks of each component's repo (root, docs/, skills/, subproject meta).
    A component whose Markdown did not change gets its staged chunks back."""
    scopes, data_dir = repo_scopes(kb.kb().components()), kb.data_path()
    chunked = {k: _component_chunks(k, scopes.get(k), data_dir) for k in context.partition_keys}
    return _output(
        {key: c.tables for key, c in chunked.items()},
        [c.stats for c in chunked.values()],
        {
            "docs taken back unchanged": md_list(k for k, c in chunked.items() if c.taken_back),
            **{f"{SIGNATURE_META}{key}": c.signature for key, c in chunked.items()},
        },
    )


def _component_chunks(key: str, scope: RepoScope | None, data_dir) -> ComponentChunks:
    """One component's chunks: read back when its docs and the chunking code are what its
    staged chunks were made from, else chunked afresh."""
    disc = component_discovery(scope)
    signature = discovery_signature(disc, scope, CHUNKS_SALT)
    asset = doc_chunks.key.to_python_identifier()
    stats = read_memo(data_dir, asset, key, signature)
    staged = staged_signature(data_dir, asset, key) == signature
    if stats is not None and staged and (tables := read_stage(data_dir, asset, key)):
        return ComponentChunks(tables, stats, signature, taken_back=True)
    chunk_set = chunk_discovery(disc, scope.project, scope.component) if scope else ChunkSet()
    stats = _stats(key, chunk_set)
    write_memo(data_dir, asset, key, signature, stats)
    return ComponentChunks(chunk_frames(chunk_set), stats, signature, taken_back=False)


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
