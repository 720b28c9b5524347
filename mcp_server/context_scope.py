"""kb_context isolation: a project's pack holds only that project's docs and global ones.

The doc index marks KB-wide docs as project `_kb`; some of them still belong to one
project (an imported page whose `_source.yaml` says it was distilled into
`projects/<project>/…`, the sections of
`index/decisions.md` per project). For `kb_context(project=p)` the server builds an
index over p's chunks plus the `_kb` chunks with other projects' paths dropped and
other projects' sections and table rows cut out of the generated index files.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import polars as pl
import yaml

from doc_context.index import DocIndex, _read_frames
from kb.tokens import estimate_tokens
from warehouse.reader import Warehouse

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_CACHE: dict[tuple[str, str], DocIndex] = {}
_LOCK = threading.Lock()


def foreign_path(path: str, others: set[str]) -> bool:
    return any(part in others for part in str(path or "").split("/")[:-1])


def keep_own_sections(text: str, others: set[str]) -> str:
    """The text without other projects' sections (`## other`) and table rows naming them."""
    out: list[str] = []
    skip_level = 0
    for line in text.splitlines():
        head = _HEADING.match(line)
        if head:
            level = len(head[1])
            if skip_level and level > skip_level:
                continue
            skip_level = level if head[2].strip("` ") in others else 0
            if skip_level:
                continue
        elif skip_level:
            continue
        if line.lstrip().startswith("|"):
            cells = {c.strip().strip("`") for c in line.strip().strip("|").split("|")}
            if cells & others:
                continue
        out.append(line)
    return "\n".join(out).strip()


def import_owner(kb_root: Path | None, path: str, known: set[str]) -> str | None:
    """The project an imported doc belongs to: its `_source.yaml` `project:` or the
    project folder of `distilled_into:`; None when it names none (a global import)."""
    if kb_root is None:
        return None
    source = kb_root / Path(path).parent / "_source.yaml"
    try:
        meta = yaml.safe_load(source.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return None
    if not isinstance(meta, dict):
        return None
    if meta.get("project") in known:
        return str(meta["project"])
    parts = str(meta.get("distilled_into") or "").split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "projects" and parts[1] in known else None


def scoped_chunks(
    chunks: pl.DataFrame, project: str, known: set[str], kb_root: Path | None = None
) -> pl.DataFrame:
    others = known - {project}
    owners: dict[str, str | None] = {}
    rows = []
    for row in chunks.to_dicts() if chunks.height else []:
        owner = row.get("project")
        if owner == project:
            rows.append(row)
            continue
        path = str(row.get("path") or "")
        if owner != "_kb" or foreign_path(path, others):
            continue
        if row.get("bucket") == "imports":
            if path not in owners:
                owners[path] = import_owner(kb_root, path, known)
            if owners[path] not in (None, project):
                continue
        text = str(row.get("text") or "")
        kept = keep_own_sections(text, others)
        if not kept:
            continue
        if kept != text:
            row = {**row, "text": kept, "tokens": estimate_tokens(kept)}
        rows.append(row)
    return pl.DataFrame(rows, schema=chunks.schema) if rows else chunks.clear()


def project_index(
    warehouse: Warehouse, build_id: str, project: str, known: set[str], kb_root: Path | None = None
) -> DocIndex:
    """The doc index of one project (plus global docs), built once per build."""
    key = (f"{warehouse.data_dir}::{build_id}", project)
    with _LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    chunks, edges = _read_frames(warehouse)
    scoped = scoped_chunks(chunks, project, known, kb_root)
    if edges.height and "project" in edges.columns:
        edges = edges.filter(pl.col("project").is_in([project, "_kb"]))
    index = DocIndex.from_frames(scoped, edges if edges.height else None, build_id)
    with _LOCK:
        for old in [k for k in _CACHE if k[0] != key[0]]:
            del _CACHE[old]
        _CACHE[key] = index
    return index
