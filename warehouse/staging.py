"""Staged asset outputs: Parquet per (asset, key) under `<data_dir>/staging/`.

The store behind the assets' IO manager (`assets.resources.StagingIOManager`): an asset
returns its tables and the IO manager writes them here, rather than pickles, so one
component's re-extraction rewrites one folder and the publish step can read every
partition's latest good output. `key` is a partition (`project/component`), a project
id for outputs kept per project, or `all`. Writes are atomic (temp folder + rename).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path

import polars as pl

from warehouse.integrity import stage_intact

STAGING = "staging"
ALL = "all"
# In a staged folder: a digest of what its tables were computed from (`staged_signature`).
SIGNATURE = "signature.txt"

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


def write_stage(
    data_dir: Path,
    asset: str,
    key: str,
    tables: Mapping[str, pl.DataFrame],
    signature: str | None = None,
) -> Path:
    """Replace the staged output of `asset` for partition `key` with `tables`.

    `signature`, a digest of everything `tables` were computed from, is kept with them:
    a folder already staged under the same signature holds the same tables, and is
    left as it is."""
    final = stage_dir(data_dir, asset, key)
    if _unchanged(final, tables):
        return final
    if signature is not None and staged_signature(data_dir, asset, key) == signature:
        return final
    tmp = final.with_name(final.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for table, df in tables.items():
        df.write_parquet(tmp / f"{table}.parquet", statistics=False)
    if signature is not None:
        (tmp / SIGNATURE).write_text(signature, encoding="utf-8")
    old = final.with_name(final.name + f".old-{os.getpid()}")
    if final.exists():
        os.replace(final, old)
    os.replace(tmp, final)
    shutil.rmtree(old, ignore_errors=True)
    if _memory is not None:
        _memory[final] = (_identity(final), dict(tables))
    return final


def staged_signature(data_dir: Path, asset: str, key: str) -> str | None:
    """The signature `asset`'s tables for `key` were staged under, if any (none when a
    staged table is damaged: then it is built again)."""
    folder = stage_dir(data_dir, asset, key)
    if not stage_intact(folder):
        return None
    try:
        return (folder / SIGNATURE).read_text(encoding="utf-8")
    except OSError:
        return None


class LazyTables(Mapping[str, pl.DataFrame]):
    """A staged folder's tables, each read from its Parquet file when first asked for:
    a step that needs a few tables of every component (the catalog) or every table of a
    few (a project graph rebuilt) reads only those."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._names = sorted(p.stem for p in folder.glob("*.parquet"))
        self._read: dict[str, pl.DataFrame] = {}

    def __getitem__(self, table: str) -> pl.DataFrame:
        if table not in self._read:
            if table not in self._names:
                raise KeyError(table)
            self._read[table] = pl.read_parquet(self.path_of(table))
        return self._read[table]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __contains__(self, table: object) -> bool:
        return table in self._names

    def unread(self, table: str) -> bool:
        return table in self._names and table not in self._read

    def path_of(self, table: str) -> Path:
        return self._folder / f"{table}.parquet"

    def height(self, table: str) -> int:
        """Rows of `table`, from the Parquet footer when it was not read."""
        if table in self._read:
            return self._read[table].height
        return pl.scan_parquet(self.path_of(table)).select(pl.len()).collect().item()

    def __len__(self) -> int:
        return len(self._names)


def one_table_of_each(tables: list[Mapping[str, pl.DataFrame]], table: str) -> list[pl.DataFrame]:
    """`table` of each mapping that has it, in order (their rows in that order). When all
    of them are staged folders not read yet and their files share a schema, one
    multi-file Parquet read returns them as one frame: a cold catalog step reads one
    table of every component, and one read of 46 small files is several times faster
    than 46 reads."""
    holding = [t for t in tables if table in t]
    if len(holding) > 1 and all(isinstance(t, LazyTables) and t.unread(table) for t in holding):
        try:
            return [pl.read_parquet([t.path_of(table) for t in holding])]
        except pl.exceptions.PolarsError:  # schemas differ: read them one by one
            pass
    return [t[table] for t in holding]


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


def write_keyed(
    data_dir: Path,
    asset: str,
    by_key: Mapping[str, Mapping[str, pl.DataFrame]],
    signatures: Mapping[str, str] | None = None,
):
    """Replace `asset`'s output kept per key (e.g. per project); keys gone are dropped."""
    for key, tables in by_key.items():
        write_stage(data_dir, asset, key, tables, (signatures or {}).get(key))
    for key in set(staged_keys(data_dir, asset)) - set(by_key):
        drop_stage(data_dir, asset, key)


def read_keyed(
    data_dir: Path, asset: str, keys: list[str] | None = None, lazy: bool = False
) -> dict[str, Mapping[str, pl.DataFrame]]:
    """`asset`'s tables per key: the given keys (missing ones empty), or every staged key.
    `lazy`: each table read on first use (unless the refresh service keeps them in memory)."""
    wanted = staged_keys(data_dir, asset) if keys is None else keys
    if lazy and _memory is None:
        folders = {key: stage_dir(data_dir, asset, key) for key in wanted}
        return {k: LazyTables(f) if f.is_dir() else {} for k, f in folders.items()}
    return {key: read_stage(data_dir, asset, key) for key in wanted}


def drop_stage(data_dir: Path, asset: str, key: str) -> None:
    shutil.rmtree(stage_dir(data_dir, asset, key), ignore_errors=True)


def read_memo(data_dir: Path, name: str, key: str, signature: str) -> object | None:
    """A JSON value memoised for `key` under `signature` (None when absent or other)."""
    path = data_dir / STAGING / "_memo" / name / f"{_safe(key)}.json"
    try:
        held = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return held.get("value") if held.get("signature") == signature else None


def write_memo(data_dir: Path, name: str, key: str, signature: str, value: object) -> None:
    """Memoise a JSON value computed from inputs whose digest is `signature`."""
    folder = data_dir / STAGING / "_memo" / name
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f"{_safe(key)}.json.tmp-{os.getpid()}"
    tmp.write_text(json.dumps({"signature": signature, "value": value}), encoding="utf-8")
    os.replace(tmp, folder / f"{_safe(key)}.json")
