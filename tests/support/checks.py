"""Shared checks for the CLI, KB, pipeline and warehouse tests: one-line failures and an untouched warehouse."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

from tests.support.portfolio import git, kb_cli


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


_CODE_CHANGED = re.compile(r"^stale: code of \S+ changed", re.MULTILINE)
_SKIP_REASON = "kb-graph's own source changed while the test ran (a shared working tree)"


_SPEC_VERSIONS = (
    "import json, warnings; warnings.filterwarnings('ignore');"
    "from pipeline.definitions import defs;"
    "print(json.dumps({s.key.to_user_string(): s.code_version"
    " for s in defs.resolve_all_asset_specs()}))"
)


def skip_if_source_changed_since_import() -> None:
    """In-process Dagster definitions carry the code versions of when they were imported.

    When other engineers edit the tree during the run, every asset is legitimately stale;
    a static tree (CI) never skips.
    """
    import pytest

    from pipeline.definitions import defs

    here = {s.key.to_user_string(): s.code_version for s in defs.resolve_all_asset_specs()}
    fresh = subprocess.run(
        [sys.executable, "-c", _SPEC_VERSIONS], capture_output=True, text=True, check=True
    )
    if json.loads(fresh.stdout.strip().splitlines()[-1]) != here:
        pytest.skip(_SKIP_REASON)


def skip_if_code_changed(result: subprocess.CompletedProcess) -> None:
    """`kb refresh` said kb-graph's code changed since the build: all is legitimately stale."""
    import pytest

    if _CODE_CHANGED.search(result.stdout):
        pytest.skip(_SKIP_REASON)


def assert_nothing_to_do(result: subprocess.CompletedProcess) -> None:
    """`kb refresh` answered "nothing to do" — unless the code itself changed meanwhile."""
    skip_if_code_changed(result)
    assert result.returncode == 0, output(result)
    assert "nothing to do" in result.stdout, output(result)
