"""`verification_report`: coverage, staleness and drift → KB root file + `verification` table.

Receives the per-project graphs (and the catalog's packages) from `project_graph` /
`catalog`, reads the KB and its raw imports; writes `<kb>/verification-report.md` (only
when its text changed) and returns the table for publish.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import partial

import dagster as dg

from assets.automation import STALE_OR_MISSING, md_list
from assets.code_versions import code_version
from assets.graph import catalog, project_graph
from assets.knowledge import kb_docs
from assets.resources import STAGING, KbResource
from kb.imports.store import read_sources
from kb.model import KnowledgeBase
from verification.drift import Drift, project_drifts
from verification.report import build_verification
from warehouse.staging import Tables, read_memo, staged_signature, write_memo

REPORT = "verification-report.md"
project_graph_asset = project_graph.key.to_python_identifier()

# project -> (KB hash, its input frames, its drifts). As for `assets.graph._graphs`: in
# the refresh service a project none of whose components changed hands over the very
# same graph frames run after run, and its drifts (from those frames, the KB and the
# git history of its unchanged folders) are the same. Across processes the drifts are
# memoised in staging under the project graph's signature (same KB, same component
# versions and extractor code) and this asset's code version.
_drifts: dict[str, tuple[str, dict, tuple]] = {}
VERIFICATION_CODE = code_version("verification")


def _same_inputs(held: dict, tables: dict) -> bool:
    if held.keys() != tables.keys():
        return False
    for name, df in tables.items():  # the catalog's rows are a new filtered frame each run
        filtered = name in ("catalog_packages", "coverage")  # a new filtered frame each run
        if held[name] is not df and not (filtered and held[name].equals(df)):
            return False
    return True


def drifts_memo(knowledge: KnowledgeBase, project: str, tables: dict, data_dir=None) -> tuple:
    held = _drifts.get(project)
    if held is not None and held[0] == knowledge.content_hash and _same_inputs(held[1], tables):
        return held[2]
    graph_signature = data_dir and staged_signature(data_dir, project_graph_asset, project)
    signature = f"{graph_signature}:{VERIFICATION_CODE}"
    stored = read_memo(data_dir, "drifts", project, signature) if graph_signature else None
    if isinstance(stored, dict):
        result = ([Drift(**d) for d in stored["drifts"]], list(stored["unknown"]))
    else:
        result = project_drifts(knowledge, project, tables)
        if graph_signature:
            value = {"drifts": [asdict(d) for d in result[0]], "unknown": list(result[1])}
            write_memo(data_dir, "drifts", project, signature, value)
    _drifts[project] = (knowledge.content_hash, dict(tables), result)
    return result


def project_tables(
    knowledge: KnowledgeBase, graphs: dict[str, Tables], catalog: Tables
) -> dict[str, dict]:
    """Graph frames per project, with that project's rows of catalog_packages and coverage."""
    out = {}
    for pid in sorted(knowledge.projects):
        tables = dict(graphs.get(pid) or {})
        for name in ("catalog_packages", "coverage"):
            df = catalog.get(name)
            if df is not None and "project" in df.columns:
                tables[name] = df.filter(df["project"] == pid)
        out[pid] = tables
    return out


def write_report(kb_root, text: str) -> bool:
    path = kb_root / REPORT
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    tmp = path.with_name(REPORT + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return True


@dg.asset(
    ins={"graphs": dg.AssetIn(project_graph.key), "catalog": dg.AssetIn(catalog.key)},
    deps=[kb_docs],
    code_version=VERIFICATION_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="verification",
    io_manager_key=STAGING,
)
def verification_report(
    kb: KbResource, graphs: dict[str, Tables], catalog: Tables
) -> dg.Output[Tables]:
    """verification-report.md in the KB root + the `verification` warehouse table."""
    knowledge = kb.kb()
    text, df = build_verification(
        knowledge,
        project_tables(knowledge, graphs, catalog),
        read_sources(knowledge.config.root),
        drifts_of=partial(drifts_memo, data_dir=kb.data_path()),
    )
    changed = write_report(knowledge.config.root, text)
    counts = df.group_by("section").len().sort("section").rows()
    drift = df.filter(df["section"] == "drift")
    return dg.Output(
        {"verification": df},
        metadata={
            **{f"{section}": n for section, n in counts},
            "report": dg.MetadataValue.path(str(knowledge.config.root / REPORT)),
            "report changed": changed,
            "drift list": md_list(
                f"`{p}:{ln}` {m}" for p, ln, m in drift.select("path", "line", "message").rows()
            ),
        },
    )
