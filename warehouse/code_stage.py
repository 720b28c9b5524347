"""Staged code facts per component, stamped with what they were built from (read side).

The stamp (component version + extractor code version) lets a run over a range of
partitions skip components whose staged facts are already current, so "many stale
partitions in one run" costs only the stale ones. The extraction workers write here
themselves; the `code_facts` asset's IO manager reads the same folders
(`staging/code_facts/<project>__<component>`), so `STAGE` is that asset's name.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from warehouse.integrity import stage_intact
from warehouse.staging import stage_dir, write_stage

STAGE = "code_facts"
STAMP = "stamp.json"


def read_stamp(data_dir: Path, key: str) -> dict | None:
    """What a component's staged facts were built from; None when nothing usable is
    staged (no stamp, or a damaged table: the component is extracted again)."""
    path = stage_dir(data_dir, STAGE, key) / STAMP
    if not stage_intact(path.parent):
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_component_facts(data_dir: Path, key: str, tables: dict, stamp: dict) -> None:
    """Stage one component's tables with the stamp of what they were built from."""
    folder = write_stage(data_dir, STAGE, key, tables)
    stamp = {**stamp, "counts": {t: df.height for t, df in tables.items()}}
    (folder / STAMP).write_text(json.dumps(stamp, sort_keys=True), encoding="utf-8")


def restamp(data_dir: Path, key: str, stamp: dict) -> bool:
    """Replace a staged component's stamp, its tables kept; False when nothing is staged."""
    path = stage_dir(data_dir, STAGE, key) / STAMP
    if not path.is_file():
        return False
    path.write_text(json.dumps(stamp, sort_keys=True), encoding="utf-8")
    return True


def project_signature(kb, data_dir: Path, keys: list[str], code_version: str) -> str:
    """A digest of what a project's derived tables are computed from: the KB's content,
    the stamps of its components' staged facts (version, extractor code, counts) and the
    deriving code's version. Equal signatures mean equal inputs."""
    parts = [kb.content_hash, code_version]
    for key in sorted(keys):
        parts.append(f"{key}={json.dumps(read_stamp(data_dir, key), sort_keys=True)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]
