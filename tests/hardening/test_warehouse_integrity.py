"""A truncated or deleted warehouse file is named by `kb status`, answered in one line
by `kb sql`, and rebuilt by `kb refresh` (which no longer says "nothing to do")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.portfolio import kb_cli


def _count(kb: Path, sql: str) -> str:
    result = kb_cli("sql", "--kb", str(kb), "--json", sql)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)[0]["n"]


@pytest.mark.slow
def test_damaged_and_missing_files_are_named_and_rebuilt(built_example: Path, tmp_path: Path):
    portfolio = tmp_path / "portfolio"
    shutil.copytree(built_example.parent, portfolio, symlinks=True)
    kb = portfolio / "kb"
    data = kb / ".kb"
    before = _count(kb, "select count(*) as n from nodes")
    build = data / json.loads((data / "manifest.json").read_text())["path"]
    truncated = build / "partition=acme-shop" / "nodes.parquet"
    truncated.write_bytes(truncated.read_bytes()[: truncated.stat().st_size // 2])
    missing = build / "partition=_global" / "edges.parquet"
    missing.unlink()

    status = kb_cli("status", "--kb", str(kb))
    text = status.stdout + status.stderr
    assert "partition=acme-shop/nodes.parquet: damaged" in text, text
    assert "partition=_global/edges.parquet: missing" in text, text
    assert "up to date" not in text

    sql = kb_cli("sql", "--kb", str(kb), "select count(*) from nodes")
    out = sql.stdout + sql.stderr
    assert sql.returncode == 1 and "Traceback" not in out and len(out.strip().splitlines()) == 1

    refreshed = kb_cli("refresh", "--kb", str(kb), timeout=900)
    out = refreshed.stdout + refreshed.stderr
    assert refreshed.returncode == 0 and "nothing to do" not in out, out[-2000:]
    status = kb_cli("status", "--kb", str(kb))
    assert ".parquet: damaged" not in status.stdout and ".parquet: missing" not in status.stdout
    assert _count(kb, "select count(*) as n from nodes") == before
