"""Gather the assets' outputs into warehouse partitions, ready to publish.

`_global`: knowledge layer + catalog + docs/adrs + KB problems + KB doc chunks +
verification. `<project>`: its code graph with bridges + its repos' doc chunks.
Only components the KB still lists are included, so a removed component disappears.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from kb.model import KnowledgeBase
from warehouse.code_stage import read_stamp
from warehouse.staging import Tables
from warehouse.tables import concat, frame

GLOBAL = "_global"


@dataclass(frozen=True)
class BuildInputs:
    """What the publish step receives from the asset graph."""

    kb_docs: Tables  # docs, adrs, problems (KB validation)
    knowledge: Tables  # knowledge-layer nodes, edges
    graphs: dict[str, Tables]  # per project: code graph with bridges
    catalog: Tables  # catalog_* tables, catalog nodes/edges
    repo_chunks: dict[str, Tables]  # per component: its repo's doc chunks
    kb_chunks: Tables  # the KB's own doc chunks
    verification: Tables  # the verification table


def _version_of(values: list[str]) -> str:
    return hashlib.sha256("\n".join(values).encode()).hexdigest()[:12]


def assemble_partitions(
    kb: KnowledgeBase, data_dir: Path, inputs: BuildInputs
) -> tuple[dict[str, dict[str, pl.DataFrame]], dict[str, Any]]:
    """Partitions to publish, and the manifest's extra fields (component stamps from
    `data_dir`'s staged code facts)."""
    knowledge, catalog, verification = inputs.knowledge, inputs.catalog, inputs.verification
    global_tables: dict[str, pl.DataFrame] = {
        "nodes": concat("nodes", [knowledge.get("nodes"), catalog.get("nodes")]),
        "edges": concat("edges", [knowledge.get("edges"), catalog.get("edges")]),
        "problems": concat(
            "problems", [inputs.kb_docs.get("problems"), verification.get("problems")]
        ),
        **{t: df for t, df in inputs.kb_docs.items() if t != "problems"},
        **{t: df for t, df in catalog.items() if t.startswith("catalog_")},
        **{t: df for t, df in verification.items() if t != "problems"},
    }
    global_tables.update(inputs.kb_chunks)
    partitions: dict[str, dict[str, pl.DataFrame]] = {GLOBAL: global_tables}
    components: dict[str, Any] = {}
    versions_by_project: dict[str, list[str]] = {}
    for pid in sorted(kb.projects):
        project_tables = dict(inputs.graphs.get(pid) or {})
        chunk_frames: dict[str, list[pl.DataFrame]] = {}
        for comp in kb.components():
            if comp.project != pid:
                continue
            stamp = read_stamp(data_dir, comp.key) or {}
            components[comp.key] = {
                "version": stamp.get("version"),
                "code_version": stamp.get("code_version"),
                "repo": str(comp.repo_path) if comp.repo_path else None,
                **{k: stamp[k] for k in ("kept_from", "unavailable") if k in stamp},
            }
            versions_by_project.setdefault(pid, []).append(f"{comp.key}@{stamp.get('version')}")
            for table, df in (inputs.repo_chunks.get(comp.key) or {}).items():
                chunk_frames.setdefault(table, []).append(df)
        for table, frames in chunk_frames.items():
            project_tables[table] = concat(table, frames)
        partitions[pid] = project_tables
    built_at = datetime.now(UTC).isoformat(timespec="seconds")
    builds = []
    for name, tables in sorted(partitions.items()):
        version = (
            kb.content_hash if name == GLOBAL else _version_of(versions_by_project.get(name, []))
        )
        builds.append(
            {
                "partition": name,
                "version": version,
                "built_at": built_at,
                **{
                    t: tables[t].height if t in tables else 0
                    for t in ("nodes", "edges", "unresolved", "problems")
                },
            }
        )
    global_tables["builds"] = frame("builds", builds)
    extra = {"kb_hash": kb.content_hash, "kb_root": str(kb.config.root), "components": components}
    return partitions, extra
