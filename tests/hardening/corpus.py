"""The committed secret corpora (tests/data/secrets): fabricated credentials and honest prose."""

from __future__ import annotations

from pathlib import Path

import yaml

DATA = Path(__file__).resolve().parents[1] / "data" / "secrets"


def true_credentials() -> list[dict]:
    """[{format, where, text, value}]: `text` leaks `value` the way a KB or a repo does."""
    return yaml.safe_load((DATA / "true_credentials.yaml").read_text(encoding="utf-8"))


def honest_prose() -> list[str]:
    return yaml.safe_load((DATA / "honest_prose.yaml").read_text(encoding="utf-8"))
