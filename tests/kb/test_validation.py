"""Validation rules through the real `kb validate`: `path:line`, the rule, fix-it text.

Each test edits a fresh copy of the example KB (valid as shipped: 0 errors) and reads
what a user reads. Warnings move with the clock (`KB_TODAY`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.checks import output
from tests.support.portfolio import copy_example, kb_cli

AWS_KEY = "AKIAQ7XK3MZP4TNW2Y6R"
GITHUB_TOKEN = "ghp_" + "r7Tq2LmX9vKpW4sZ8yBnC3dF6gH1jA5eU0iO"
DB_PASSWORD = "Sup3rS3cretPassw0rd"
ENTRY_VALUE = "zk-live-9f8e7d6c5b4a39281706"


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    return copy_example(tmp_path / "portfolio", with_git=False)


def _edit(path: Path, old: str, new: str) -> int:
    """Replace `old` (once) and return the 1-based line where `new` starts."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text[: text.index(new)].count("\n") + 1


def _doc(kb: Path, rel: str, frontmatter: str, body: str) -> Path:
    path = kb / rel
    path.write_text(f"---\n{frontmatter}\n---\n{body}", encoding="utf-8")
    return path


def validate(kb: Path, today: str | None = None) -> tuple[int, list[str]]:
    result = kb_cli("validate", "--kb", str(kb), env={"KB_TODAY": today} if today else None)
    text = output(result)
    assert "Traceback" not in text, text
    return result.returncode, [
        ln for ln in result.stdout.splitlines() if re.match(r"\S+:\d+: ", ln)
    ]


def _one(lines: list[str], prefix: str, *fragments: str) -> str:
    hits = [ln for ln in lines if ln.startswith(prefix) and all(f in ln for f in fragments)]
    assert len(hits) == 1, f"want one line {prefix} {fragments}, got:\n" + "\n".join(lines)
    return hits[0]


def test_example_is_valid(kb: Path) -> None:
    code, lines = validate(kb)
    assert code == 0
    assert all(": warning: " in ln for ln in lines), lines


def test_missing_required_field_and_wrong_types(kb: Path) -> None:
    comp = kb / "projects/acme-shop/contact-api/component.md"
    _edit(comp, "role: api\n", "")
    stack = _edit(comp, "stack: [express, typescript]", "stack: express")
    title = _edit(comp, "title: Contact API", "title: [Contact, API]")
    code, lines = validate(kb)
    assert code == 1
    rel = "projects/acme-shop/contact-api/component.md"
    _one(lines, f"{rel}:1: error:", "missing required field 'role'", "[required]")
    _one(lines, f"{rel}:{stack}: error:", "stack must be a list", "[type]")
    _one(lines, f"{rel}:{title}: error:", "title must be a text value", "[type]")


def test_unknown_project_and_component_references(kb: Path) -> None:
    arch = kb / "projects/acme-shop/contact-api/architecture.md"
    line = _edit(arch, "component: contact-api", "component: contact-apii")
    _doc(
        kb,
        "projects/acme-shop/stray.md",
        "kind: doc\nproject: acme-shopp\ntype: spec\ntitle: S",
        "",
    )
    code, lines = validate(kb)
    assert code == 1
    _one(
        lines,
        f"projects/acme-shop/contact-api/architecture.md:{line}: error:",
        "unknown component 'contact-apii' in acme-shop — did you mean 'contact-api'?",
        "[reference]",
    )
    _one(
        lines,
        "projects/acme-shop/stray.md:3: error:",
        "unknown project 'acme-shopp' — did you mean 'acme-shop'?",
    )


def test_calls_may_not_point_at_another_project(kb: Path) -> None:
    web = kb / "projects/acme-shop/web/component.md"
    line = _edit(web, "    component: contact-api", "    component: globex-portal/api")
    code, lines = validate(kb)
    assert code == 1
    _one(
        lines,
        f"projects/acme-shop/web/component.md:{line}: error:",
        "'globex-portal/api' in another project",
        "[cross-project]",
    )


