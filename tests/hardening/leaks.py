"""Where does a string end up? Every file under a folder, Parquet read column by column."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq


def files_containing(folder: Path, needles: list[str]) -> dict[str, list[str]]:
    """{relative path: [needles found]} over every file below `folder` (Parquet decoded)."""
    found: dict[str, list[str]] = {}
    lowered = [n.lower() for n in needles]
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.suffix == ".parquet":
            text = str(pq.read_table(path).to_pylist()).lower()
        else:
            text = path.read_bytes().decode("utf-8", "replace").lower()
        hits = [n for n, low in zip(needles, lowered, strict=True) if low in text]
        if hits:
            found[path.relative_to(folder).as_posix()] = hits
    return found
