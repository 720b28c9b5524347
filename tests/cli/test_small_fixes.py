"""Issue 16 item 9: the small dead ends a newcomer hit in the first hour."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.checks import output
from tests.support.portfolio import REPO, kb_cli


def test_readme_states_the_kb_context_default_the_code_uses() -> None:
    """Per the MCP spec every tool's `budget` defaults to kb.yaml's 2,000 but `kb_context`
    has its own `max_tokens` (8,000): the README says both, as the code does."""
    from doc_context.search import search_context

    default = inspect.signature(search_context).parameters["max_tokens"].default
    help_text = kb_cli("context", "--help").stdout
    assert f"default {default}" in help_text
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    sentence = re.search(r"Every tool answer fits.*?by one rule", readme).group(0)
    assert "2,000" in sentence and "kb_context" in sentence and f"{default:,}" in sentence


def test_sql_describe_summarize_show_tables_are_read_only_and_work(built_example: Path) -> None:
    kb = str(built_example)
    described = kb_cli("sql", "--kb", kb, "describe nodes")
    assert described.returncode == 0, output(described)
    assert "column_name" in described.stdout and "kind" in described.stdout
    summary = kb_cli("sql", "--kb", kb, "SUMMARIZE edges;")
    assert summary.returncode == 0 and "approx_unique" in summary.stdout, output(summary)
    tables = kb_cli("sql", "--kb", kb, "show tables")
    assert tables.returncode == 0 and "nodes" in tables.stdout and "edges" in tables.stdout
    # still read-only: what DESCRIBE wraps is checked like any other query
    sneaky = kb_cli("sql", "--kb", kb, "describe select * from read_csv('/etc/passwd')")
    assert sneaky.returncode == 1 and "not allowed" in sneaky.stderr, output(sneaky)


def test_status_into_a_closed_pipe_exits_quietly(built_example: Path) -> None:
    """`kb status | head`: the reader goes away; no BrokenPipeError traceback."""
    kb = Path(sys.executable).with_name("kb")
    proc = subprocess.Popen(
        [str(kb), "status", "--kb", str(built_example)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    proc.stdout.close()  # like `head` exiting before kb writes
    _, err = proc.communicate(timeout=300)
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    assert proc.returncode == 0


def test_init_makes_a_git_repo_so_hook_install_hooks_the_kb(tmp_path: Path) -> None:
    kb = tmp_path / "team-kb"
    made = kb_cli("init", str(kb), "--project", "shop")
    assert made.returncode == 0, output(made)
    assert (kb / ".git").is_dir() and "git: initialised" in made.stdout
    hooked = kb_cli("hook", "install", cwd=kb, env={"KB_ROOT": ""})
    assert hooked.returncode == 0, output(hooked)
    assert (kb / ".git" / "hooks" / "post-commit").is_file()
    assert f"installed: {kb.resolve() / '.git' / 'hooks' / 'post-commit'}" in hooked.stdout


def test_hook_install_says_why_it_skips_a_kb_that_is_no_repo(tmp_path: Path) -> None:
    kb = tmp_path / "inner"
    made = kb_cli("init", str(kb))
    assert made.returncode == 0
    subprocess.run(["rm", "-rf", str(kb / ".git")], check=True)
    result = kb_cli("hook", "install", "--kb", str(kb))
    assert result.returncode == 1  # nothing to hook at all: one line says so
    assert "skipped" in result.stdout and "not a git repository" in result.stdout


def test_status_before_the_first_build_says_never_built(tmp_path: Path) -> None:
    kb = tmp_path / "team-kb"
    assert kb_cli("init", str(kb), "--project", "shop").returncode == 0
    comp = kb / "projects" / "shop" / "api"
    comp.mkdir(parents=True)
    (comp / "component.md").write_text(
        "---\nid: api\ntitle: API\nrepo: ../../../../code/api\n---\nThe API.\n", encoding="utf-8"
    )
    result = kb_cli("status", "--kb", str(kb))
    assert "never built" in result.stdout, output(result)
    assert "current (never)" not in result.stdout


@pytest.mark.slow  # a whole Dagster run (~10 CPU-s)
def test_a_blocked_first_build_does_not_claim_a_last_good_warehouse(tmp_path: Path) -> None:
    kb = tmp_path / "team-kb"
    assert kb_cli("init", str(kb), "--project", "shop").returncode == 0
    (kb / "projects" / "shop" / "notes.md").write_text("# Notes\n\nno frontmatter\n")
    result = kb_cli("refresh", "--kb", str(kb))
    assert result.returncode == 1, output(result)
    assert "last good warehouse" not in result.stderr
    assert "nothing is published" in result.stderr and "Traceback" not in output(result)
