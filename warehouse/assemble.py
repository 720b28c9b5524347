"""Gather the assets' outputs into warehouse partitions, ready to publish.

`_global`: knowledge layer + catalog + docs/adrs + KB problems + KB doc chunks +
verification. `<project>`: its code graph with bridges + its repos' doc chunks.
Only components the KB still lists are included, so a removed component disappears.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from kb.model import KnowledgeBase
from warehouse.catalog import PLAIN_TABLES
from warehouse.code_stage import read_stamp
from warehouse.staging import LazyTables, Tables
from warehouse.tables import concat, frame

GLOBAL = "_global"


@dataclass(frozen=True)
class BuildInputs:
    """What the publish step receives from the asset graph."""

    kb_docs: Tables  # docs, adrs, problems (KB validation)
    knowledge: Tables  # knowledge-layer nodes, edges
    graphs: Mapping[str, Mapping[str, pl.DataFrame]]  # per project: code graph with bridges
    catalog: Tables  # catalog_* tables, catalog nodes/edges
    repo_chunks: Mapping[str, Mapping[str, pl.DataFrame]]  # per component: its repo's doc chunks
    kb_chunks: Tables  # the KB's own doc chunks
    verification: Tables  # the verification table


class ProjectPartition(Mapping[str, pl.DataFrame]):
    """A project's tables as publish sees them: its graph's tables, and each doc table
    stacked over its components, made when first asked for. Staged tables come as
    read-on-use mappings in a cold process, so a partition that publish links from the
    last build (same signature) is never read at all."""

    def __init__(self, graph: Mapping[str, pl.DataFrame], chunks: list[Mapping]) -> None:
        self._graph, self._chunks = graph, chunks
        self._chunk_names = {t for c in chunks for t in c}
        self._names = [
            *(t for t in graph if t not in self._chunk_names),
            *sorted(self._chunk_names),
        ]
        self._made: dict[str, pl.DataFrame] = {}

    def __getitem__(self, table: str) -> pl.DataFrame:
        if table not in self._chunk_names:
            return self._graph[table]
        if table not in self._made:
            self._made[table] = concat(table, [c[table] for c in self._chunks if table in c])
        return self._made[table]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def height(self, table: str) -> int:
        if table not in self:
            return 0
        if table not in self._chunk_names and isinstance(self._graph, LazyTables):
            return self._graph.height(table)
        return self[table].height


def _height(tables: Mapping[str, pl.DataFrame], table: str) -> int:
    if isinstance(tables, ProjectPartition):
        return tables.height(table)
    return tables[table].height if table in tables else 0


def _version_of(values: list[str]) -> str:
    return hashlib.sha256("\n".join(values).encode()).hexdigest()[:12]


def assemble_partitions(
    kb: KnowledgeBase, data_dir: Path, inputs: BuildInputs
) -> tuple[dict[str, Mapping[str, pl.DataFrame]], dict[str, Any]]:
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
        **{t: df for t, df in catalog.items() if t.startswith("catalog_") or t in PLAIN_TABLES},
        **{t: df for t, df in verification.items() if t != "problems"},
    }
    global_tables.update(inputs.kb_chunks)
    partitions: dict[str, Mapping[str, pl.DataFrame]] = {GLOBAL: global_tables}
    components: dict[str, Any] = {}
    versions_by_project: dict[str, list[str]] = {}
    for pid in sorted(kb.projects):
        chunks: list[Mapping] = []
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
            chunks.append(inputs.repo_chunks.get(comp.key) or {})
        partitions[pid] = ProjectPartition(inputs.graphs.get(pid) or {}, chunks)
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
                **{t: _height(tables, t) for t in ("nodes", "edges", "unresolved", "problems")},
            }
        )
    global_tables["builds"] = frame("builds", builds)
    extra = {"kb_hash": kb.content_hash, "kb_root": str(kb.config.root), "components": components}
    return partitions, extra
