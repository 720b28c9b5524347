"""Per-project graphs (code facts + bridges) and the global catalog.

Both receive `code_facts` as `{component key: tables}` through the staging IO manager;
`project_graph` returns its tables per project, `catalog` its tables.
"""

from __future__ import annotations

import dagster as dg

from assets.automation import STALE_OR_MISSING, md_list
from assets.code import code_facts
from assets.code_versions import code_version
from assets.knowledge import kb_docs, knowledge_graph
from assets.resources import STAGING, KbResource
from kb.model import KnowledgeBase
from warehouse.bridges import build_project_graph
from warehouse.catalog import build_catalog, cross_project_edges
from warehouse.staging import Tables

GRAPH_CODE = code_version("graph")


def _kb_components(knowledge: KnowledgeBase, facts: dict[str, Tables]) -> dict[str, Tables]:
    """The staged facts of the components the KB lists (a removed one drops out)."""
    return {c.key: facts.get(c.key, {}) for c in knowledge.components()}


@dg.asset(
    ins={"code_facts": dg.AssetIn(code_facts.key)},
    deps=[knowledge_graph],
    code_version=GRAPH_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="graph",
    io_manager_key=STAGING,
)
def project_graph(kb: KbResource, code_facts: dict[str, Tables]) -> dg.Output[dict[str, Tables]]:
    """One graph per project: its components' code facts joined by bridge edges."""
    knowledge = kb.kb()
    tables = _kb_components(knowledge, code_facts)
    graphs, counts = {}, {}
    for pid in sorted(knowledge.projects):
        graph = graphs[pid] = build_project_graph(knowledge, pid, tables)
        calls = graph["edges"].filter(graph["edges"]["type"] == "CALLS").height
        counts[pid] = f"{graph['nodes'].height} nodes, {graph['edges'].height} edges, {calls} CALLS"
    return dg.Output(graphs, metadata=counts)


@dg.asset_check(asset=project_graph, blocking=True, description="No edge may join two projects.")
def no_cross_project_edges(project_graph: dict[str, Tables]) -> dg.AssetCheckResult:
    bad: list[str] = []
    for _pid, graph in sorted(project_graph.items()):
        edges = graph.get("edges")
        bad += cross_project_edges(edges) if edges is not None else []
    return dg.AssetCheckResult(
        passed=not bad,
        metadata={"cross-project edges": md_list(bad)},
    )


@dg.asset(
    ins={"code_facts": dg.AssetIn(code_facts.key)},
    deps=[kb_docs],
    code_version=GRAPH_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="graph",
    io_manager_key=STAGING,
)
def catalog(kb: KbResource, code_facts: dict[str, Tables]) -> dg.Output[Tables]:
    """_global catalog: packages, middleware, hosts, Terraform types, env var names."""
    knowledge = kb.kb()
    out = build_catalog(knowledge, _kb_components(knowledge, code_facts))
    return dg.Output(out, metadata={t: df.height for t, df in out.items()})
