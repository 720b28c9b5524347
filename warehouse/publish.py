"""Atomic publish of the warehouse: Parquet per partition, a manifest, and kb.duckdb.

Layout under the data dir (default `<kb-root>/.kb/`):

    builds/<build_id>/partition=<name>/<table>.parquet
    manifest.json        -> names the current build; replaced atomically (os.replace)
    current              -> symlink to builds/<build_id>, switched atomically too
    kb.duckdb            -> views over current/*/<table>.parquet; rebuilt (aside, then
                            swapped) only when the tables, their contract or the data
                            dir's place change, so a session open on it sees each build

A build is written to `builds/<build_id>.tmp` and renamed into place before the
manifest points at it, so a reader never sees a half-written partition and a killed
build leaves the last good warehouse readable. Old builds are pruned, keeping a few
so readers holding the previous manifest finish their query.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import shutil
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from warehouse.integrity import damaged_files, duckdb_damage, file_records
from warehouse.reader import MANIFEST, parquet_view
from warehouse.tables import TABLES, frame, validate

DUCKDB_FILE = "kb.duckdb"
CURRENT = "current"
KEEP_BUILDS = 3


def new_build_id(now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return now.strftime("%Y%m%dT%H%M%S%fZ") + "-" + secrets.token_hex(3)


class _LastBuild:
    """What this process published last: (partition, table) -> frame, and its folder.

    A long-lived process (the refresh service) hands publish the very same frame objects
    for what did not change; their files are hard-linked from the last build instead of
    written again (the same frame writes the same bytes, and so does an equal one)."""

    frames: dict[tuple[str, str], pl.DataFrame] = {}
    folder: Path | None = None


def _linked(path: Path, source: pl.DataFrame) -> bool:
    """Hard-link `path` from the last build when `source` is the frame written there, or
    an equal one (recomputed from unchanged inputs: a catalog, the knowledge layer)."""
    partition = path.parent.name
    last = _LastBuild.frames.get((partition, path.stem))
    if _LastBuild.folder is None or last is None:
        return False
    if last is not source and not (last.schema == source.schema and last.equals(source)):
        return False
    try:
        os.link(_LastBuild.folder / partition / path.name, path)
    except OSError:
        return False
    return True


def _write_partition(
    folder: Path, tables: Mapping[str, pl.DataFrame], written: dict
) -> dict[str, int]:
    """Each table of a partition; one published last time as this very (or an equal)
    frame is linked, not validated and written again (it was validated then)."""
    folder.mkdir(parents=True)
    counts: dict[str, int] = {}
    names = [*TABLES, *(t for t in tables if t not in TABLES)]  # + doc index tables, ...
    for table in names:
        source, path = tables.get(table), folder / f"{table}.parquet"
        if source is not None:
            written[(folder.name, table)] = source
            if _linked(path, source):
                counts[table] = source.height
                continue
        if table in TABLES:
            df = frame(table, []) if source is None else validate(table, source)
        else:
            df = source
        df.write_parquet(path, statistics=False)
        counts[table] = df.height
    return counts


def _write_json_atomic(path: Path, payload: Any) -> None:
    tmp = path.with_suffix(path.suffix + f".tmp-{os.getpid()}")
    tmp.write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _point_current(data_dir: Path, build_dir: Path) -> Path:
    """Switch the `current` symlink to `build_dir` (relative: the data dir can move)."""
    link, tmp = data_dir / CURRENT, data_dir / f"{CURRENT}.tmp-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    if link.is_dir() and not link.is_symlink():  # a copy made without symlinks
        shutil.rmtree(link)
    os.symlink(os.path.relpath(build_dir, data_dir), tmp)
    os.replace(tmp, link)
    return link.absolute()


def views_signature(current: Path, table_names: list[str]) -> str:
    """What kb.duckdb's views depend on: where they read, which tables, their contract."""
    contract = {t: {c: str(d) for c, d in TABLES[t].items()} for t in table_names if t in TABLES}
    text = json.dumps([current.as_posix(), table_names, contract], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def build_duckdb(data_dir: Path, current: Path, table_names: list[str]) -> None:
    """Views for analysts over every partition of the current build (through the `current`
    link, resolved at each query); `partition` is a column (hive layout). duckdb is
    imported here: most builds keep the views they had and never need it (~0.1 s)."""
    import duckdb

    target = data_dir / DUCKDB_FILE
    tmp = data_dir / f"{DUCKDB_FILE}.tmp-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    con = duckdb.connect(str(tmp))
    try:
        for table in table_names:
            if any(current.glob(f"*/{table}.parquet")):
                glob = (current / "*" / f"{table}.parquet").as_posix()
                own = "partition" in TABLES[table] if table in TABLES else None
                parquet_view(con, table, [glob], own)
    finally:
        con.close()
    os.replace(tmp, target)


def _last_manifest(data_dir: Path) -> dict[str, Any]:
    try:
        return json.loads((data_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _link_partition(
    last: dict[str, Any], data_dir: Path, name: str, signature: str | None, damaged: list[str]
):
    """The last build's folder of partition `name` and its table counts, when it was
    published under the same signature and none of its files is damaged (then its
    files are linked, not written)."""
    held = (last.get("partitions") or {}).get(name) or {}
    if signature is None or held.get("signature") != signature or not last.get("path"):
        return None
    if any(f"/partition={name}/" in line for line in damaged):
        return None
    folder = data_dir / last["path"] / f"partition={name}"
    return (folder, held["tables"]) if folder.is_dir() else None


def _link_files(source: Path, target: Path) -> bool:
    target.mkdir(parents=True)
    try:
        for path in source.iterdir():
            os.link(path, target / path.name)
    except OSError:
        shutil.rmtree(target, ignore_errors=True)
        return False
    return True


def publish(
    data_dir: Path,
    partitions: Mapping[str, Mapping[str, pl.DataFrame]],
    manifest_extra: Mapping[str, Any] | None = None,
    build_id: str | None = None,
    signatures: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Write every partition, then switch the manifest and kb.duckdb to the new build.

    `signatures`: per partition, a digest of everything its tables are computed from; a
    partition the last build published under the same signature is hard-linked from it
    (its frames are not even read). Returns the manifest written. Raises pandera's
    SchemaError (nothing switched) when a table breaks its contract.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    with _publish_lock(data_dir):
        return _publish(data_dir, partitions, manifest_extra, build_id, signatures)


@contextlib.contextmanager
def _publish_lock(data_dir: Path) -> Iterator[None]:
    """One publish at a time per data dir, across processes. A run the UI's daemon
    launches and one the refresh service runs can finish together; the first one's
    `prune_builds` removed the other's `*.tmp` folder mid-write (a FAILURE run in the
    10-minute soak) and could remove the build the other was linking from."""
    with open(data_dir / "publish.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _publish(
    data_dir: Path,
    partitions: Mapping[str, Mapping[str, pl.DataFrame]],
    manifest_extra: Mapping[str, Any] | None,
    build_id: str | None,
    signatures: Mapping[str, str] | None,
) -> dict[str, Any]:
    builds = data_dir / "builds"
    builds.mkdir(exist_ok=True)
    build_id = build_id or new_build_id()
    tmp_dir = builds / f"{build_id}.tmp"
    final_dir = builds / build_id
    shutil.rmtree(tmp_dir, ignore_errors=True)
    tmp_dir.mkdir()
    written: dict[tuple[str, str], pl.DataFrame] = {}
    last, signatures = _last_manifest(data_dir), signatures or {}
    damaged = damaged_files(data_dir, last) if last else []
    current = (data_dir / last["path"]).resolve() if last.get("path") else None
    if damaged or _LastBuild.folder != current:
        # Nothing is linked from a build with a damaged file, nor from what this process
        # published elsewhere (another data dir) or before someone else published here.
        _LastBuild.frames, _LastBuild.folder = {}, None
    counts: dict[str, dict[str, int]] = {}
    try:
        for name, tables in sorted(partitions.items()):
            folder = tmp_dir / f"partition={name}"
            held = _link_partition(last, data_dir, name, signatures.get(name), damaged)
            if held is not None and _link_files(held[0], folder):
                counts[name] = dict(held[1])
            else:
                counts[name] = _write_partition(folder, tables, written)
    except BaseException:
        shutil.rmtree(tmp_dir, ignore_errors=True)
        raise
    os.replace(tmp_dir, final_dir)
    _LastBuild.frames, _LastBuild.folder = written, final_dir.resolve()
    table_names = sorted({t for c in counts.values() for t in c})
    current = _point_current(data_dir, final_dir)
    views = views_signature(current, table_names)
    if last.get("duckdb_views") != views or duckdb_damage(data_dir):
        build_duckdb(data_dir, current, table_names)
    records = last.get("files") if last.get("path") else None
    if records:  # the last build's records, as paths relative to a build folder
        records = {k: v for k, v in records.items() if isinstance(v, dict)}
    manifest = {
        "build_id": build_id,
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "path": f"builds/{build_id}",
        "partitions": {
            name: {"tables": c, **({"signature": signatures[name]} if name in signatures else {})}
            for name, c in counts.items()
        },
        "files": file_records(final_dir, records),
        "duckdb_views": views,
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