@pytest.mark.parametrize("heading", ["## Effort estimate", "## Meeting notes", "### Action items"])
def test_scope_headings_are_errors(kb: Path, heading: str) -> None:
    body = f"# Contact form rollout\n\nContext.\n\n{heading}\n\nThree days, Alice.\n"
    _doc(
        kb,
        "projects/acme-shop/rollout.md",
        "kind: doc\nproject: acme-shop\ntype: spec\ntitle: R",
        body,
    )
    code, lines = validate(kb)
    assert code == 1
    word = heading.lstrip("# ").split()[0]
    _one(lines, "projects/acme-shop/rollout.md:11: error:", f"heading '{word}", "[scope]")


def test_meeting_notes_type_is_out_of_scope(kb: Path) -> None:
    fm = "kind: doc\nproject: acme-shop\ntype: meeting-notes\ntitle: Weekly"
    _doc(kb, "projects/acme-shop/weekly.md", fm, "# Weekly\n")
    code, lines = validate(kb)
    assert code == 1
    _one(lines, "projects/acme-shop/weekly.md:4: error:", "out of scope", "[scope]")


def test_plaintext_credentials_are_located_never_shown(kb: Path) -> None:
    body = (
        "# Ops notes\n\n"
        f"Deploy user key: {AWS_KEY}\n\n"
        f"CI uses {GITHUB_TOKEN} to push tags.\n\n"
        f"Reporting DB: postgres://report:{DB_PASSWORD}@db.internal.example:5432/reports\n"
    )
    fm = "kind: doc\nproject: acme-shop\ntype: runbook\ntitle: Ops"
    _doc(kb, "projects/acme-shop/ops.md", fm, body)
    comp = kb / "projects/acme-shop/contact-api/component.md"
    hint = _edit(
        comp,
        "hint: SMTP relay login",
        f"hint: smtp://mailer:{DB_PASSWORD}@smtp.example:587 SMTP relay login",
    )
    result = kb_cli("validate", "--kb", str(kb))
    text = output(result)
    assert result.returncode == 1, text
    for value in (AWS_KEY, GITHUB_TOKEN, DB_PASSWORD):
        assert value not in text, f"{value[:4]}… leaked into kb validate output"
    lines = text.splitlines()
    _one(lines, "projects/acme-shop/ops.md:9: error:", "aws-access-key", "[secret]")
    _one(lines, "projects/acme-shop/ops.md:11: error:", "github-token", "[secret]")
    _one(lines, "projects/acme-shop/ops.md:13: error:", "password-in-url", "[secret]")
    _one(lines, f"projects/acme-shop/contact-api/component.md:{hint}: error:", "[secret]")


def test_secret_entry_with_a_value_field(kb: Path) -> None:
    comp = kb / "projects/acme-shop/contact-api/component.md"
    line = 1 + _edit(
        comp,
        "    sha256_prefix: 3f9a1c0d\n",
        f"    sha256_prefix: 3f9a1c0d\n    value: {ENTRY_VALUE}\n",
    )
    result = kb_cli("validate", "--kb", str(kb))
    text = output(result)
    assert result.returncode == 1, text
    assert ENTRY_VALUE not in text
    _one(
        text.splitlines(),
        f"projects/acme-shop/contact-api/component.md:{line}: error:",
        "has a 'value' field",
        "[secret-value]",
    )


ADR = "projects/globex-portal/adr/0002-generate-sdk-for-all-endpoints.md:4: warning:"
OLD_DOC = "projects/acme-shop/web/architecture.md:12: warning:"


