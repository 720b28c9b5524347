"""`kb excavate` merges into a person's file: what they wrote stays (calls, stack, secrets,
description, their verification), additions are proposed; machine drafts are never
`verified`; what only tests read or call is not the component's own."""

from __future__ import annotations

import difflib
import shutil
from datetime import date
from pathlib import Path

import pytest
import yaml

from tests.support.portfolio import build, kb_cli

E2E = """const base = process.env.E2E_BASE_URL ?? 'http://localhost:3000';

export async function submitContactForm() {
  return fetch(`${base}/contact`, { method: 'POST' });
}
"""


@pytest.fixture(scope="module")
def excavated(built_example: Path, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("excavate") / "portfolio"
    shutil.copytree(built_example.parent, root, symlinks=True)
    kb = root / "kb"
    web = kb / "projects/acme-shop/web"
    text = (web / "component.md").read_text(encoding="utf-8")
    text = text.replace("stack: [nextjs, react, typescript]", "stack: [nextjs]   # we know this")
    (web / "component.md").write_text(text, encoding="utf-8")
    (web / "architecture.md").unlink()
    e2e = root / "repos/acme-shop/web/e2e"
    e2e.mkdir()
    (e2e / "contact.spec.ts").write_text(E2E, encoding="utf-8")
    build(kb)
    done = kb_cli("excavate", "--kb", str(kb), "--project", "acme-shop", "--component", "web")
    assert done.returncode == 0, done.stdout + done.stderr
    return kb


def test_a_persons_component_md_is_kept_and_only_additions_are_proposed(excavated: Path):
    web = excavated / "projects/acme-shop/web"
    mine = (web / "component.md").read_text(encoding="utf-8")
    proposed = (web / "component.proposed.md").read_text(encoding="utf-8")
    before, after = mine.splitlines(), proposed.splitlines()
    ops = difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes()
    changed = [before[i1:i2] for tag, i1, i2, _, _ in ops if tag in ("replace", "delete")]
    assert changed == [["stack: [nextjs]   # we know this"]]  # every other line they wrote stays
    front = yaml.safe_load(proposed.split("---")[1])
    assert front["stack"][0] == "nextjs" and {"react", "typescript"} <= set(front["stack"])
    assert front["calls"][0] == {
        "env_var": "NEXT_PUBLIC_CONTACT_API_URL",
        "component": "contact-api",
    }
    assert [s["name"] for s in front["secrets"]] == ["revalidate-secret"]
    assert front["verification"] == {
        "status": "verified",
        "verified_against": "4be1c2d",
        "verified_at": date(2026, 10, 2),
    }
    assert "Proposed by `kb excavate`" in proposed


def test_a_new_draft_is_never_marked_verified(excavated: Path):
    arch = (excavated / "projects/acme-shop/web/architecture.md").read_text(encoding="utf-8")
    front = yaml.safe_load(arch.split("---")[1])
    assert front["verification"] == {"status": "unverified"}
    assert "verified_against" not in arch


def test_what_only_tests_read_or_call_is_not_the_components_own(excavated: Path):
    web = excavated / "projects/acme-shop/web"
    proposed = (web / "component.proposed.md").read_text(encoding="utf-8")
    tests_section = proposed.index("only by tests")
    assert "E2E_BASE_URL" in proposed[tests_section:]
    assert "E2E_BASE_URL" not in proposed[:tests_section]
    front = yaml.safe_load(proposed.split("---")[1])
    assert all(c.get("env_var") != "E2E_BASE_URL" for c in front.get("calls", []))
    arch = (web / "architecture.md").read_text(encoding="utf-8")
    outbound = arch[arch.index("## Outbound calls") :]
    assert "e2e/contact.spec.ts" not in outbound
    validated = kb_cli("validate", "--kb", str(excavated))
    assert " 0 error(s)" in validated.stdout or validated.returncode == 0, validated.stdout
