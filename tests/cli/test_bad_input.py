"""Bad input through the real `kb validate` and `kb refresh`: one clear line, exit 1, no trace.

Each case breaks a copy of the example portfolio that was built once for this module;
`kb refresh` must fail and leave that last good warehouse byte-for-byte untouched and
still answering `kb sql`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.checks import (
    assert_nothing_to_do,
    assert_one_line_failure,
    assert_warehouse_answers,
    output,
    restore,
    warehouse_snapshot,
)
from tests.support.portfolio import built_copy, copy_example, kb_cli

DOC = "---\nkind: doc\nproject: acme-shop\ntype: spec\ntitle: Broken\n---\n# Broken\n"


def _write(kb: Path, rel: str, data: str | bytes) -> None:
    path = kb / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def malformed_yaml(kb: Path) -> str:
    _write(kb, "projects/acme-shop/broken.md", DOC.replace("title: Broken", "title: a: b"))
    return r"^projects/acme-shop/broken\.md:5: error: malformed YAML"


def no_frontmatter(kb: Path) -> str:
    _write(kb, "projects/acme-shop/notes.md", "# Notes\n\nJust prose, no frontmatter.\n")
    return r"^projects/acme-shop/notes\.md:1: error: no YAML frontmatter"


def not_utf8(kb: Path) -> str:
    _write(kb, "projects/acme-shop/latin1.md", DOC.encode() + b"Caf\xe9 au lait\n")
    return r"^projects/acme-shop/latin1\.md:8: error: not UTF-8"


def fifty_megabytes(kb: Path) -> str:
    body = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n" * 900_000)[: 50 * 2**20]
    _write(kb, "projects/acme-shop/huge.md", DOC + body)
    return r"^projects/acme-shop/huge\.md:1: error: file is 5\d\.\d MB, over the 5 MB cap"


def unknown_vocabulary(kb: Path) -> str:
    path = kb / "projects/acme-shop/contact-api/component.md"
    line = _line_of(path, "prod: {runtime: cloud-run")
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "prod: {runtime: cloud-run", "prod: {runtime: cloudrun"
        ),
        encoding="utf-8",
    )
    return re.escape(
        f"projects/acme-shop/contact-api/component.md:{line}: error: runtime 'cloudrun' is not "
        "in vocabulary.runtime — did you mean 'cloud-run'?"
    )


def duplicate_component(kb: Path) -> str:
    original = (kb / "projects/acme-shop/web/component.md").read_text(encoding="utf-8")
    _write(kb, "projects/acme-shop/web/component-copy.md", original)
    line = _line_of(kb / "projects/acme-shop/web/component-copy.md", "id: web")
    return (
        rf"^projects/acme-shop/web/component(-copy)?\.md:{line}: error: duplicate component id "
        r"'acme-shop/web'"
    )


def symlink_loop(kb: Path) -> str:
    os.symlink("..", kb / "projects/acme-shop/web/loop")
    return r"^projects/acme-shop/web/loop:1: error: symlink loop"


def malformed_settings(kb: Path) -> str:
    """kb.yaml unreadable: its one line, not a cascade of "missing repo" for every component."""
    text = (kb / "kb.yaml").read_text(encoding="utf-8")
    (kb / "kb.yaml").write_text(text.replace("verified_max_days: 90", "verified_max_days: [90"))
    return r"^kb\.yaml:\d+: error: malformed YAML"


def file_symlink_loop(kb: Path) -> str:
    os.symlink("self.md", kb / "projects/acme-shop/self.md")
    return r"^projects/acme-shop/self\.md:1: error: broken or looping symlink"


CASES: dict[str, Callable[[Path], str]] = {
    f.__name__: f
    for f in (
        malformed_yaml,
        no_frontmatter,
        not_utf8,
        fifty_megabytes,
        unknown_vocabulary,
        duplicate_component,
        symlink_loop,
        file_symlink_loop,
        malformed_settings,
    )
}


@pytest.fixture(scope="module")
def built_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_copy(tmp_path_factory, "bad-input")


@pytest.fixture
def kb(built_kb: Path):
    restore(built_kb)
    yield built_kb
    restore(built_kb)


@pytest.fixture(scope="module")
def unbuilt_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`kb validate` needs no warehouse: a plain copy keeps these cases in the quick tier."""
    return copy_example(tmp_path_factory.mktemp("bad-validate") / "portfolio")


@pytest.fixture
def plain_kb(unbuilt_kb: Path):
    restore(unbuilt_kb)
    yield unbuilt_kb
    restore(unbuilt_kb)


@pytest.mark.parametrize("case", CASES)
def test_validate_reports_one_line(plain_kb: Path, case: str) -> None:
    pattern = CASES[case](plain_kb)
    result = kb_cli("validate", "--kb", str(plain_kb))
    assert_one_line_failure(result, pattern)
    assert re.search(r": 1 error\(s\)", result.stdout), output(result)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_refresh_fails_and_keeps_last_good_warehouse(kb: Path, case: str) -> None:
    before = warehouse_snapshot(kb)
    pattern = CASES[case](kb)
    result = kb_cli("refresh", "--kb", str(kb))
    assert_one_line_failure(result, pattern)
    assert "the last good warehouse" in result.stderr, output(result)
    assert warehouse_snapshot(kb) == before
    assert_warehouse_answers(kb)


@pytest.mark.slow
def test_kb_path_that_does_not_exist(tmp_path: Path, built_kb: Path) -> None:
    missing = tmp_path / "no-such-kb"
    for command in ("validate", "refresh", "check", "status", "sql"):
        args = [command, "--kb", str(missing)] + (["select 1"] if command == "sql" else [])
        result = kb_cli(*args)
        line = assert_one_line_failure(result, re.escape(str(missing)))
        assert "does not exist" in line, output(result)
        assert output(result).strip() == line, output(result)
    assert not missing.exists()
    assert_warehouse_answers(built_kb)


@pytest.mark.slow
def test_refresh_keeps_failing_until_the_kb_is_fixed(kb: Path) -> None:
    """A second `kb refresh` on the same broken KB must not answer "nothing stale"."""
    before = warehouse_snapshot(kb)
    pattern = unknown_vocabulary(kb)
    for _ in range(2):
        assert_one_line_failure(kb_cli("refresh", "--kb", str(kb)), pattern)
    assert warehouse_snapshot(kb) == before
    restore(kb)
    result = kb_cli("refresh", "--kb", str(kb))
    assert result.returncode == 0, output(result)
    assert_nothing_to_do(kb_cli("refresh", "--kb", str(kb)))


def test_a_folder_without_kb_yaml(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "readme.md").write_text("# not a KB\n", encoding="utf-8")
    for command in ("validate", "refresh", "check"):
        result = kb_cli(command, "--kb", str(tmp_path))
        line = assert_one_line_failure(result, r"not a KB \(no kb\.yaml\)")
        assert "kb init" in line and output(result).strip() == line
    assert not (tmp_path / ".kb").exists()
