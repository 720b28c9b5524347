"""Table contracts of the warehouse: columns, dtypes and pandera checks.

Column names are part of the public contract (spec/mcp-tools.md "Tables"). A new table
is one entry in TABLES. `frame(table, rows)` turns dicts or dataclasses into a typed
polars DataFrame; `validate(table, df)` runs the pandera schema on write.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
from collections.abc import Iterable
from typing import Any

import polars as pl


def _without_hypothesis() -> None:
    """pandera's checks import hypothesis when it is installed (a test dependency), for data
    synthesis kb-graph never asks of them: ~0.25 s of every build in a developer's checkout.
    The module that does so is imported here with that import refused, as if it were not
    installed; hypothesis itself stays importable afterwards."""
    if "hypothesis" in sys.modules:
        return
    sys.modules["hypothesis"] = None  # type: ignore[assignment]
    try:
        import pandera.strategies.base_strategies  # noqa: F401
    finally:
        del sys.modules["hypothesis"]


S, N = pl.Utf8, pl.Int64

_CATALOG = {"project": S, "component": S, "name": S, "file": S, "line": N, "attrs": S}

TABLES: dict[str, dict[str, pl.DataType]] = {
    "nodes": {
        "id": S,
        "project": S,
        "component": S,
        "kind": S,
        "name": S,
        "file": S,
        "line": N,
        "end_line": N,
        "attrs": S,
    },
    "edges": {
        "src": S,
        "dst": S,
        "type": S,
        "project": S,
        "component": S,
        "file": S,
        "line": N,
        "attrs": S,
    },
    "unresolved": {
        "project": S,
        "component": S,
        "file": S,
        "line": N,
        "kind": S,
        "expr": S,
        "reason": S,
    },
    "docs": {
        "path": S,
        "project": S,
        "component": S,
        "kind": S,
        "type": S,
        "title": S,
        "verification_status": S,
        "verified_against": S,
        "verified_at": S,
        "frontmatter": S,
    },
    "adrs": {"id": S, "project": S, "status": S, "date": S, "summary": S, "path": S},
    "catalog_packages": {
        "project": S,
        "component": S,
        "ecosystem": S,
        "package": S,
        "version": S,
        "declared": S,
        "file": S,
        "line": N,
        "name": S,
        "attrs": S,
    },
    "catalog_middleware": dict(_CATALOG),
    "catalog_hosts": dict(_CATALOG),
    "catalog_tf_types": dict(_CATALOG),
    "catalog_env_vars": dict(_CATALOG),
    # every project's routes (name, method, path, declaring line): kb_find kind=route across
    # projects, and the cross-project negative, without opening a project's partition
    "catalog_routes": {**_CATALOG, "method": S, "path": S},
    # What each component declares (web frameworks, HTTP clients) against what extraction
    # found (extractors/coverage.py): a declared framework with no route is a `warning`.
    "coverage": {
        "project": S,
        "component": S,
        "kind": S,
        "ecosystem": S,
        "package": S,
        "model": S,
        "routes": N,
        "calls": N,
        "unresolved": N,
        "low_confidence": N,
        "status": S,
        "warning": S,
        "file": S,
        "line": N,
    },
    "problems": {"severity": S, "path": S, "line": N, "rule": S, "message": S},
    # Doc context broker (doc_context/): one row per Markdown chunk.
    "doc_chunks": {
        "project": S,
        "component": S,
        "bucket": S,
        "path": S,
        "heading_path": S,
        "start_line": N,
        "end_line": N,
        "tokens": N,
        "content_hash": S,
        "text": S,
        "title": S,
        "doc_type": S,
        "verification_status": S,
        "seq": N,
        "mirrors": S,
    },
    "doc_edges": {"project": S, "component": S, "src": S, "dst": S, "type": S, "reason": S},
    # Verification report (verification/report.py): one row per coverage cell or finding.
    "verification": {
        "section": S,
        "project": S,
        "component": S,
        "path": S,
        "line": N,
        "rule": S,
        "subject": S,
        "location": S,
        "message": S,
        "verified": N,
        "total": N,
        "as_of": S,
    },
    "builds": {
        "partition": S,
        "version": S,
        "built_at": S,
        "code_version": S,
        "nodes": N,
        "edges": N,
        "unresolved": N,
        "problems": N,
    },
}

# Columns that must never be null, per table.
_REQUIRED: dict[str, set[str]] = {
    "nodes": {"id", "kind", "name"},
    "edges": {"src", "dst", "type"},
    "unresolved": {"project", "component", "kind", "reason"},
    "docs": {"path", "kind"},
    "adrs": {"id", "project", "status", "path"},
    "problems": {"severity", "path", "rule", "message"},
    "builds": {"partition", "built_at"},
    "coverage": {"project", "component", "package", "status"},
}
_UNIQUE: dict[str, list[str]] = {"nodes": ["id"], "docs": ["path"]}


@functools.cache
def _schemas() -> dict[str, Any]:
    """The pandera schema of each table, made on the first validation: the extraction
    workers only build frames and never import pandera (~0.1 s of each one's start)."""
    _without_hypothesis()
    import pandera.polars as pa

    schemas = {}
    for table, dtypes in TABLES.items():
        required = _REQUIRED.get(table, {"name"} if table.startswith("catalog_") else set())
        columns = {}
        for col, dtype in dtypes.items():
            checks = [pa.Check.ge(1)] if col in {"line", "end_line"} else []
            columns[col] = pa.Column(dtype, nullable=col not in required, checks=checks)
        schemas[table] = pa.DataFrameSchema(columns, unique=_UNIQUE.get(table), strict=False)
    return schemas


def _as_dict(row: Any) -> dict[str, Any]:
    """Shallow view of a row: fact dataclasses are read, never copied (asdict deep-copies)."""
    if isinstance(row, dict):
        return row
    if dataclasses.is_dataclass(row):
        return vars(row) if hasattr(row, "__dict__") else dataclasses.asdict(row)
    return dict(row)


# json.dumps(value, sort_keys=True, default=str), without a new encoder per call
_JSON = json.JSONEncoder(sort_keys=True, default=str)


def _text(value: Any) -> Any:
    return value if value is None or isinstance(value, str) else _JSON.encode(value)


def frame(table: str, rows: Iterable[Any]) -> pl.DataFrame:
    """Typed DataFrame for `table`; missing columns become null, extra keys are dropped.

    Dict-valued cells (attrs, frontmatter) are stored as sorted-key JSON text.
    """
    columns = TABLES[table]
    records = [_as_dict(row) for row in rows]
    data: dict[str, list[Any]] = {}
    for col, dtype in columns.items():  # column by column: a big component has ~1M cells
        values = [record.get(col) for record in records]
        data[col] = [_text(v) for v in values] if dtype == S else values
    return pl.DataFrame(data, schema=columns)


def validate(table: str, df: pl.DataFrame) -> pl.DataFrame:
    """Check `df` against the table's pandera schema (data and schema, not lazily).

    An empty frame with exactly the table's dtypes has no value to check: it passes
    without pandera's ~15 ms of per-column bookkeeping (most tables of a small build)."""
    if df.is_empty() and all(df.schema.get(c) == t for c, t in TABLES[table].items()):
        return df
    return _schemas()[table].validate(df)


def concat(table: str | None, frames: Iterable[pl.DataFrame | None]) -> pl.DataFrame:
    """Stack frames of one table; a contract table gets exactly its columns and dtypes."""
    parts = [f for f in frames if f is not None and f.width]
    if table not in TABLES:
        return pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()
    columns = TABLES[table]
    contract = list(columns.items())
    typed = [
        f  # most frames were made by `frame` for this table: nothing to recast
        if list(f.schema.items()) == contract
        else f.select(
            [
                pl.col(c).cast(t) if c in f.columns else pl.lit(None, t).alias(c)
                for c, t in columns.items()
            ]
        )
        for f in parts
    ]
    return pl.concat(typed, how="vertical") if typed else frame(table, [])
