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


# project -> (KB hash, its components' input frames, its graph). In the refresh service
# the staged frames of unchanged components are the same objects run after run
# (`warehouse.staging.keep_in_memory`), so a project none of whose components changed
# gets its graph back instead of a rebuild — and the IO manager, seeing the same frames,
# does not rewrite it. A cold process never hits: its frames are always new objects.
_graphs: dict[str, tuple[str, dict[str, Tables], Tables]] = {}


def _same(a: dict[str, Tables], b: dict[str, Tables]) -> bool:
    return a.keys() == b.keys() and all(
        a[k].keys() == b[k].keys() and all(a[k][t] is b[k][t] for t in a[k]) for k in a
    )


def project_graph_of(knowledge: KnowledgeBase, pid: str, tables: dict[str, Tables]) -> Tables:
    mine = {k: v for k, v in tables.items() if k.split("/", 1)[0] == pid}
    held = _graphs.get(pid)
    if held is not None and held[0] == knowledge.content_hash and _same(held[1], mine):
        return held[2]
    graph = build_project_graph(knowledge, pid, mine)
    _graphs[pid] = (knowledge.content_hash, mine, graph)
    return graph


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
        graph = graphs[pid] = project_graph_of(knowledge, pid, tables)
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
