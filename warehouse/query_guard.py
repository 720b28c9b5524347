"""Read-only SQL for agents and analysts: one SELECT, capped rows and time, no file access.

Two walls, because either alone has gaps:

1. a parse guard — DuckDB's own parser (`duckdb.extract_statements`) must see exactly
   one SELECT statement starting with SELECT/WITH/FROM/VALUES, and a token scan rejects
   table functions and replacement scans that read files or the environment;
2. `sandbox(con, paths)` — once the views exist, the connection may open only the
   Parquet files behind them (`allowed_paths`), every other file or network access is
   off (`enable_external_access=false`) and the configuration is locked. Views over
   Parquet need file access, so `allowed_paths` keeps exactly those files readable.

Errors are `QueryRejected("one line")`: the MCP server and `kb sql` print them as is.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from typing import Any

import duckdb

from warehouse.sql_caps import AnswerTooLarge, clip_cells, fetch_bounded

ROW_CAP = 200
TIME_CAP_S = 5.0

# Table functions and scalar functions that touch files, the network or the environment.
FORBIDDEN_FUNCTIONS = {
    "read_csv",
    "read_csv_auto",
    "read_parquet",
    "parquet_scan",
    "parquet_metadata",
    "parquet_schema",
    "parquet_file_metadata",
    "parquet_kv_metadata",
    "read_json",
    "read_json_auto",
    "read_json_objects",
    "read_json_objects_auto",
    "read_ndjson",
    "read_ndjson_auto",
    "read_ndjson_objects",
    "read_text",
    "read_blob",
    "glob",
    "sniff_csv",
    "iceberg_scan",
    "delta_scan",
    "read_xlsx",
    "st_read",
    "sqlite_scan",
    "sqlite_attach",
    "postgres_scan",
    "postgres_attach",
    "mysql_scan",
    "getenv",
    "duckdb_secrets",
    "load_extension",
    "query_table",
    "query",
    # more file readers and plan executors (a serialized plan can scan any file)
    "json_execute_serialized_sql",
    "json_deserialize_sql",
    "parquet_bloom_probe",
    "parquet_full_metadata",
    "parquet_page_index",
    "read_duckdb",
    "read_single_csv_file",
    "read_single_json_file",
    "read_single_parquet_file",
    "arrow_scan",
    "arrow_scan_dumb",
    "pandas_scan",
    "python_arrow_scan",
    "add_parquet_key",
    "which_secret",
    "enable_logging",
    "write_log",
    "enable_profile",
    "disable_optimizer",
}
_FORBIDDEN_KEYWORDS = {"copy", "attach", "detach", "install", "load", "pragma", "set", "reset"}
_FIRST_WORDS = {"select", "with", "from", "values", "("}

_STRING_OR_COMMENT = re.compile(
    r"\$(?P<tag>[A-Za-z_]\w*)?\$.*?\$(?P=tag)?\$|'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/",
    re.S,
)
_FILE_SCAN = re.compile(r"\b(from|join)\s*(\(\s*)*'", re.I)
_CALL = re.compile(r"\b([a-z_][a-z0-9_]*)\s*\(", re.I)
_WORD = re.compile(r"[a-z_][a-z0-9_]*", re.I)


class QueryRejected(Exception):
    """The statement is not allowed or failed; the message is one line."""


class MemoryCapReached(QueryRejected):
    """The query met the memory cap: the process that ran it keeps much of that memory."""


def _one_line(text: str) -> str:
    return " ".join(str(text).split())[:300]


def _blank_literals(sql: str) -> str:
    """Comments removed, string literals kept as `''` so the token scan ignores their text."""

    def repl(match: re.Match[str]) -> str:
        token = match.group(0)
        if token.startswith(("'", "$")):  # '…' and DuckDB's dollar-quoted $$…$$ / $t$…$t$
            return "''"
        if token.startswith('"'):
            return token  # quoted identifier: kept, it can name a function
        return " "

    return _STRING_OR_COMMENT.sub(repl, sql)


def check_sql(sql: str) -> str:
    """The single statement to run, or QueryRejected saying why not."""
    if not sql or not sql.strip():
        raise QueryRejected("empty SQL — pass one SELECT statement")
    if len(sql) > 20_000:
        raise QueryRejected(f"SQL is {len(sql)} characters, over the 20000 cap")
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise QueryRejected(f"SQL does not parse: {_one_line(exc)}") from None
    if len(statements) != 1:
        raise QueryRejected(f"{len(statements)} statements — pass exactly one SELECT")
    statement = statements[0]
    scan = _blank_literals(statement.query).strip()
    words = [w.lower() for w in _WORD.findall(scan)]
    first = "(" if scan.startswith("(") else (words[0] if words else "")
    if statement.type != duckdb.StatementType.SELECT or first not in _FIRST_WORDS:
        kind = str(statement.type).rsplit(".", 1)[-1]
        raise QueryRejected(f"only read-only SELECT/WITH queries are allowed (got {kind})")
    bad = sorted(set(words) & _FORBIDDEN_KEYWORDS)
    if bad:
        raise QueryRejected(f"{bad[0].upper()} is not allowed — read-only SELECT only")
    called = {m.group(1).lower() for m in _CALL.finditer(scan.replace('"', ""))}
    forbidden = sorted(called & FORBIDDEN_FUNCTIONS)
    if forbidden:
        raise QueryRejected(
            f"{forbidden[0]}() is not allowed (file, environment or dynamic SQL access) — query the tables instead"
        )
    if _FILE_SCAN.search(scan):
        raise QueryRejected("reading a file by path is not allowed — query the tables instead")
    return statement.query


def sandbox(con: duckdb.DuckDBPyConnection, allowed_paths: Iterable[str]) -> None:
    """Lock `con` down after its views exist: only `allowed_paths` stay readable."""
    paths = sorted({str(p) for p in allowed_paths})
    if paths:
        con.execute("SET allowed_paths = ?", [paths])
    con.execute("SET enable_external_access = false")
    con.execute("SET autoinstall_known_extensions = false")
    con.execute("SET autoload_known_extensions = false")
    con.execute("SET lock_configuration = true")


def _cell(value: Any) -> Any:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def run_readonly(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    row_cap: int = ROW_CAP,
    time_cap_s: float = TIME_CAP_S,
) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """Run one guarded SELECT: (columns, at most `row_cap` rows, truncated?).

    The time cap interrupts the query from a timer thread (`con.interrupt()`).
    """
    statement = check_sql(sql)
    timed_out = threading.Event()

    def stop() -> None:
        timed_out.set()
        con.interrupt()

    timer = threading.Timer(time_cap_s, stop)
    timer.daemon = True
    timer.start()
    try:
        cursor = con.execute(clip_cells(con, statement))
        columns = [d[0] for d in cursor.description or []]
        rows = fetch_bounded(cursor, row_cap)
    except AnswerTooLarge as exc:
        raise QueryRejected(str(exc)) from None
    except duckdb.OutOfMemoryException:
        raise MemoryCapReached("query needed more memory than the SQL memory cap") from None
    except duckdb.InterruptException:
        raise QueryRejected(f"query stopped after the {time_cap_s:g} s time cap") from None
    except duckdb.Error as exc:
        if timed_out.is_set():
            raise QueryRejected(f"query stopped after the {time_cap_s:g} s time cap") from None
        raise QueryRejected(_one_line(exc)) from None
    finally:
        timer.cancel()
    truncated = len(rows) > row_cap
    rows = [tuple(_cell(v) for v in row) for row in rows[:row_cap]]
    return columns, rows, truncated
