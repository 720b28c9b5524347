"""A component whose checkout is missing: a warning in validate, `missing` in status,
skipped by the build with its last facts kept (or none, never extracted) — the rest of
the KB builds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.checks import output
from tests.support.portfolio import build, kb_cli

WEB = "acme-shop/web"


def _count(kb: Path, where: str) -> int:
    result = kb_cli(
        "sql", "--kb", str(kb), f"select count(*) as n from nodes where {where}", "--json"
    )
    assert result.returncode == 0, output(result)
    return int(json.loads(result.stdout)[0]["n"])


def _web_nodes(kb: Path) -> int:
    return _count(kb, "project = 'acme-shop' and component = 'web'")


@pytest.mark.slow
def test_a_checkout_gone_after_a_build_keeps_its_facts(example_kb: Path) -> None:
    build(example_kb)
    before = _web_nodes(example_kb)
    assert before > 0
    repo = example_kb.parent / "repos" / "acme-shop" / "web"
    shutil.move(repo, example_kb.parent / "web-elsewhere")
    validated = kb_cli("validate", "--kb", str(example_kb))
    assert validated.returncode == 0, output(validated)
    line = next(x for x in validated.stdout.splitlines() if "does not exist" in x)
    assert ": warning:" in line and "web" in line
    refreshed = kb_cli("refresh", "--kb", str(example_kb))
    assert refreshed.returncode == 0, output(refreshed)
    said = f"warning: {WEB}: no checkout at {repo} — not extracted, its facts from "
    assert said in refreshed.stdout, output(refreshed)  # the refresh says it, not only status
    assert _web_nodes(example_kb) == before  # last facts kept
    status = kb_cli("status", "--kb", str(example_kb))
    assert f"  {WEB}: missing" in status.stdout and "kept" in status.stdout, status.stdout
    again = kb_cli("refresh", "--kb", str(example_kb))
    assert "nothing to do" in again.stdout, output(again)  # not stale on every run
    assert said in again.stdout  # and still said while it is missing


@pytest.mark.slow
def test_a_checkout_missing_from_the_start_does_not_block_the_rest(example_kb: Path) -> None:
    shutil.rmtree(example_kb.parent / "repos" / "acme-shop" / "web")
    refreshed = kb_cli("refresh", "--kb", str(example_kb))
    assert refreshed.returncode == 0, output(refreshed)
    assert "build stopped" not in output(refreshed)
    assert _web_nodes(example_kb) == 0
    assert _count(example_kb, "kind = 'route' and component = 'contact-api'") > 0
    status = kb_cli("status", "--kb", str(example_kb))
    assert f"  {WEB}: missing" in status.stdout and "never extracted" in status.stdout
