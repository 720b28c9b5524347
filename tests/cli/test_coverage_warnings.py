"""A framework a component declares and the graph has nothing from is said out loud: a
`coverage` row in SQL, a warning in `kb status`, a line in the verification report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.checks import output
from tests.support.portfolio import git, kb_cli

pytestmark = pytest.mark.slow


def _sql(kb: Path, query: str) -> list[dict]:
    done = kb_cli("sql", "--kb", str(kb), "--json", query)
    assert done.returncode == 0, output(done)
    return json.loads(done.stdout)


def test_a_declared_framework_with_no_model_is_a_warning_everywhere(example_kb: Path) -> None:
    manifest = example_kb.parent / "repos" / "acme-shop" / "contact-api" / "package.json"
    data = json.loads(manifest.read_text())
    data["dependencies"]["actionhero"] = "^29.0.0"
    manifest.write_text(json.dumps(data, indent=2) + "\n")
    git(example_kb.parent, "commit", "-qam", "contact-api: add actionhero")

    refreshed = kb_cli("refresh", "--kb", str(example_kb))
    assert refreshed.returncode == 0, output(refreshed)

    rows = {
        r["package"]: r
        for r in _sql(
            example_kb,
            "SELECT package, model, routes, calls, status, warning, file, line FROM coverage "
            "WHERE project = 'acme-shop' AND component = 'contact-api'",
        )
    }
    assert rows["express"]["model"] == "express" and rows["express"]["routes"] > 0
    assert rows["express"]["status"] == "ok" and rows["express"]["warning"] is None
    assert rows["axios"]["calls"] > 0
    unread = rows["actionhero"]  # named in models/unmodeled.yaml: no model reads it yet
    assert (unread["status"], unread["model"], unread["file"]) == (
        "no_model",
        None,
        "package.json",
    )
    line = manifest.read_text().splitlines().index('    "actionhero": "^29.0.0"') + 1
    assert unread["line"] == line

    status = kb_cli("status", "--kb", str(example_kb))
    assert status.returncode == 0, output(status)
    warned = [ln for ln in status.stdout.splitlines() if ln.startswith("warning:")]
    assert warned == [
        f"warning: acme-shop/contact-api declares actionhero (package.json:{line}) but no model "
        "reads it: its routes are not in the graph — docs/frameworks.md says how to add a "
        "model (https://www.actionherojs.com/)"
    ]
    report = (example_kb / "verification-report.md").read_text()
    assert "## Declared frameworks and clients the code graph has nothing from (1)" in report
    assert f"`package.json:{line}` — acme-shop/contact-api declares actionhero" in report
