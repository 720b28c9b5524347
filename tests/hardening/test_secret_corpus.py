"""The secret guard judges prose as prose: honest lines about secrets pass `kb validate`,
while every fabricated credential in the committed corpus is refused and redacted."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from corpus import honest_prose, true_credentials

from kb.secret_scan import redact_text, scan_text
from tests.support.portfolio import copy_example, kb_cli

FM = "kind: doc\nproject: acme-shop\ntype: runbook\ntitle: Secrets notes"


def test_corpora_are_big_and_varied() -> None:
    creds = true_credentials()
    assert len(creds) >= 40 and len({c["format"] for c in creds}) >= 8
    assert len(honest_prose()) >= 40


@pytest.mark.parametrize("line", honest_prose())
def test_honest_line_is_not_a_secret(line: str) -> None:
    assert scan_text(line) == []


@pytest.mark.parametrize("entry", true_credentials(), ids=lambda e: e["format"])
def test_true_credential_is_found_and_redacted(entry: dict) -> None:
    assert scan_text(entry["text"]), entry["text"]
    redacted, _ = redact_text(entry["text"])
    assert entry["value"] not in redacted
    assert "[REDACTED " in redacted


def _write_doc(kb: Path, name: str, blocks: list[str]) -> list[int]:
    """A runbook whose body holds `blocks` one paragraph each; their first lines (1-based)."""
    lines, starts = ["---", *FM.splitlines(), "---", "# Notes", ""], []
    for block in blocks:
        starts.append(len(lines) + 1)
        lines += [*block.splitlines(), ""]
    (kb / "projects/acme-shop" / name).write_text("\n".join(lines), encoding="utf-8")
    return starts


def _secret_errors(kb: Path) -> tuple[str, list[str]]:
    result = kb_cli("validate", "--kb", str(kb))
    text = result.stdout + result.stderr
    assert "Traceback" not in text
    return text, [ln for ln in text.splitlines() if "[secret]" in ln]


def test_kb_validate_refuses_no_honest_line(tmp_path: Path) -> None:
    kb = copy_example(tmp_path / "portfolio", with_git=False)
    _write_doc(kb, "secrets-notes.md", honest_prose())
    text, refused = _secret_errors(kb)
    assert refused == [], "\n".join(refused)


def test_kb_validate_refuses_every_true_credential(tmp_path: Path) -> None:
    kb = copy_example(tmp_path / "portfolio", with_git=False)
    creds = true_credentials()
    starts = _write_doc(kb, "leaky-notes.md", [c["text"] for c in creds])
    text, refused = _secret_errors(kb)
    for value in {c["value"] for c in creds}:
        assert value not in text, f"{value[:4]}… leaked into kb validate output"
    flagged = {int(ln.split(":")[1]) for ln in refused if ln.startswith("projects/acme-shop/leaky")}
    missed = [c["text"] for c, start in zip(creds, starts, strict=True) if start not in flagged]
    assert missed == [], missed


ADVERSARIAL = [
    "password: " + "a" * 30000 + "1",
    "secret: " + "Ab" * 15000 + "!",
    "Bearer " + "aA" * 20000 + "$",
    "x" * 50000 + "password=" + "q1" * 5000,
    "token: xoxb-" + "5512098734-" * 2000,
    "https://a:" + "b" * 20000 + "@c",
]


@pytest.mark.parametrize("line", ADVERSARIAL, ids=lambda s: s[:12])
def test_long_adversarial_lines_are_scanned_in_linear_time(line: str) -> None:
    started = time.perf_counter()
    scan_text(line)
    assert time.perf_counter() - started < 3
