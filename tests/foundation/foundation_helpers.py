"""Shared checks for the foundation tests: one-line failures and an untouched warehouse."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path

from portfolio import git, kb_cli


def restore(kb_root: Path) -> None:
    """Undo a test's edits to a copied portfolio (its warehouse in kb/.kb is kept)."""
    repo = kb_root.parent
    subprocess.run(["find", str(repo), "-type", "l", "-delete"], check=True)
    git(repo, "checkout", "-q", "--", ".")
    git(repo, "clean", "-fdq", "-e", ".kb")


def output(result: subprocess.CompletedProcess) -> str:
    return result.stdout + result.stderr


def assert_one_line_failure(result: subprocess.CompletedProcess, pattern: str) -> str:
    """Exit 1, no stack trace, and exactly one output line matching `pattern`."""
    text = output(result)
    assert result.returncode == 1, text
    assert "Traceback" not in text and "Stack Trace" not in text, text
    hits = [line for line in text.splitlines() if re.search(pattern, line)]
    assert len(hits) == 1, f"expected one line matching {pattern!r}:\n{text}"
    return hits[0]


def warehouse_snapshot(kb_root: Path) -> dict:
    """Manifest bytes plus every file of the build it names (size and content hash)."""
    data_dir = kb_root / ".kb"
    manifest_bytes = (data_dir / "manifest.json").read_bytes()
    build_dir = data_dir / json.loads(manifest_bytes)["path"]
    files = {
        p.relative_to(build_dir).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(build_dir.rglob("*"))
        if p.is_file()
    }
    assert files, f"build {build_dir} is empty"
    return {"manifest": manifest_bytes, "files": files}


def assert_warehouse_answers(kb_root: Path) -> None:
    result = kb_cli("sql", "--kb", str(kb_root), "--json", "select count(*) as n from nodes")
    assert result.returncode == 0, output(result)
    assert json.loads(result.stdout)[0]["n"] > 0
