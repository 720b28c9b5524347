"""Read the published warehouse without ever blocking a build.

Readers (MCP server, viewer, `kb sql`) open an in-memory DuckDB over the Parquet of
the build the manifest names; they never open kb.duckdb, so a running build is never
locked out. `Warehouse.refresh()` notices a republish by the manifest's mtime.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from warehouse.integrity import MANIFEST

if TYPE_CHECKING:  # imported where a connection is made: the extraction workers never do
    import duckdb

GLOBAL = "_global"


def parquet_view(
    con: duckdb.DuckDBPyConnection,
    table: str,
    paths: list[str],
    own_partition: bool | None = None,
) -> None:
    """`CREATE VIEW table` over `paths`; `partition` is the hive folder's unless the table
    has a `partition` column of its own (`builds`), which the folder name must not overwrite.
    `own_partition` says so when the caller knows the table's columns (else they are read)."""
    if own_partition is None:
        query = "SELECT name FROM parquet_schema(?)"
        own_partition = "partition" in {r[0] for r in con.execute(query, [paths[0]]).fetchall()}
    hive = "false" if own_partition else "true"
    quoted = ", ".join("'" + p.replace("'", "''") + "'" for p in paths)
    con.execute(
        f"CREATE VIEW {table} AS SELECT * FROM read_parquet([{quoted}], "
        f"hive_partitioning={hive}, union_by_name=true)"
    )


def parse_attrs(raw: Any) -> dict[str, Any]:
    """An `attrs`/`frontmatter` JSON cell as a dict ({} for empty, invalid or non-object).

    The one place `attrs` JSON is parsed: readers get rows with it parsed from
    `dict_rows` / `fetch_dicts` below and never parse it themselves."""
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw) if isinstance(raw, str) and raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def dict_rows(df: pl.DataFrame | None) -> list[dict[str, Any]]:
    """A table's rows as dicts, its `attrs` column (when it has one) parsed into dicts."""
    if df is None or df.is_empty():
        return []
    rows = df.to_dicts()
    if "attrs" in df.columns:
        for row in rows:
            row["attrs"] = parse_attrs(row["attrs"])
    return rows


def fetch_dicts(cursor: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    """A DuckDB result's rows as dicts by column name, an `attrs` column parsed."""
    names = [d[0] for d in cursor.description]
    rows = [dict(zip(names, r, strict=True)) for r in cursor.fetchall()]
    if "attrs" in names:
        for row in rows:
            row["attrs"] = parse_attrs(row["attrs"])
    return rows


class WarehouseMissing(Exception):
    """No published warehouse (never built, or the data dir is wrong)."""


class WarehouseDamaged(WarehouseMissing):
    """manifest.json is unreadable: as good as no warehouse until `kb refresh`."""


@dataclass
class Warehouse:
    data_dir: Path
    _manifest: dict[str, Any] | None = field(default=None, init=False)
    _mtime: float | None = field(default=None, init=False)

    @property
    def manifest_path(self) -> Path:
        return self.data_dir / MANIFEST

    def refresh(self) -> bool:
        """Reload the manifest if it changed; True when it did."""
        try:
            mtime = self.manifest_path.stat().st_mtime_ns
        except FileNotFoundError:
            changed = self._manifest is not None
            self._manifest, self._mtime = None, None
            return changed
        if mtime == self._mtime:
            return False
        try:
            manifest = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = None
        if not isinstance(manifest, dict) or "path" not in manifest:
            raise WarehouseDamaged(
                f"{self.manifest_path}: damaged (not the manifest kb refresh writes) — "
                "run `kb refresh` to publish again"
            )
        self._manifest, self._mtime = manifest, mtime
        return True

    def manifest(self) -> dict[str, Any]:
        self.refresh()
        if self._manifest is None:
            raise WarehouseMissing(
                f"no warehouse published at {self.data_dir} — build it with `kb refresh`"
            )
        return self._manifest

    @property
    def build_dir(self) -> Path:
        return self.data_dir / self.manifest()["path"]

    def partitions(self) -> list[str]:
        return sorted(self.manifest()["partitions"])

    def table_path(self, partition: str, table: str) -> Path | None:
        path = self.build_dir / f"partition={partition}" / f"{table}.parquet"
        return path if path.exists() else None

    def read(self, partition: str, table: str) -> pl.DataFrame:
        path = self.table_path(partition, table)
        if path is None:
            return pl.DataFrame()
        return pl.read_parquet(path)

    def connect(
        self, partitions: list[str], build_dir: Path | None = None
    ) -> duckdb.DuckDBPyConnection:
        """In-memory DuckDB with one view per table over the given partitions' Parquet, all
        of one build (`build_dir`, else the one the manifest names now: a publish may switch
        it at any moment, so a caller that reads the build again passes the one it read)."""
        import duckdb

        build = build_dir or self.build_dir
        con = duckdb.connect(":memory:")
        tables: dict[str, list[str]] = {}
        for partition in partitions:
            folder = build / f"partition={partition}"
            for path in sorted(folder.glob("*.parquet")):
                tables.setdefault(path.stem, []).append(path.as_posix())
        for table, paths in sorted(tables.items()):
            parquet_view(con, table, paths)
        return con
