"""Per-project graphs (code facts + bridges), the global catalog, and the publish step."""

from __future__ import annotations

import dagster as dg

from assets.automation import STALE_OR_MISSING, md_list
from assets.code import code_facts
from assets.code_versions import code_version
from assets.knowledge import kb_docs, knowledge_graph
from assets.resources import KbResource
from warehouse.bridges import build_project_graph
from warehouse.catalog import build_catalog, cross_project_edges
from warehouse.code_stage import staged_component_tables
from warehouse.staging import read_stage, write_stage

GRAPH_CODE = code_version("graph")


def _component_tables(kb: KbResource):
    knowledge = kb.kb()
    return knowledge, staged_component_tables(
        kb.data_path(), [c.key for c in knowledge.components()]
    )


@dg.asset(
    deps=[knowledge_graph, code_facts],
    code_version=GRAPH_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="graph",
)
def project_graph(kb: KbResource) -> dg.MaterializeResult:
    """One graph per project: its components' code facts joined by bridge edges."""
    knowledge, tables = _component_tables(kb)
    counts = {}
    for pid in sorted(knowledge.projects):
        graph = build_project_graph(knowledge, pid, tables)
        write_stage(kb.data_path(), "project_graph", pid, graph)
        calls = graph["edges"].filter(graph["edges"]["type"] == "CALLS").height
        counts[pid] = f"{graph['nodes'].height} nodes, {graph['edges'].height} edges, {calls} CALLS"
    return dg.MaterializeResult(metadata={pid: text for pid, text in counts.items()})


@dg.asset_check(asset=project_graph, blocking=True, description="No edge may join two projects.")
def no_cross_project_edges(kb: KbResource) -> dg.AssetCheckResult:
    knowledge = kb.kb()
    bad: list[str] = []
    for pid in sorted(knowledge.projects):
        edges = read_stage(kb.data_path(), "project_graph", pid).get("edges")
        bad += cross_project_edges(edges) if edges is not None else []
    return dg.AssetCheckResult(
        passed=not bad,
        metadata={"cross-project edges": md_list(bad)},
    )


@dg.asset(
    deps=[kb_docs, code_facts],
    code_version=GRAPH_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="graph",
)
def catalog(kb: KbResource) -> dg.MaterializeResult:
    """_global catalog: packages, middleware, hosts, Terraform types, env var names."""
    knowledge, tables = _component_tables(kb)
    out = build_catalog(knowledge, tables)
    write_stage(kb.data_path(), "catalog", "all", out)
    return dg.MaterializeResult(metadata={t: df.height for t, df in out.items()})
