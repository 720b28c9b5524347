"""Helpers to copy the bundled example portfolio into a temp dir and build it for real.

Imported as `from tests.support.portfolio import ...` (the repo root is on sys.path through
the editable install; tests/ is a package).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
TODAY = "2026-11-29"
IGNORE = shutil.ignore_patterns(".kb", "node_modules", "__pycache__", "*.duckdb")


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    out = subprocess.run(
        ["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True, env=env
    )
    return out.stdout.strip()


def copy_example(dest: Path, with_git: bool = True) -> Path:
    """Copy examples/ to dest (a real git repo with one commit); returns the KB root."""
    shutil.copytree(EXAMPLES, dest, ignore=IGNORE)
    if with_git:
        git(dest, "init", "-q", "-b", "main")
        git(dest, "add", "-A")
        git(dest, "commit", "-q", "-m", "example portfolio")
    return dest / "kb"


def kb_cli(
    *args: str, cwd: Path | None = None, env: dict | None = None, timeout: int = 300
) -> subprocess.CompletedProcess:
    """Run the real `kb` console script in a subprocess."""
    full_env = {**os.environ, "KB_TODAY": TODAY}
    full_env.pop("DAGSTER_HOME", None)
    full_env.update(env or {})
    kb = Path(sys.executable).with_name("kb")
    return subprocess.run(
        [str(kb), *args], capture_output=True, text=True, cwd=cwd, env=full_env, timeout=timeout
    )


def build(kb_root: Path, *extra: str) -> subprocess.CompletedProcess:
    result = kb_cli("refresh", "--kb", str(kb_root), *extra)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def built_copy(factory, name: str) -> Path:
    """A copy of the example under `factory.mktemp(name)`, built by the real `kb refresh`."""
    kb_root = copy_example(factory.mktemp(name) / "portfolio")
    build(kb_root)
    return kb_root
