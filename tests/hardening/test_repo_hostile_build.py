"""A refresh over repos holding what real checkouts sometimes hold: a `docs/` folder and a
Markdown file linked from outside the repo (a sibling project's repo, a home folder), a
FIFO named `README.md`, file names that are not UTF-8, a `package.json` that is a list or
whose `dependencies` is text, and a 1.1 GB untracked file. Each is one warning in
`problems`, the rest of every repo is extracted, nothing from outside a repo enters its
doc index or another project's answers, and memory stays far below the big file."""

from __future__ import annotations

import os
import resource
from pathlib import Path

import pytest
from mcp_fixtures import StdioClient

from tests.support.portfolio import copy_example, git, kb_cli


def _hostile(tmp_path: Path) -> Path:
    kb = copy_example(tmp_path / "portfolio")
    repos = kb.parent / "repos"
    web, cms = repos / "acme-shop/web", repos / "acme-shop/cms"
    sibling = repos / "globex-portal/api/docs"
    sibling.mkdir(exist_ok=True)
    (sibling / "rollout.md").write_text("# Rollout\n\nSIBLINGMARKER zeppelin plan.\n")
    (tmp_path / "home.md").write_text("# Notes\n\nHOMEMARKER private notes.\n")
    os.symlink(sibling, web / "docs")
    os.symlink(tmp_path / "home.md", web / "NOTES.md")
    (cms / "package.json").write_text("[1, 2]\n")
    (repos / "acme-shop/infra/package.json").write_text('{"dependencies": "express"}\n')
    for name in (b"bad\xffname.ts", b"READ\xffME.md"):
        with open(bytes(cms) + b"/" + name, "w") as fh:
            fh.write("export const BADNAMEMARKER = 1;\n")
    git(kb.parent, "add", "-A")
    git(kb.parent, "commit", "-q", "-m", "hostile repos")
    contact = repos / "acme-shop/contact-api"
    (contact / "README.md").unlink()
    git(kb.parent, "commit", "-qam", "no readme")
    os.mkfifo(contact / "README.md")  # untracked: git cannot index a FIFO
    with open(repos / "globex-portal/web/dump.bin", "wb") as fh:
        fh.truncate(1_100_000_000)  # sparse: no disk, 1.1 GB to whoever reads it
    return kb


def _sql(kb: Path, query: str) -> str:
    done = kb_cli("sql", "--kb", str(kb), query)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow
def test_hostile_repo_entries_are_warnings_and_the_rest_is_built(tmp_path: Path) -> None:
    kb = _hostile(tmp_path)
    built = kb_cli("refresh", "--kb", str(kb), timeout=900)
    out = built.stdout + built.stderr
    assert built.returncode == 0 and "Traceback" not in out, out[-3000:]
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    assert peak_mb < 800, f"peak {peak_mb} MB with a 1.1 GB untracked file"
    problems = _sql(kb, "select path, rule, message from problems where rule <> 'adr-stale'")
    expected = [
        ("acme-shop/web/docs", "symlink-outside-repo"),
        ("acme-shop/web/NOTES.md", "symlink-outside-repo"),
        ("acme-shop/contact-api/README.md", "special-file"),
        ("acme-shop/cms/bad\ufffdname.ts", "file-name"),
        ("acme-shop/cms/READ\ufffdME.md", "file-name"),
        ("acme-shop/cms/package.json", "manifest"),
        ("acme-shop/infra/package.json", "manifest"),
    ]
    rows = [ln for ln in problems.splitlines()]
    for path, rule in expected:
        assert any(path in r and rule in r for r in rows), (path, rule, problems)
    routes = _sql(kb, "select count(*) as n from nodes where kind = 'route'")
    assert int(routes.split()[2]) > 0
    leaked = _sql(
        kb,
        "select project, path from doc_chunks where project = 'acme-shop' and (text like "
        "'%SIBLINGMARKER%' or text like '%HOMEMARKER%' or text like '%BADNAMEMARKER%')",
    )
    assert "(0 rows)" in leaked, leaked
    client = StdioClient(kb, kb / ".kb")
    try:
        context = client.call("kb_context", task="zeppelin rollout plan notes", project="acme-shop")
        sql = client.call(
            "kb_sql",
            sql="select text from doc_chunks where text like '%MARKER%'",
            project="acme-shop",
        )
    finally:
        client.close()
    for answer in (context[0], sql[0]):
        assert "SIBLINGMARKER" not in answer and "HOMEMARKER" not in answer, answer[:2000]
