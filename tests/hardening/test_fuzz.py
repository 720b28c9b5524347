"""Property-based fuzzing (hypothesis), bounded for the quick tier; `bench/fuzz.py` runs
the same properties longer. Frontmatter, KB file trees, kb_sql inputs, secret mixes."""

from __future__ import annotations

import pytest
from fuzz_props import (
    SqlSandbox,
    check_frontmatter,
    check_kb_tree,
    check_secret_mix,
    frontmatter_text,
    kb_tree,
    secret_mix,
    sql_text,
)
from hypothesis import HealthCheck, given, settings

QUICK = settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@QUICK
@given(frontmatter_text)
def test_any_frontmatter_parses_or_gets_one_located_line(text: str) -> None:
    check_frontmatter(text)


@settings(QUICK, max_examples=15)
@given(kb_tree())
def test_any_kb_tree_validates_without_crashing(files: dict[str, str]) -> None:
    check_kb_tree(files)


@pytest.fixture(scope="module")
def sql_sandbox(tmp_path_factory: pytest.TempPathFactory) -> SqlSandbox:
    return SqlSandbox(tmp_path_factory.mktemp("sql"))


@QUICK
@given(sql=sql_text)
def test_any_sql_is_answered_or_refused_and_reads_no_other_file(sql_sandbox, sql: str) -> None:
    sql_sandbox.check(sql)


@QUICK
@given(secret_mix)
def test_credentials_in_any_mix_are_redacted(parts: list) -> None:
    check_secret_mix(parts)
