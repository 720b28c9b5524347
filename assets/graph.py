"""Per-project graphs (code facts + bridges) and the global catalog.

Both receive `code_facts` as `{component key: tables}` through the staging IO manager;
`project_graph` returns its tables per project, `catalog` its tables.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from pathlib import Path

import dagster as dg

from assets.automation import STALE_OR_MISSING, md_list
from assets.code import code_facts
from assets.code_versions import code_version
from assets.knowledge import kb_docs, knowledge_graph
from assets.resources import SIGNATURE_META, STAGING, KbResource
from kb.model import KnowledgeBase
from warehouse.bridges import build_project_graph
from warehouse.catalog import build_catalog, cross_project_edges
from warehouse.code_stage import project_signature
from warehouse.staging import Tables, read_stage, staged_signature

GRAPH_CODE = code_version("graph")
# Staged facts arrive as read-on-use mappings (`warehouse.staging.LazyTables`), not dicts.
STAGED_FACTS = dg.AssetIn(code_facts.key, dagster_type=dg.Any)


# project -> (signature, its graph): in the refresh service a project none of whose
# components changed gets its graph back instead of a rebuild. Across processes the
# staged graph of a project carries the same signature (`warehouse.staging`), so a cold
# `kb refresh` reads it back instead of rebuilding it.
_graphs: dict[str, tuple[str, Tables]] = {}


def project_graph_of(
    knowledge: KnowledgeBase, pid: str, tables: Mapping[str, Mapping], data_dir: Path
) -> tuple[Tables, str]:
    """`pid`'s graph and the signature of what it was built from (the KB, the staged
    stamps of its components, the graph code): rebuilt only when that changed."""
    keys = [c.key for c in knowledge.components() if c.project == pid]
    signature = project_signature(knowledge, data_dir, keys, GRAPH_CODE)
    held = _graphs.get(pid)
    if held is not None and held[0] == signature:
        return held[1], signature
    if staged_signature(data_dir, project_graph.key.to_python_identifier(), pid) == signature:
        graph = read_stage(data_dir, project_graph.key.to_python_identifier(), pid)
    else:
        graph = build_project_graph(knowledge, pid, {k: tables[k] for k in keys if k in tables})
    _graphs[pid] = (signature, graph)
    return graph, signature


def _kb_components(knowledge: KnowledgeBase, facts: Mapping[str, Mapping]) -> dict[str, Mapping]:
    """The staged facts of the components the KB lists (a removed one drops out)."""
    return {c.key: facts.get(c.key, {}) for c in knowledge.components()}


# Judged in the asset's own step (a check of its own cost a step and a reload of every graph).
NO_CROSS_PROJECT_EDGES = dg.AssetCheckSpec(
    "no_cross_project_edges",
    asset="project_graph",
    blocking=True,
    description="No edge may join two projects.",
)


# edges frame -> its cross-project edges, for as long as that very frame lives: the refresh
# service hands the check the same graph object of every project that did not change.
_crossings: dict[int, tuple[weakref.ref, list[str]]] = {}


def _crossings_of(edges) -> list[str]:
    held = _crossings.get(id(edges))
    if held is not None and held[0]() is edges:
        return held[1]
    for gone in [k for k, (ref, _) in _crossings.items() if ref() is None]:
        del _crossings[gone]
    bad = cross_project_edges(edges)
    _crossings[id(edges)] = (weakref.ref(edges), bad)
    return bad


def no_cross_project_edges(graphs: Mapping[str, Tables]) -> dg.AssetCheckResult:
    bad: list[str] = []
    for _pid, graph in sorted(graphs.items()):
        edges = graph.get("edges")
        bad += _crossings_of(edges) if edges is not None else []
    return dg.AssetCheckResult(
        check_name=NO_CROSS_PROJECT_EDGES.name,
        passed=not bad,
        metadata={"cross-project edges": md_list(bad)},
    )


@dg.asset(
    ins={"code_facts": STAGED_FACTS},
    deps=[knowledge_graph],
    code_version=GRAPH_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="graph",
    io_manager_key=STAGING,
    check_specs=[NO_CROSS_PROJECT_EDGES],
)
def project_graph(kb: KbResource, code_facts: Mapping[str, Mapping]) -> Iterator:
    """One graph per project: its components' code facts joined by bridge edges. A project
    whose inputs did not change since its staged graph is read back, not rebuilt. Staged
    before its blocking check is judged, as a separate check would find it."""
    knowledge = kb.kb()
    tables = _kb_components(knowledge, code_facts)
    graphs, meta = {}, {}
    for pid in sorted(knowledge.projects):
        graph, signature = project_graph_of(knowledge, pid, tables, kb.data_path())
        graphs[pid] = graph
        calls = graph["edges"].filter(graph["edges"]["type"] == "CALLS").height
        meta[pid] = f"{graph['nodes'].height} nodes, {graph['edges'].height} edges, {calls} CALLS"
        meta[f"{SIGNATURE_META}{pid}"] = signature
    yield dg.Output(graphs, metadata=meta)
    yield no_cross_project_edges(graphs)


@dg.asset(
    ins={"code_facts": STAGED_FACTS},
    deps=[kb_docs],
    code_version=GRAPH_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="graph",
    io_manager_key=STAGING,
)
def catalog(kb: KbResource, code_facts: Mapping[str, Mapping]) -> dg.Output[Tables]:
    """_global catalog: packages, middleware, hosts, Terraform types, env var names."""
    knowledge = kb.kb()
    out = build_catalog(knowledge, _kb_components(knowledge, code_facts))
    return dg.Output(out, metadata={t: df.height for t, df in out.items()})
