"""The `kb` command line: help, exit codes, and `kb init` to a green KB."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from cli.main import build_parser
from tests.support.checks import assert_one_line_failure, output
from tests.support.portfolio import kb_cli


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


SUBCOMMANDS = _subparsers()


def test_top_level_help_lists_every_subcommand() -> None:
    result = kb_cli("--help", process=True)  # the installed console script, as typed
    assert result.returncode == 0, output(result)
    for name in ("init", "validate", "refresh", "check", "status", "sql"):
        assert name in SUBCOMMANDS
    for name in SUBCOMMANDS:
        assert f"    {name}" in result.stdout, f"{name} missing from kb --help"


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_subcommand_help_lists_its_options(name: str) -> None:
    result = kb_cli(name, "--help")
    assert result.returncode == 0, output(result)
    assert result.stdout.startswith(f"usage: kb {name}"), result.stdout
    for action in SUBCOMMANDS[name]._actions:
        for option in action.option_strings:
            assert option in result.stdout, f"kb {name} --help does not list {option}"


@pytest.mark.parametrize("name", ["validate", "refresh", "check", "status", "sql"])
def test_kb_option_on_every_kb_subcommand(name: str) -> None:
    assert "--kb" in kb_cli(name, "--help").stdout


def test_init_then_validate_is_green(tmp_path: Path) -> None:
    target = tmp_path / "new-kb"
    result = kb_cli("init", str(target), "--project", "shop")
    assert result.returncode == 0, output(result)
    assert (target / "kb.yaml").is_file()
    assert (target / "vocabulary.yaml").is_file()
    assert (target / "projects/shop/project.md").is_file()
    validated = kb_cli("validate", "--kb", str(target))
    assert validated.returncode == 0, output(validated)
    assert "0 error(s)" in validated.stdout
    checked = kb_cli("check", "--kb", str(target))
    assert checked.returncode == 1  # indexes not generated yet
    assert "[index-stale]" in checked.stdout


def test_init_on_an_existing_kb_fails_in_one_line(tmp_path: Path) -> None:
    target = tmp_path / "kb"
    assert kb_cli("init", str(target)).returncode == 0
    before = (target / "kb.yaml").read_bytes()
    result = kb_cli("init", str(target))
    line = assert_one_line_failure(result, r"^kb init: ")
    assert "already has a kb.yaml" in line
    assert output(result).strip() == line
    assert (target / "kb.yaml").read_bytes() == before


def test_init_rejects_a_bad_project_id(tmp_path: Path) -> None:
    result = kb_cli("init", str(tmp_path / "kb"), "--project", "Bad Name")
    assert_one_line_failure(result, r"^kb init: project id 'Bad Name'")
    assert not (tmp_path / "kb").exists()


def test_unknown_subcommand_is_a_usage_error() -> None:
    result = kb_cli("frobnicate", process=True)  # the exit code a shell sees
    assert result.returncode == 2, output(result)
    assert "invalid choice: 'frobnicate'" in result.stderr
    assert "Traceback" not in output(result)


def test_missing_argument_is_a_usage_error() -> None:
    result = kb_cli("sql")
    assert result.returncode == 2, output(result)
    assert "usage: kb sql" in result.stderr


def test_no_subcommand_is_a_usage_error() -> None:
    result = kb_cli()
    assert result.returncode == 2, output(result)
    assert "usage: kb" in result.stderr


def test_sql_and_status_before_any_build(tmp_path: Path) -> None:
    target = tmp_path / "kb"
    assert kb_cli("init", str(target)).returncode == 0
    result = kb_cli("sql", "--kb", str(target), "select 1")
    line = assert_one_line_failure(result, r"^kb sql: ")
    assert "kb refresh" in line and output(result).strip() == line
    status = kb_cli("status", "--kb", str(target))
    assert status.returncode == 0, output(status)
    assert "run `kb refresh`" in status.stdout
