"""The KB's validation errors, found before Dagster is loaded or a run starts.

Validation is the `kb_validation` blocking check of the run; on its own it would report a
broken KB only after the pipeline has loaded and every component has been extracted
(6–10 s on a small portfolio). A refresh first validates here, when the KB differs from
the one the published warehouse was built from (that one passed), and stops at once with
the same lines. Imports no Dagster.
"""

from __future__ import annotations

import json
from pathlib import Path

from kb.model import KnowledgeBase
from kb.problems import Problem
from warehouse.integrity import MANIFEST


def errors_before_build(kb: KnowledgeBase, data_dir: Path) -> list[Problem]:
    """The KB's validation errors, sorted (none when the published build has this KB)."""
    try:
        built = json.loads((Path(data_dir) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        built = {}
    if built.get("kb_hash") == kb.content_hash:
        return []
    from kb.imports.store import import_problems  # the secret scanner: only when needed
    from kb.validate import kb_today, validate_kb

    problems = validate_kb(kb, kb_today(), extra=import_problems(kb.config.root))
    return [p for p in problems if p.severity == "error"]
