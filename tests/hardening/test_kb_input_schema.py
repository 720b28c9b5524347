"""Hostile KB input is checked by one schema (kb/schema.py: document fields, kb.yaml
settings, the vocabulary's shape) and the bounded YAML reader: each case gets one line
`file:line: error: … — fix` from `kb validate` — no traceback, nothing taken silently —
and a `kb refresh` of a broken KB publishes nothing and leaves the last good warehouse
answering."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.support.portfolio import copy_example, kb_cli

C = "projects/acme-shop/contact-api/component.md"
A = "projects/acme-shop/adr/0001-express-for-contact-api.md"
P = "projects/acme-shop/project.md"
LIST = "role: [frontend, api, infra, cms, functions, worker, library]"
STALE = "stale:\n  adr_proposed_days: 30\n  verified_max_days: 90"

# name: (file, text written, its replacement, line of the error, words the line holds)
CASES = {
    "alias-to-its-own-list": (P, "tags: [ecommerce, japan]", "tags: &a [*a]", 5, "own anchor"),
    "alias-to-its-own-map": (P, "tags: [ecommerce, japan]", "tags: &a {b: *a}", 5, "own anchor"),
    "alias-in-kb-yaml": ("kb.yaml", "token_budget: 2000", "token_budget: &t [*t]", 3, "anchor"),
    "month-13": (C, "verified_at: 2026-09-20", "verified_at: 2026-13-45", 35, "not a real date"),
    "february-30": (A, "date: 2026-01-12", "date: 2026-02-30", 5, "not a real date"),
    "date-as-integer": (C, "verified_at: 2026-09-20", "verified_at: 20260101", 35, "YYYY-MM-DD"),
    "budget-as-text": ("kb.yaml", "token_budget: 2000", "token_budget: lots", 3, "whole number"),
    "budget-as-list": ("kb.yaml", "token_budget: 2000", "token_budget: [1]", 3, "whole number"),
    "budget-fraction": ("kb.yaml", "token_budget: 2000", "token_budget: 1.5", 3, "whole number"),
    "budget-negative": ("kb.yaml", "token_budget: 2000", "token_budget: -5", 3, "150 to 50000"),
    "stale-days-text": ("kb.yaml", "adr_proposed_days: 30", "adr_proposed_days: x", 5, "whole"),
    "stale-as-text": ("kb.yaml", STALE, "stale: soon", 4, "mapping"),
    "repos-root-list": ("kb.yaml", "repos_root: ../repos", "repos_root: [a]", 2, "text"),
    "tag-that-is-a-list": (P, "tags: [ecommerce, japan]", "tags: [[a]]", 5, "plain value"),
    "secret-as-bare-name": (
        C,
        "secrets:\n  - name: zendesk-api-token",
        "secrets: [zendesk]\nold_secrets:\n  - name: zendesk-api-token",
        13,
        "mapping",
    ),
    "project-id-_kb": (P, "id: acme-shop", "id: _kb", 3, "lowercase letters"),
    "key-twice-in-frontmatter": (P, "title: ACME Shop", "title: ACME Shop\ntitle: B", 5, "twice"),
    "key-twice-in-kb-yaml": (
        "kb.yaml",
        "token_budget: 2000",
        "token_budget: 1\ntoken_budget: 2",
        4,
        "twice",
    ),
    "vocabulary-as-text": ("vocabulary.yaml", LIST, "role: frontend", 1, "list of allowed"),
    "vocabulary-as-mapping": ("vocabulary.yaml", LIST, "role: {frontend: 1}", 1, "list of allowed"),
}
LINE = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+): error: (?P<msg>.*)$")


def _break(kb: Path, name: str) -> None:
    rel, old, new, _, _ = CASES[name]
    path = kb / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, (name, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_is_one_located_line_with_its_fix(tmp_path: Path, name: str) -> None:
    kb = copy_example(tmp_path / "portfolio", with_git=False)
    _break(kb, name)
    result = kb_cli("validate", "--kb", str(kb), "--errors-only")
    text = result.stdout + result.stderr
    assert result.returncode == 1, f"{name} was accepted:\n{text}"
    assert "Traceback" not in text and "Error:" not in text, text[-2000:]
    rel, _, _, line, words = CASES[name]
    hits = [m for ln in text.splitlines() if (m := LINE.match(ln)) and m["file"] == rel]
    assert hits, text
    assert int(hits[0]["line"]) == line, hits[0].string
    assert words in hits[0]["msg"] and " — " in hits[0]["msg"], hits[0].string


@pytest.mark.slow
def test_refresh_of_a_broken_kb_publishes_nothing_and_keeps_the_last_build(
    built_example: Path, tmp_path: Path
) -> None:
    portfolio = tmp_path / "portfolio"
    shutil.copytree(built_example.parent, portfolio, symlinks=True)
    kb = portfolio / "kb"
    manifest = (kb / ".kb/manifest.json").read_bytes()
    for name in ("budget-as-text", "month-13", "vocabulary-as-text", "key-twice-in-frontmatter"):
        _break(kb, name)
    refreshed = kb_cli("refresh", "--kb", str(kb), timeout=900)
    out = refreshed.stdout + refreshed.stderr
    assert refreshed.returncode == 1 and "Traceback" not in out, out[-3000:]
    for name in ("budget-as-text", "month-13", "vocabulary-as-text", "key-twice-in-frontmatter"):
        rel, line = CASES[name][0], CASES[name][3]
        assert f"{rel}:{line}: error:" in out, (name, out[-3000:])
    assert (kb / ".kb/manifest.json").read_bytes() == manifest
    answer = kb_cli("sql", "--kb", str(kb), "select count(*) as n from nodes")
    assert answer.returncode == 0 and "n" in answer.stdout, answer.stdout + answer.stderr
