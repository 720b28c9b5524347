"""Repo paths stay inside repos_root, and a repo's symlinks never pull outside files in:
`repo: ../../etc` is refused with one line, and nothing behind it reaches the warehouse."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from leaks import files_containing

from tests.support.portfolio import copy_example, git, kb_cli

COMPONENT = "projects/acme-shop/contact-api/component.md"
MARKERS = ["OUTSIDE_MARKER_ENV", "outsideMarkerRoute", "outside-marker-package"]


def _set_repo(kb: Path, repo: str) -> None:
    path = kb / COMPONENT
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("repo: acme-shop/contact-api", f"repo: {repo}"), "utf-8")


def _outside(tmp_path: Path) -> Path:
    """A folder outside repos_root that looks like code with distinctive names."""
    out = tmp_path / "outside"
    (out / "src").mkdir(parents=True)
    (out / "src" / "index.ts").write_text(
        "import express from 'express';\nconst app = express();\n"
        "const v = process.env.OUTSIDE_MARKER_ENV;\n"
        "app.get('/outsideMarkerRoute', (req, res) => res.send(v));\n",
        encoding="utf-8",
    )
    (out / ".env").write_text("OUTSIDE_MARKER_ENV=1\n", encoding="utf-8")
    (out / "package.json").write_text(
        '{"name": "x", "dependencies": {"outside-marker-package": "1.0.0"}}', encoding="utf-8"
    )
    return out


@pytest.mark.parametrize("repo", ["../../../../../../../../etc", "/etc", "acme-shop/../../.."])
def test_validate_refuses_a_repo_outside_repos_root(tmp_path: Path, repo: str) -> None:
    kb = copy_example(tmp_path / "portfolio", with_git=False)
    _set_repo(kb, repo)
    result = kb_cli("validate", "--kb", str(kb))
    text = result.stdout + result.stderr
    assert result.returncode == 1, text
    hits = [ln for ln in text.splitlines() if ln.startswith(f"{COMPONENT}:")]
    assert len(hits) == 1 and "[repo-outside]" in hits[0] and ":7: error:" in hits[0], hits


@pytest.mark.slow
def test_refresh_stores_nothing_from_outside_the_repos(tmp_path: Path) -> None:
    kb = copy_example(tmp_path / "portfolio")
    outside = _outside(tmp_path)
    repos = kb.parent / "repos"
    # a second component pointing outside via `..`, and symlinks inside a real repo
    web = kb / "projects/acme-shop/web/component.md"
    web.write_text(
        web.read_text("utf-8").replace("repo: acme-shop/web", "repo: ../../outside"), "utf-8"
    )
    contact = repos / "acme-shop/contact-api"
    os.symlink(outside / "src" / "index.ts", contact / "src" / "outside.ts")
    os.symlink(outside / ".env", contact / ".env")
    os.symlink(outside / "package.json", contact / "src" / "package.json")
    os.symlink(outside, contact / "linked-dir")
    git(kb.parent, "add", "-A")
    git(kb.parent, "commit", "-q", "-m", "hostile links")
    refused = kb_cli("refresh", "--kb", str(kb), timeout=900)
    text = refused.stdout + refused.stderr
    assert refused.returncode == 1 and "Traceback" not in text, text[-3000:]
    assert "projects/acme-shop/web/component.md:7: error:" in text and "[repo-outside]" in text
    assert files_containing(kb / ".kb", MARKERS) == {}
    web.write_text(
        web.read_text("utf-8").replace("repo: ../../outside", "repo: acme-shop/web"), "utf-8"
    )
    built = kb_cli("refresh", "--kb", str(kb), timeout=900)
    text = built.stdout + built.stderr
    assert built.returncode == 0 and "Traceback" not in text, text[-3000:]
    leaked = files_containing(kb / ".kb", MARKERS)
    assert leaked == {}, leaked
    sql = kb_cli(
        "sql",
        "--kb",
        str(kb),
        "select count(distinct path) as n from problems where rule = 'symlink-outside-repo'",
    )
    assert sql.returncode == 0, sql.stdout + sql.stderr
    # the three files and the linked folder (never entered, and named too)
    assert "4" in sql.stdout.split(), sql.stdout
