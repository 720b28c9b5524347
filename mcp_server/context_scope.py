"""kb_context isolation: a project's pack holds only that project's docs and global ones.

The doc index marks KB-wide docs as project `_kb`; some of them still belong to one
project (an imported page whose `_source.yaml` says it was distilled into
`projects/<project>/…`, the sections of
`index/decisions.md` per project). For `kb_context(project=p)` the server searches a
view of the published index in which those chunks count as another project's (so the
search never shows them) and other projects' sections and table rows are cut out of
the generated index files.
"""

from __future__ import annotations

import copy
import re
import threading
from pathlib import Path

import yaml

from doc_context.index import DocIndex, load_index
from kb.tokens import estimate_tokens
from warehouse.reader import Warehouse

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_CACHE: dict[tuple[str, str], DocIndex] = {}
_LOCK = threading.Lock()
FOREIGN = "_other_project"


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


def scoped_row(
    row: dict, project: str, others: set[str], owners: dict[str, str | None], kb_root: Path | None
) -> dict:
    """The chunk as project `project` may see it: another project's is marked foreign
    (the search never shows it); a global index file loses other projects' sections."""
    owner = row.get("project")
    if owner != "_kb":
        return row
    path = str(row.get("path") or "")
    foreign = (
        foreign_path(path, others) or (row.get("heading_path") or "").split(" > ")[-1] in others
    )
    if not foreign and row.get("bucket") == "imports":
        if path not in owners:
            owners[path] = import_owner(kb_root, path, others | {project})
        foreign = owners[path] not in (None, project)
    if not foreign:
        text = str(row.get("text") or "")
        kept = keep_own_sections(text, others)
        if kept == text:
            return row
        if kept:
            return {**row, "text": kept, "tokens": estimate_tokens(kept)}
    return {**row, "project": FOREIGN}


def project_index(
    warehouse: Warehouse, build_id: str, project: str, known: set[str], kb_root: Path | None = None
) -> DocIndex:
    """The published doc index as one project sees it (cached per build and project)."""
    key = (f"{warehouse.data_dir}::{build_id}", project)
    with _LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    full = load_index(warehouse)
    others = known - {project}
    owners: dict[str, str | None] = {}
    view = copy.copy(full)  # shares the SQLite index and its lock; only the rows differ
    view.chunks = [scoped_row(r, project, others, owners, kb_root) for r in full.chunks]
    with _LOCK:
        for old in [k for k in _CACHE if k[0] != key[0]]:
            del _CACHE[old]
        _CACHE[key] = view
    return view
