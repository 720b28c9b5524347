"""Atomic publish of the warehouse: Parquet per partition, a manifest, and kb.duckdb.

Layout under the data dir (default `<kb-root>/.kb/`):

    builds/<build_id>/partition=<name>/<table>.parquet
    manifest.json        -> names the current build; replaced atomically (os.replace)
    kb.duckdb            -> views over the current build; built aside, then swapped

A build is written to `builds/<build_id>.tmp` and renamed into place before the
manifest points at it, so a reader never sees a half-written partition and a killed
build leaves the last good warehouse readable. Old builds are pruned, keeping a few
so readers holding the previous manifest finish their query.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from warehouse.integrity import file_records
from warehouse.reader import MANIFEST, parquet_view
from warehouse.tables import TABLES, frame, validate

DUCKDB_FILE = "kb.duckdb"
KEEP_BUILDS = 3


def new_build_id(now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return now.strftime("%Y%m%dT%H%M%S%fZ") + "-" + secrets.token_hex(3)


class _LastBuild:
    """What this process published last: (partition, table) -> frame, and its folder.

    A long-lived process (the refresh service) hands publish the very same frame objects
    for what did not change; their files are hard-linked from the last build instead of
    written again (the same frame writes the same bytes)."""

    frames: dict[tuple[str, str], pl.DataFrame] = {}
    folder: Path | None = None


def _write_table(path: Path, source: pl.DataFrame, df: pl.DataFrame, written: dict) -> None:
    partition = path.parent.name
    written[(partition, path.stem)] = source
    if _LastBuild.folder is not None and _LastBuild.frames.get((partition, path.stem)) is source:
        try:
            os.link(_LastBuild.folder / partition / path.name, path)
            return
        except OSError:
            pass
    df.write_parquet(path, statistics=False)


def _write_partition(
    folder: Path, tables: Mapping[str, pl.DataFrame], written: dict
) -> dict[str, int]:
    folder.mkdir(parents=True)
    counts: dict[str, int] = {}
    for table in TABLES:
        source = tables.get(table)
        df = frame(table, []) if source is None else validate(table, source)
        _write_table(folder / f"{table}.parquet", df if source is None else source, df, written)
        counts[table] = df.height
    for table, df in tables.items():  # tables registered elsewhere (doc index, ...)
        if table not in TABLES:
            _write_table(folder / f"{table}.parquet", df, df, written)
            counts[table] = df.height
    return counts


def _write_json_atomic(path: Path, payload: Any) -> None:
    tmp = path.with_suffix(path.suffix + f".tmp-{os.getpid()}")
    tmp.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def build_duckdb(data_dir: Path, build_dir: Path, table_names: list[str]) -> None:
    """Views for analysts over every partition; `partition` is a column (hive layout)."""
    target = data_dir / DUCKDB_FILE
    tmp = data_dir / f"{DUCKDB_FILE}.tmp-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    con = duckdb.connect(str(tmp))
    try:
        for table in table_names:
            paths = sorted(p.as_posix() for p in build_dir.glob(f"*/{table}.parquet"))
            if paths:
                parquet_view(con, table, paths)
    finally:
        con.close()
    os.replace(tmp, target)


def publish(
    data_dir: Path,
    partitions: Mapping[str, Mapping[str, pl.DataFrame]],
    manifest_extra: Mapping[str, Any] | None = None,
    build_id: str | None = None,
) -> dict[str, Any]:
    """Write every partition, then switch the manifest and kb.duckdb to the new build.

    Returns the manifest written. Raises pandera's SchemaError (nothing switched) when a
    table breaks its contract.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    builds = data_dir / "builds"
    builds.mkdir(exist_ok=True)
    build_id = build_id or new_build_id()
    tmp_dir = builds / f"{build_id}.tmp"
    final_dir = builds / build_id
    shutil.rmtree(tmp_dir, ignore_errors=True)
    tmp_dir.mkdir()
    written: dict[tuple[str, str], pl.DataFrame] = {}
    try:
        counts = {
            name: _write_partition(tmp_dir / f"partition={name}", tables, written)
            for name, tables in sorted(partitions.items())
        }
    except BaseException:
        shutil.rmtree(tmp_dir, ignore_errors=True)
        raise
    os.replace(tmp_dir, final_dir)
    _LastBuild.frames, _LastBuild.folder = written, final_dir
    table_names = sorted({t for c in counts.values() for t in c})
    build_duckdb(data_dir, final_dir, table_names)
    manifest = {
        "build_id": build_id,
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "path": f"builds/{build_id}",
        "partitions": {name: {"tables": c} for name, c in counts.items()},
        "files": file_records(final_dir),
        **dict(manifest_extra or {}),
    }
    _write_json_atomic(data_dir / MANIFEST, manifest)
    prune_builds(data_dir, keep=build_id)
    return manifest


def prune_builds(data_dir: Path, keep: str) -> None:
    """Remove leftovers of killed builds and all but the newest KEEP_BUILDS builds."""
    builds = data_dir / "builds"
    for tmp in builds.glob("*.tmp"):
        shutil.rmtree(tmp, ignore_errors=True)
    done = sorted(p for p in builds.iterdir() if p.is_dir() and not p.name.endswith(".tmp"))
    for old in done[:-KEEP_BUILDS]:
        if old.name != keep:
            shutil.rmtree(old, ignore_errors=True)
