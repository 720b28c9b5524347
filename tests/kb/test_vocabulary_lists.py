"""A misspelt list name in vocabulary.yaml (`stak:` for `stack:`) is reported where it is
written, with the name it was meant to be — instead of turning the `stack` check off."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.support.portfolio import EXAMPLES, kb_cli

COMPONENT = "projects/acme-shop/contact-api/component.md"


def _example(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES, tmp_path / "portfolio", ignore=shutil.ignore_patterns(".kb"))
    kb = tmp_path / "portfolio" / "kb"
    comp = kb / COMPONENT
    text = comp.read_text("utf-8").replace("stack: [express, typescript]", "stack: [expresss]")
    comp.write_text(text, "utf-8")
    return kb


def _rename_list(kb: Path, old: str, new: str) -> int:
    path = kb / "vocabulary.yaml"
    lines = path.read_text("utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith(f"{old}:"))
    lines[at] = new + lines[at][len(old) :]
    path.write_text("".join(lines), "utf-8")
    return at + 1


def test_a_misspelt_list_name_is_an_error_that_names_the_list_it_was_meant_to_be(
    tmp_path: Path,
) -> None:
    kb = _example(tmp_path)
    line = _rename_list(kb, "stack", "stak")
    result = kb_cli("validate", "--kb", str(kb))
    assert result.returncode == 1
    problem = next(x for x in result.stdout.splitlines() if "[vocabulary-list]" in x)
    assert problem.startswith(f"vocabulary.yaml:{line}: error: ")
    assert "'stak'" in problem and "did you mean 'stack'?" in problem
    assert "no `stack` value is checked" in problem
    assert "expresss" not in result.stdout  # the list it was meant to be checks nothing yet

    _rename_list(kb, "stak", "stack")  # the fix the line gives
    fixed = kb_cli("validate", "--kb", str(kb))
    assert "[vocabulary-list]" not in fixed.stdout
    assert re.search(
        r"stack 'expresss' is not in vocabulary\.stack — did you mean 'express'", fixed.stdout
    )


def test_every_list_of_the_default_vocabulary_is_read_by_a_field(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    assert kb_cli("init", str(kb)).returncode == 0
    result = kb_cli("validate", "--kb", str(kb))
    assert result.returncode == 0 and "[vocabulary-list]" not in result.stdout, result.stdout
