"""The publish step: every upstream output, received as parameters, into the warehouse,
atomically."""

from __future__ import annotations

from collections.abc import Mapping

import dagster as dg

from assets.automation import STALE_OR_MISSING
from assets.code_versions import code_version, current_code_versions
from assets.docs_index import DOCS_CODE, doc_chunks, kb_doc_chunks
from assets.graph import GRAPH_CODE, catalog, project_graph
from assets.knowledge import kb_docs, kb_indexes, knowledge_graph
from assets.resources import KbResource
from assets.verification import verification_report
from doc_context.index import persist_index
from warehouse.assemble import BuildInputs, assemble_partitions
from warehouse.code_stage import project_signature
from warehouse.publish import publish
from warehouse.staging import Tables

PUBLISH_CODE = code_version("publish")
INPUTS = {
    "kb_docs": kb_docs,
    "knowledge": knowledge_graph,
    "graphs": project_graph,
    "catalog": catalog,
    "repo_chunks": doc_chunks,
    "kb_chunks": kb_doc_chunks,
    "verification": verification_report,
}
# Kept per project / per component: handed over as read-on-use mappings, so the tables of
# a partition publish links unchanged from the last build are never read.
READ_ON_USE = {"graphs", "repo_chunks"}


def _component_keys(knowledge_base) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {pid: [] for pid in knowledge_base.projects}
    for comp in knowledge_base.components():
        out.setdefault(comp.project, []).append(comp.key)
    return out


@dg.asset(
    ins={
        name: dg.AssetIn(asset.key, dagster_type=dg.Any)
        if name in READ_ON_USE
        else dg.AssetIn(asset.key)
        for name, asset in INPUTS.items()
    },
    deps=[kb_indexes],
    code_version=PUBLISH_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="warehouse",
)
def warehouse(
    kb: KbResource,
    kb_docs: Tables,
    knowledge: Tables,
    graphs: Mapping[str, Mapping],
    catalog: Tables,
    repo_chunks: Mapping[str, Mapping],
    kb_chunks: Tables,
    verification: Tables,
) -> dg.MaterializeResult:
    """Parquet per partition + manifest + kb.duckdb; readers never see a half-written build."""
    knowledge_base = kb.kb()
    data_dir = kb.data_path()
    inputs = BuildInputs(kb_docs, knowledge, graphs, catalog, repo_chunks, kb_chunks, verification)
    partitions, extra = assemble_partitions(knowledge_base, data_dir, inputs)
    # a project partition is a function of the KB, its components' staged facts and
    # doc chunks (both made from the stamped versions) and the code: same digest, same files
    code = f"{GRAPH_CODE}:{DOCS_CODE}:{PUBLISH_CODE}"
    signatures = {
        pid: project_signature(knowledge_base, data_dir, keys, code)
        for pid, keys in _component_keys(knowledge_base).items()
        if pid in partitions
    }
    extra = {**extra, "code_versions": current_code_versions()}
    manifest = publish(data_dir, partitions, extra, signatures=signatures)
    persist_index(data_dir)  # the doc search index, next to the Parquet it indexes
    return dg.MaterializeResult(
        metadata={
            "build_id": manifest["build_id"],
            "path": dg.MetadataValue.path(str(data_dir / manifest["path"])),
            **{
                f"{p} nodes": c["tables"].get("nodes", 0) for p, c in manifest["partitions"].items()
            },
        }
    )
