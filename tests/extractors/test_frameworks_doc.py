"""docs/frameworks.md is generated from the model files: the committed page is exactly
what the models generate, and it names every model with its documentation link and every
package known by name that no model reads yet."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from extractors.models import all_models
from extractors.models.docpage import render

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "frameworks.md"


def test_the_committed_page_is_the_generated_one():
    assert PAGE.read_text(encoding="utf-8") == render(), (
        "docs/frameworks.md is stale: run `uv run python scripts/frameworks_doc.py`"
    )


def test_every_model_is_listed_with_its_docs_link_and_how_to_add_one():
    text = render()
    for model in all_models():
        assert f"(`{model.id}`)" in text, model.id
        assert f"]({model.docs})" in text, model.id
    assert "## How to add a model" in text
    assert "`actionhero`" in text  # known by name, no model yet: listed with a coverage warning


def test_the_check_command_accepts_the_committed_page():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "frameworks_doc.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
