"""DuckDB's read-only inspection statements as the one SELECT the query guard accepts.

`DESCRIBE nodes`, `SUMMARIZE edges`, `SHOW TABLES` (and `DESC`, `SHOW <table>`,
`DESCRIBE SELECT …`) are what DuckDB users type first; each is also a subquery DuckDB
can select from, so `SELECT * FROM (<statement>)` answers the same and still passes the
guard's every check (the inner text is scanned like any other query).
"""

from __future__ import annotations

import re

_INSPECTION = re.compile(r"^\s*(describe|desc|summarize|show)\b", re.I)


def as_select(sql: str) -> str:
    """`sql` itself, or an inspection statement wrapped as `SELECT * FROM (…)`."""
    if not _INSPECTION.match(sql or ""):
        return sql
    body = sql.strip().rstrip(";").strip()
    return f"SELECT * FROM ({body})"
