"""A checksum per published file, and the check that names a damaged or missing one.

`publish` records sha256, size and mtime of every file of a build in the manifest.
`damaged_files` compares size and the Parquet footer magic and hashes every file
(a flipped byte that kept the size and the mtime is found: ~10 ms for a 10 MB warehouse,
in `kb status`, the no-op `kb refresh` and before `publish` links a partition from the
last build); `verify=False` hashes only a file whose mtime moved (a reader's quick look). `duckdb_damage` checks kb.duckdb's header the same cheap way. A
damaged or missing file makes the warehouse stale: `kb status` names it and
`kb refresh` rebuilds the build it belongs to from the staged facts.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

CHUNK = 1 << 20
MANIFEST = "manifest.json"  # written by warehouse.publish; here so the no-op check stays light


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def file_records(
    build_dir: Path, known: dict[str, dict[str, Any]] | None = None
) -> dict[str, dict[str, Any]]:
    """`partition=<p>/<table>.parquet` -> {sha256, bytes, mtime_ns} for a finished build.
    A file `known` (the last build's records) with the same size and mtime — hard-linked
    from that build — keeps its checksum instead of being hashed again."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(Path(build_dir).rglob("*")):
        if path.is_file():
            stat = path.stat()
            rel = path.relative_to(build_dir).as_posix()
            was = (known or {}).get(rel) or {}
            same = was.get("bytes") == stat.st_size and was.get("mtime_ns") == stat.st_mtime_ns
            out[rel] = {
                "sha256": was["sha256"] if same and "sha256" in was else _sha256(path),
                "bytes": stat.st_size,
                "mtime_ns": stat.st_mtime_ns,
            }
    return out


def _parquet_footer_ok(path: Path, size: int) -> bool:
    if size < 12:
        return False
    with path.open("rb") as handle:
        head = handle.read(4)
        handle.seek(size - 4)
        return head == b"PAR1" and handle.read(4) == b"PAR1"


def stage_intact(folder: Path) -> bool:
    """Every Parquet file of a staging folder whole (magic at both ends): a stage that is
    not is treated as never written, so the next refresh builds it again instead of
    failing on it in every later run."""
    try:
        return all(_parquet_footer_ok(p, p.stat().st_size) for p in Path(folder).glob("*.parquet"))
    except OSError:
        return False


DUCKDB_FILE = "kb.duckdb"


def duckdb_damage(data_dir: Path) -> str | None:
    """Why kb.duckdb cannot be opened (missing, or no DuckDB header), or None."""
    path = Path(data_dir) / DUCKDB_FILE
    try:
        with path.open("rb") as handle:
            head = handle.read(12)
    except OSError:
        return f"{DUCKDB_FILE}: missing"
    return None if head[8:12] == b"DUCK" else f"{DUCKDB_FILE}: damaged (not a DuckDB file)"


def damaged_files(data_dir: Path, manifest: dict[str, Any], verify: bool = True) -> list[str]:
    """One line per published file that is missing or no longer what was published;
    `verify` hashes every file, not only those whose mtime moved."""
    records = manifest.get("files")
    if not isinstance(records, dict):
        return []  # published before checksums were recorded
    build_dir = Path(data_dir) / str(manifest.get("path", ""))
    out: list[str] = []
    for rel, want in sorted(records.items()):
        path = build_dir / rel
        shown = path.relative_to(data_dir).as_posix() if path.is_relative_to(data_dir) else path
        try:
            stat = os.stat(path)
        except OSError:
            out.append(f"{shown}: missing")
            continue
        if stat.st_size != want.get("bytes"):
            out.append(f"{shown}: damaged ({stat.st_size} bytes, published {want.get('bytes')})")
        elif path.suffix == ".parquet" and not _parquet_footer_ok(path, stat.st_size):
            out.append(f"{shown}: damaged (not a complete Parquet file)")
        elif (verify or stat.st_mtime_ns != want.get("mtime_ns")) and _sha256(path) != want.get(
            "sha256"
        ):
            out.append(f"{shown}: damaged (checksum differs from the published one)")
    return out
