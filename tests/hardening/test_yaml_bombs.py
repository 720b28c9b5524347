"""Hostile frontmatter: an alias bomb or a 20,000-deep document is refused with one
`path:line` line, in under a second and under 100 MB — never a traceback, never gigabytes."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.portfolio import copy_example, kb_cli

FM = "kind: doc\nproject: acme-shop\ntype: runbook\ntitle: Hostile\n"
PROBE = Path(__file__).with_name("yaml_probe.py")


def alias_bomb(levels: int) -> str:
    """`levels` levels of nine aliases each: 9**levels values once expanded (438 bytes at 9)."""
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


HOSTILE = {
    "alias-bomb-9": (alias_bomb(9), 13),
    "flow-mapping-20000-deep": ("x: " + "{a: " * 20000 + "1" + "}" * 20000 + "\n", 6),
    "flow-sequence-20000-deep": ("x: " + "[" * 20000 + "]" * 20000 + "\n", 6),
    "block-3000-deep": ("".join(" " * i + "a:\n" for i in range(3000)) + " " * 3000 + "1\n", 70),
    "alias-flood": ("a: &a [1]\nb: [" + ", ".join(["*a"] * 500) + "]\n", 7),
}


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_frontmatter_is_refused_fast_and_small(tmp_path: Path, name: str) -> None:
    frontmatter, line = HOSTILE[name]
    doc = tmp_path / "hostile.md"
    doc.write_text(f"---\n{FM}{frontmatter}---\nbody\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(PROBE), str(doc)],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    report = json.loads(result.stdout)
    assert report["line"] is not None, f"{name} was accepted"
    assert report["line"] <= line
    assert "\n" not in report["message"]
    assert report["seconds"] < 1.0, report
    assert report["mb"] < 100, report


def test_kb_validate_prints_one_line_per_hostile_doc(tmp_path: Path) -> None:
    kb = copy_example(tmp_path / "portfolio", with_git=False)
    docs = {
        "bomb.md": alias_bomb(6),
        "deep.md": HOSTILE["flow-mapping-20000-deep"][0],
        "deeper.md": HOSTILE["flow-sequence-20000-deep"][0],
    }
    for name, frontmatter in docs.items():
        (kb / "projects/acme-shop" / name).write_text(
            f"---\n{FM}{frontmatter}---\nbody\n", encoding="utf-8"
        )
    vocabulary = kb / "vocabulary.yaml"
    vocabulary.write_text(
        vocabulary.read_text(encoding="utf-8")
        + "\nbomb:\n"
        + "".join("  " + ln + "\n" for ln in alias_bomb(6).splitlines()),
        encoding="utf-8",
    )
    result = kb_cli("validate", "--kb", str(kb), timeout=120)
    text = result.stdout + result.stderr
    assert "Traceback" not in text and "RecursionError" not in text, text[-3000:]
    assert result.returncode == 1, text
    assert any(ln.startswith("vocabulary.yaml:") for ln in text.splitlines()), text
    for name in docs:
        hits = [ln for ln in text.splitlines() if ln.startswith(f"projects/acme-shop/{name}:")]
        assert len(hits) == 1, (name, hits)
        assert "[frontmatter]" in hits[0]
    assert len(text.splitlines()) < 40
