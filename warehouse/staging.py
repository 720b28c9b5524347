"""Staged asset outputs: Parquet per (asset, key) under `<data_dir>/staging/`.

The store behind the assets' IO manager (`assets.resources.StagingIOManager`): an asset
returns its tables and the IO manager writes them here, rather than pickles, so one
component's re-extraction rewrites one folder and the publish step can read every
partition's latest good output. `key` is a partition (`project/component`), a project
id for outputs kept per project, or `all`. Writes are atomic (temp folder + rename).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path

import polars as pl

STAGING = "staging"
ALL = "all"

Tables = dict[str, pl.DataFrame]  # one output: table name -> frame

# In a long-lived process (the refresh service) staged tables stay in memory between
# runs, so a refresh reads from disk only the partitions that changed. A folder is
# replaced whole on write (rename), so its (inode, mtime, ctime) says whether a
# cached copy still is what is on disk. Polars frames are immutable: sharing is safe.
_memory: dict[Path, tuple[tuple[int, int, int], Tables]] | None = None


def keep_in_memory() -> None:
    """Keep staged tables in memory from now on (`kb serve-refresh` calls this)."""
    global _memory
    if _memory is None:
        _memory = {}


def _identity(folder: Path) -> tuple[int, int, int]:
    st = folder.stat()
    return (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)


def _unchanged(folder: Path, tables: Mapping[str, pl.DataFrame]) -> bool:
    """The same frame objects were the last ones written to (or read from) `folder`."""
    if _memory is None or folder not in _memory:
        return False
    ident, held = _memory[folder]
    try:
        current = _identity(folder)
    except OSError:
        return False
    return (
        current == ident
        and held.keys() == tables.keys()
        and all(held[t] is df for t, df in tables.items())
    )


def _safe(key: str) -> str:
    return key.replace("/", "__")


def stage_dir(data_dir: Path, asset: str, key: str = "all") -> Path:
    return data_dir / STAGING / asset / _safe(key)


def write_stage(data_dir: Path, asset: str, key: str, tables: Mapping[str, pl.DataFrame]) -> Path:
    """Replace the staged output of `asset` for partition `key` with `tables`."""
    final = stage_dir(data_dir, asset, key)
    if _unchanged(final, tables):
        return final
    tmp = final.with_name(final.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for table, df in tables.items():
        df.write_parquet(tmp / f"{table}.parquet", statistics=False)
    old = final.with_name(final.name + f".old-{os.getpid()}")
    if final.exists():
        os.replace(final, old)
    os.replace(tmp, final)
    shutil.rmtree(old, ignore_errors=True)
    if _memory is not None:
        _memory[final] = (_identity(final), dict(tables))
    return final


def read_stage(data_dir: Path, asset: str, key: str = "all") -> dict[str, pl.DataFrame]:
    folder = stage_dir(data_dir, asset, key)
    if not folder.is_dir():
        return {}
    if _memory is not None:
        ident = _identity(folder)
        held = _memory.get(folder)
        if held is not None and held[0] == ident:
            return dict(held[1])
    tables = {p.stem: pl.read_parquet(p) for p in sorted(folder.glob("*.parquet"))}
    if _memory is not None:
        _memory[folder] = (ident, tables)
    return dict(tables)


def staged_keys(data_dir: Path, asset: str) -> list[str]:
    """Partition keys staged for `asset` (`project/component` form restored)."""
    base = data_dir / STAGING / asset
    if not base.is_dir():
        return []
    return sorted(
        p.name.replace("__", "/")
        for p in base.iterdir()
        if p.is_dir() and ".tmp-" not in p.name and ".old-" not in p.name
    )


def write_keyed(data_dir: Path, asset: str, by_key: Mapping[str, Mapping[str, pl.DataFrame]]):
    """Replace `asset`'s output kept per key (e.g. per project); keys gone are dropped."""
    for key, tables in by_key.items():
        write_stage(data_dir, asset, key, tables)
    for key in set(staged_keys(data_dir, asset)) - set(by_key):
        drop_stage(data_dir, asset, key)


def read_keyed(data_dir: Path, asset: str, keys: list[str] | None = None) -> dict[str, Tables]:
    """`asset`'s tables per key: the given keys (missing ones empty), or every staged key."""
    wanted = staged_keys(data_dir, asset) if keys is None else keys
    return {key: read_stage(data_dir, asset, key) for key in wanted}


def drop_stage(data_dir: Path, asset: str, key: str) -> None:
    shutil.rmtree(stage_dir(data_dir, asset, key), ignore_errors=True)
