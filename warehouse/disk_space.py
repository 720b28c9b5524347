"""Disk space for a build: checked before it starts, and named when it runs out.

A build writes a new copy of the warehouse next to the last good one (which stays
readable), plus staging files and Dagster's run records. When the data dir's disk
cannot hold that, the user gets one line — where, how much is needed, how much is
free — instead of a Dagster step failure or a 100-line traceback.
"""

from __future__ import annotations

import errno
import json
import shutil
from pathlib import Path

MARGIN_BYTES = 32 * 2**20  # Dagster run records, temp files, a growing KB
NO_SPACE = ("No space left on device", "database or disk is full", "Disk quota exceeded")


def _tree_bytes(path: Path) -> int:
    if not path.exists():
        return 0
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def bytes_needed(data_dir: Path) -> int:
    """About what one more build takes: the last build and its DuckDB file again, the
    staged facts again, and a margin."""
    try:
        manifest = json.loads((data_dir / "manifest.json").read_text(encoding="utf-8"))
        last = _tree_bytes(data_dir / str(manifest.get("path", "")))
    except (OSError, ValueError):
        last = 0
    return (
        last
        + _tree_bytes(data_dir / "kb.duckdb")
        + _tree_bytes(data_dir / "staging")
        + MARGIN_BYTES
    )


def _mb(n: int) -> str:
    return f"{n / 2**20:.1f} MB"


def shortage(data_dir: Path) -> str | None:
    """One line when the data dir's disk has less free space than a build needs."""
    data_dir.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(data_dir).free
    need = bytes_needed(data_dir)
    if free >= need:
        return None
    return no_space_line(data_dir, need, free)


def no_space_line(data_dir: Path, need: int | None = None, free: int | None = None) -> str:
    free = shutil.disk_usage(data_dir).free if free is None else free
    need = bytes_needed(data_dir) if need is None else need
    return (
        f"{data_dir}: not enough disk space for a build — about {_mb(need)} needed, "
        f"{_mb(free)} free; free space there or pass --data-dir on a larger disk "
        "(the last good warehouse is unchanged)"
    )


def is_no_space(exc: BaseException | str) -> bool:
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    text = str(exc)
    return any(marker in text for marker in NO_SPACE)
