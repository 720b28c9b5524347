"""Bounds on what one ad-hoc SQL answer may carry out of DuckDB.

DuckDB's `memory_limit` bounds the query, not its answer: `select repeat('x', 900000000)`
fits in 1 GB inside DuckDB and then costs gigabytes as a Python string, a JSON reply and
its parse in the parent; 50 rows of 100 MB strings never exceed the limit at any one
moment. So text cells are clipped inside DuckDB (`clip_cells`) before they are fetched,
and rows are fetched in chunks until the answer passes `MAX_ANSWER_BYTES`
(`fetch_bounded`), which refuses it in one line.
"""

from __future__ import annotations

from typing import Any

import duckdb

MAX_CELL_CHARS = 1_000_000  # a doc chunk is far smaller; a cell past this is clipped
MAX_ANSWER_BYTES = 64 * 2**20
_SCALAR = ("BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT",
           "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DATE",
           "TIME", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "INTERVAL", "UUID")  # fmt: skip


class AnswerTooLarge(Exception):
    """The rows fetched so far passed MAX_ANSWER_BYTES (the message says where)."""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def clip_cells(con: duckdb.DuckDBPyConnection, statement: str) -> str:
    """`statement` wrapped so no text, blob or nested cell leaves DuckDB longer than
    MAX_CELL_CHARS; numbers, dates and booleans pass as they are. A statement DuckDB
    cannot take as a subquery runs as written (the answer cap still holds)."""
    try:
        rel = con.sql(statement)
        names, types = rel.columns, [str(t) for t in rel.types]
    except duckdb.Error:
        return statement
    if all(t in _SCALAR or t.startswith("DECIMAL") for t in types):
        return statement
    cols = [f"c{i}" for i in range(len(names))]
    exprs = []
    for col, name, kind in zip(cols, names, types, strict=True):
        if kind in _SCALAR or kind.startswith("DECIMAL"):
            exprs.append(f"{col} AS {_quote(name)}")
            continue
        text = col if kind == "VARCHAR" else f"CAST({col} AS VARCHAR)"
        exprs.append(
            f"CASE WHEN length({text}) > {MAX_CELL_CHARS} THEN left({text}, {MAX_CELL_CHARS})"
            f" || '… (clipped at {MAX_CELL_CHARS:,} characters)' ELSE {text} END"
            f" AS {_quote(name)}"
        )
    return f"SELECT {', '.join(exprs)} FROM ({statement}) AS _kb_answer({', '.join(cols)})"


def fetch_bounded(cursor: Any, row_cap: int) -> list[tuple]:
    """Up to `row_cap + 1` rows, refused once they pass MAX_ANSWER_BYTES."""
    rows: list[tuple] = []
    size = 0
    while len(rows) <= row_cap:
        chunk = cursor.fetchmany(min(2048, row_cap + 1 - len(rows)))
        if not chunk:
            break
        for row in chunk:
            size += sum(len(v) if isinstance(v, str | bytes) else 16 for v in row)
        if size > MAX_ANSWER_BYTES:
            raise AnswerTooLarge(
                f"the answer passed {MAX_ANSWER_BYTES // 2**20} MB at row {len(rows) + len(chunk):,}"
                " — add a LIMIT, select fewer or shorter columns"
            )
        rows.extend(chunk)
    return rows
