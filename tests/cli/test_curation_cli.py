"""`kb import` without config, `kb distil`, `kb verify` and `kb excavate` through the real CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.support.portfolio import git, kb_cli

RAW = "_imports/raw/confluence-98765-contact-form-architecture"


def _no_imports(kb_root: Path) -> None:
    config = yaml.safe_load((kb_root / "kb.yaml").read_text())
    config.pop("imports", None)
    (kb_root / "kb.yaml").write_text(yaml.safe_dump(config, sort_keys=False))


def test_import_without_config_says_so(example_kb):
    _no_imports(example_kb)
    done = kb_cli("import", "--kb", str(example_kb))
    assert done.returncode == 0
    assert done.stdout.strip().splitlines() == [
        "no imports configured in kb.yaml (imports: confluence/drive) — nothing to do"
    ]


@pytest.mark.slow
def test_distil_writes_unverified_doc_with_provenance(example_kb):
    done = kb_cli("distil", RAW, "--kb", str(example_kb), "--project", "acme-shop",
                  "--component", "contact-api", "--type", "spec", "--title", "Contact form spec",
                  cwd=example_kb)  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = example_kb / "projects/acme-shop/contact-api/contact-form-spec.md"
    front = yaml.safe_load(doc.read_text().split("---")[1])
    assert front["source"] == ["confluence:98765"]
    assert front["verification"] == {"status": "unverified"}
    source = yaml.safe_load((example_kb / RAW / "_source.yaml").read_text())
    assert source["distilled_version"] == {
        "projects/acme-shop/contact-api/contact-form-spec.md": 14
    }
    assert source["fetched_at"] == "2026-11-02T06:00:11Z"  # provenance kept as written
    again = kb_cli("distil", RAW, "--kb", str(example_kb), "--project", "acme-shop",
                   "--component", "contact-api", "--type", "spec", "--title", "Contact form spec",
                   cwd=example_kb)  # fmt: skip
    assert again.returncode == 1 and "already exists" in again.stderr
    bad = kb_cli("distil", RAW, "--kb", str(example_kb), "--project", "acme-shop", "--type", "memo")
    assert bad.returncode == 1 and "--type memo: not one of" in bad.stderr


@pytest.mark.slow
def test_verify_checks_the_commit_and_keeps_the_rest_of_the_file(example_kb):
    doc = example_kb / "projects/acme-shop/contact-api/architecture.md"
    before = doc.read_text()
    head = git(example_kb.parent, "rev-parse", "HEAD")
    bad = kb_cli("verify", str(doc), "--kb", str(example_kb), "--against", "0badc0ffee")
    assert bad.returncode == 1 and "not a commit of acme-shop/contact-api" in bad.stderr
    assert doc.read_text() == before
    done = kb_cli("verify", str(doc), "--kb", str(example_kb), "--against", head)
    assert done.returncode == 0, done.stderr
    after = doc.read_text()
    front = yaml.safe_load(after.split("---")[1])
    assert {k: str(v) for k, v in front["verification"].items()} == {
        "status": "verified", "verified_against": head[:7], "verified_at": "2026-11-29"
    }  # fmt: skip
    assert isinstance(front["verification"]["verified_against"], str)
    assert after.split("---", 2)[2] == before.split("---", 2)[2]  # the body is untouched


@pytest.mark.slow
def test_excavate_drafts_from_graph_and_never_overwrites(built_example, tmp_path):
    import shutil

    kb_root = tmp_path / "portfolio" / "kb"
    shutil.copytree(built_example.parent, tmp_path / "portfolio", symlinks=True)
    existing = kb_root / "projects/acme-shop/contact-api/architecture.md"
    before = existing.read_text()
    done = kb_cli("excavate", "--kb", str(kb_root), "--project", "acme-shop",
                  "--component", "contact-api")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert existing.read_text() == before
    proposed = (kb_root / "projects/acme-shop/contact-api/architecture.proposed.md").read_text()
    # the person's doc stays whole; only what it does not mention yet is proposed
    assert proposed.startswith(before.rstrip("\n")) and "`POST /api/jp/contact`" in proposed
    assert "Proposed by `kb excavate`" in proposed and "zendesk.com/api/v2/tickets.json" in proposed
    assert "--- projects/acme-shop/contact-api/architecture.md" in done.stdout  # the diff
    component = (kb_root / "projects/acme-shop/contact-api/component.proposed.md").read_text()
    front = yaml.safe_load(component.split("---")[1])
    assert front["role"] == "api" and {"express", "typescript"} <= set(front["stack"])
    assert front["verification"]["verified_against"] == "4be1c2d"  # the person's, kept
    assert "ZENDESK_API_TOKEN" in component