@pytest.mark.parametrize(
    ("today", "adr_days", "doc_days"),
    [("2026-11-29", 120, 203), ("2026-08-15", None, 97), ("2026-08-01", None, None)],
)
def test_stale_warnings_follow_the_clock(kb: Path, today: str, adr_days, doc_days) -> None:
    code, lines = validate(kb, today)
    assert code == 0  # warnings never fail validation
    adr = [ln for ln in lines if ln.startswith(ADR)]
    old = [ln for ln in lines if ln.startswith(OLD_DOC)]
    if adr_days is None:
        assert not adr, adr
    else:
        assert adr == [
            f"{ADR} ADR 0002 has been proposed for {adr_days} days (> 30) — "
            "accept, reject or re-date it; see docs/kb-format.md#adr-stale [adr-stale]"
        ]
    if doc_days is None:
        assert not old, old
    else:
        assert len(old) == 1 and f"verified {doc_days} days ago (> 90)" in old[0], old


def test_all_problems_reported_together_sorted(kb: Path) -> None:
    _edit(kb / "projects/initech-events/web/component.md", "role: frontend", "role: frontent")
    _edit(
        kb / "projects/acme-shop/contact-api/component.md",
        "runtime: cloud-run",
        "runtime: cloudrun",
    )
    (kb / "projects/globex-portal/notes.md").write_text("no frontmatter\n", encoding="utf-8")
    code, lines = validate(kb)
    assert code == 1
    errors = [ln for ln in lines if ": error: " in ln]
    assert [ln.split(":")[0] for ln in errors] == [
        "projects/acme-shop/contact-api/component.md",
        "projects/globex-portal/notes.md",
        "projects/initech-events/web/component.md",
    ]
    assert "did you mean 'frontend'?" in errors[-1]
    keys = [(ln.split(":")[0], int(ln.split(":")[1])) for ln in lines]
    assert keys == sorted(keys)


def test_adr_rules_numbers_names_and_supersedes(kb: Path) -> None:
    adr_dir = kb / "projects/acme-shop/adr"
    source = (adr_dir / "0003-create-zendesk-tickets-for-contact-form.md").read_text("utf-8")
    (adr_dir / "0003-duplicate-number.md").write_text(source, encoding="utf-8")
    (adr_dir / "Rate-Limits.md").write_text(source.replace("supersedes: 0002\n", ""), "utf-8")
    line = _edit(
        adr_dir / "0001-express-for-contact-api.md",
        "status: accepted",
        "status: accepted\nsupersedes: 0009",
    )
    code, lines = validate(kb)
    assert code == 1
    _one(lines, "projects/acme-shop/adr/0003-", "ADR 0003 is also", "[duplicate]")
    _one(lines, "projects/acme-shop/adr/Rate-Limits.md:1: error:", "NNNN-title.md", "[adr-name]")
    _one(
        lines,
        f"projects/acme-shop/adr/0001-express-for-contact-api.md:{line + 1}: error:",
        "supersedes 0009: no such ADR in acme-shop",
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("role: api", "role: API", "role 'API' is not in vocabulary.role — did you mean 'api'?"),
        (
            "  prod: {",
            "  production: {",
            "env 'production' is not in vocabulary.env — did you mean 'prod'?",
        ),
        (
            "stack: [express,",
            "stack: [expres,",
            "stack 'expres' is not in vocabulary.stack — did you mean 'express'?",
        ),
        (
            "integrations: [zendesk, recaptcha]",
            "integrations: [zendesk, recapcha]",
            "integrations 'recapcha' is not in vocabulary.integration — did you mean 'recaptcha'?",
        ),
        (
            "deploy: cloud-build",
            "deploy: jenkins",
            "deploy 'jenkins' is not in vocabulary.deploy — allowed: github-actions,",
        ),
    ],
)
def test_vocabulary_of_every_field(kb: Path, old: str, new: str, message: str) -> None:
    line = _edit(kb / "projects/acme-shop/contact-api/component.md", old, new)
    code, lines = validate(kb)
    assert code == 1
    _one(lines, f"projects/acme-shop/contact-api/component.md:{line}: error: {message}")
