"""The publish step: every staged output into the warehouse, atomically."""

from __future__ import annotations

import dagster as dg

from assets.automation import STALE_OR_MISSING
from assets.code_versions import code_version, current_code_versions
from assets.docs_index import doc_chunks, kb_doc_chunks
from assets.graph import catalog, project_graph
from assets.knowledge import kb_docs, kb_indexes, knowledge_graph
from assets.verification import verification_report
from doc_context.index import persist_index
from pipeline.resources import KbResource
from warehouse.assemble import assemble_partitions
from warehouse.publish import publish

PUBLISH_CODE = code_version("publish")
UPSTREAM = [
    kb_docs,
    kb_indexes,
    knowledge_graph,
    project_graph,
    catalog,
    doc_chunks,
    kb_doc_chunks,
    verification_report,
]


@dg.asset(
    deps=UPSTREAM,
    code_version=PUBLISH_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="warehouse",
)
def warehouse(kb: KbResource) -> dg.MaterializeResult:
    """Parquet per partition + manifest + kb.duckdb; readers never see a half-written build."""
    knowledge = kb.kb()
    partitions, extra = assemble_partitions(knowledge, kb.data_path())
    manifest = publish(
        kb.data_path(), partitions, {**extra, "code_versions": current_code_versions()}
    )
    persist_index(kb.data_path())  # the doc search index, next to the Parquet it indexes
    return dg.MaterializeResult(
        metadata={
            "build_id": manifest["build_id"],
            "path": dg.MetadataValue.path(str(kb.data_path() / manifest["path"])),
            **{
                f"{p} nodes": c["tables"].get("nodes", 0) for p, c in manifest["partitions"].items()
            },
        }
    )
