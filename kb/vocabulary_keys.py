"""The list names of vocabulary.yaml: each must be one a field reads.

A list no field reads checks nothing, so a misspelt name (`stak:` for `stack:`) silently
turns off the check it was written for — every `stack` value passes. Such a name is an
error that says which list it was probably meant to be.
"""

from __future__ import annotations

import re

from kb.model import KnowledgeBase
from kb.problems import Problem
from kb.schema import CALLS_FIELDS, ENV_FIELDS, FIELDS, SECRET_FIELDS, VERIFICATION_FIELDS
from kb.validate_fields import did_you_mean

VOCABULARY_FILE = "vocabulary.yaml"
# The names under `envs:` are checked against the `env` list (kb.validate_docs).
ENV_NAMES = "env"


def vocabulary_lists() -> list[str]:
    """Every list name some field is checked against, sorted."""
    tables = [*FIELDS.values(), ENV_FIELDS, SECRET_FIELDS, VERIFICATION_FIELDS, CALLS_FIELDS]
    names = {spec[1] for table in tables for spec in table.values() if spec[1]}
    return sorted(names | {ENV_NAMES})


def vocabulary_key_problems(kb: KnowledgeBase) -> list[Problem]:
    """One error per list name of vocabulary.yaml that no field reads."""
    known = vocabulary_lists()
    unknown = [name for name in kb.vocabulary if name not in known]
    if not unknown:
        return []
    try:
        text = (kb.config.root / VOCABULARY_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        text = ""
    problems = []
    for name in unknown:
        hint = did_you_mean(name, known)
        meant = re.search(r"'([^']+)'\?$", hint)
        unchecked = (
            f" (until then no `{meant.group(1)}` value is checked)"
            if meant and meant.group(1) not in kb.vocabulary
            else ""
        )
        problems.append(
            Problem(
                VOCABULARY_FILE,
                _line_of(text, name),
                "error",
                "vocabulary-list",
                f"no field reads the list '{name}', so it checks nothing{hint}{unchecked}",
            )
        )
    return problems


def _line_of(text: str, key: str) -> int:
    """The line of a top-level `key:` (1 when it cannot be found, e.g. a flow mapping)."""
    pattern = re.compile(rf"^['\"]?{re.escape(key)}['\"]?\s*:", re.M)
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else 1
