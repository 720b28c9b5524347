"""kb_sql through MCP: read-only, one statement, one partition (+ _global), capped."""

from __future__ import annotations

import time

import pytest


def test_select_over_the_project_partition(mcp):
    text, err = mcp.call(
        "kb_sql",
        sql="select kind, count(*) as n from nodes where project = 'acme-shop' group by 1 order by 1",
        project="acme-shop",
    )
    assert not err
    assert text.splitlines()[1] == "kind | n"
    assert "route | 2" in text


def test_other_projects_code_is_not_visible(mcp):
    text, err = mcp.call(
        "kb_sql",
        sql="select id from nodes where id like 'globex-portal/%' union all select expr from unresolved where project <> 'acme-shop'",
        project="acme-shop",
    )
    assert not err and text.startswith("0 rows")


def test_row_cap(mcp):
    text, err = mcp.call(
        "kb_sql", sql="select * from range(1000)", project="acme-shop", budget=20000
    )
    assert not err and text.startswith("200 rows (capped at 200)")


@pytest.mark.parametrize(
    "sql, reason",
    [
        ("COPY nodes TO '/tmp/x.csv'", "COPY"),
        ("ATTACH '/tmp/other.db' AS o", "ATTACH"),
        ("INSTALL httpfs", "LOAD"),
        ("LOAD httpfs", "LOAD"),
        ("PRAGMA database_list", "PRAGMA"),
        ("SET threads = 1", "SET"),
        ("select * from read_csv('/etc/passwd')", "read_csv()"),
        ("select * from read_csv_auto('/etc/passwd')", "read_csv_auto()"),
        ("select * from read_parquet('/tmp/*.parquet')", "read_parquet()"),
        ("select * from read_json('/etc/x.json')", "read_json()"),
        ("select * from read_text('/etc/passwd')", "read_text()"),
        ("select * from glob('/etc/*')", "glob()"),
        ("select * from '/etc/passwd'", "reading a file by path"),
        ("select getenv('HOME')", "getenv()"),
        ("select 1; select 2", "2 statements"),
        ("select 1; drop view nodes", "2 statements"),
        ("create table x as select 1", "CREATE"),
        ("delete from nodes", "DELETE"),
        ("", "empty SQL"),
        ("selec nodes", "does not parse"),
    ],
)
def test_rejected_statements_are_one_line(mcp, sql, reason):
    text, err = mcp.call("kb_sql", sql=sql, project="acme-shop")
    assert err, text
    assert "SQL rejected" in text and reason in text and "\n" not in text


def test_file_access_is_off_even_past_the_parse_guard(mcp):
    # a quoted identifier dodges nothing: the sandbox refuses the file
    text, err = mcp.call(
        "kb_sql", sql="select * from \"read_csv\"('/etc/passwd')", project="acme-shop"
    )
    assert err and "\n" not in text


def test_time_cap_interrupts_and_server_keeps_serving(mcp):
    t0 = time.monotonic()
    text, err = mcp.call(
        "kb_sql", sql="select count(*) from range(10000000000) a, range(10) b", project="acme-shop"
    )
    assert err and "5 s time cap" in text
    assert time.monotonic() - t0 < 9
    text, err = mcp.call("kb_sql", sql="select 42 as answer", project="acme-shop")
    assert not err and "42" in text


def test_sql_needs_a_known_project(mcp):
    text, err = mcp.call("kb_sql", sql="select 1", project="nope")
    assert err and "unknown project 'nope'" in text
