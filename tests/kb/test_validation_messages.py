"""What a user reads from `kb validate`: each problem points at the docs section that
explains it, misplaced fields say where they go, vocabulary misses offer both fixes —
and the complete example in docs/kb-format.md validates as written.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.docs_helpers import DOCS, anchors, section
from tests.support.portfolio import EXAMPLES, kb_cli

PROBLEM = re.compile(r"^(\S+):(\d+): (error|warning): (.*) \[([a-z-]+)\]$")
COMPONENT = "projects/acme-shop/contact-api/component.md"


def _validate(kb: Path) -> tuple[int, list[str]]:
    result = kb_cli("validate", "--kb", str(kb))
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result.returncode, [ln for ln in result.stdout.splitlines() if PROBLEM.match(ln)]


def _broken_example(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES, tmp_path / "portfolio", ignore=shutil.ignore_patterns(".kb"))
    kb = tmp_path / "portfolio" / "kb"
    comp = kb / COMPONENT
    text = comp.read_text("utf-8")
    text = text.replace("role: api\n", "role: api\nruntime: dokcer\n", 1)
    text = text.replace("stack: [express, typescript]", "stack: [express, javascript]", 1)
    comp.write_text(text, "utf-8")
    (kb / "projects/acme-shop/notes.md").write_text("no frontmatter here\n", "utf-8")
    web = kb / "projects/acme-shop/web/component.md"
    web.write_text(web.read_text("utf-8").replace("access: basic-auth", "access: vpnn"), "utf-8")
    return kb


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, list[str]]:
    """`kb validate` of the example with a few typical mistakes, run once."""
    return _validate(_broken_example(tmp_path_factory.mktemp("broken")))


def test_every_problem_line_ends_with_its_section(broken: tuple[int, list[str]]) -> None:
    code, lines = broken
    assert code == 1
    documented = anchors(DOCS / "kb-format.md")
    rules = set()
    for line in lines:
        path, _, _, message, rule = PROBLEM.match(line).groups()
        assert message.endswith(f"; see docs/kb-format.md#{rule}"), line
        assert rule in documented, line
        rules.add(rule)
    # loader, validator and warning rules alike
    assert {"frontmatter", "vocabulary", "unknown-field", "adr-stale"} <= rules, lines


def test_top_level_runtime_says_it_belongs_under_envs(broken: tuple[int, list[str]]) -> None:
    _, lines = broken
    hits = [ln for ln in lines if ln.startswith(f"{COMPONENT}:7: warning: unknown field 'runtime'")]
    assert len(hits) == 1, lines
    assert "put it under envs.<env>.runtime" in hits[0]
    assert "did you mean" not in hits[0]  # not a typo of 'title'
    assert hits[0].endswith("see docs/kb-format.md#unknown-field [unknown-field]")


def test_unknown_vocabulary_value_offers_the_match_or_the_vocabulary(
    broken: tuple[int, list[str]],
) -> None:
    _, lines = broken
    stack = [ln for ln in lines if "stack 'javascript'" in ln]
    assert len(stack) == 1, lines
    assert "did you mean 'typescript'? (or add it to vocabulary.yaml under stack)" in stack[0], (
        stack
    )
    access = [ln for ln in lines if "access 'vpnn'" in ln]
    assert len(access) == 1 and access[0].startswith(
        "projects/acme-shop/web/component.md:10: error: access 'vpnn' is not in "
        "vocabulary.access — did you mean 'vpn'? (or add it to vocabulary.yaml under access)"
    ), access


def _complete_example() -> dict[str, str]:
    text = section(DOCS / "kb-format.md", "## Complete example")
    files = dict(re.findall(r"^`([\w./-]+)`:\n\n```\w*\n(.*?)^```", text, re.M | re.S))
    assert {"kb/kb.yaml", "kb/vocabulary.yaml", "kb/projects/acme-shop/project.md"} <= set(files)
    return files


def test_complete_example_in_the_docs_validates(tmp_path: Path) -> None:
    files = _complete_example()
    for rel, body in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, "utf-8")
    components = [rel for rel in files if rel.endswith("/component.md")]
    assert len(components) == 2, files
    for rel in components:
        repo = re.search(r"^repo: (\S+)$", files[rel], re.M).group(1)
        folder = tmp_path / "repos" / repo
        folder.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
    result = kb_cli("validate", "--kb", str(tmp_path / "kb"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 error(s), 0 warning(s)" in result.stdout, result.stdout


def test_kb_init_points_to_the_format_docs(tmp_path: Path) -> None:
    result = kb_cli("init", str(tmp_path / "kb"), "--project", "acme-shop")
    assert result.returncode == 0, result.stdout + result.stderr
    for rel in ("kb.yaml", "vocabulary.yaml", "projects/acme-shop/project.md"):
        text = (tmp_path / "kb" / rel).read_text("utf-8")
        assert "docs/kb-format.md" in text and "kb-graph repository" in text, rel
        assert not re.search(r"(?<!docs/)kb-format\.md", text), rel
    checked = kb_cli("validate", "--kb", str(tmp_path / "kb"))
    assert checked.returncode == 0 and "0 error(s), 0 warning(s)" in checked.stdout, checked
