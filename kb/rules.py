"""Every rule id `kb validate` (and `kb check`) can report, and where the docs explain it.

Each rule has a section in docs/kb-format.md whose anchor is the rule id itself
(`### unknown-field` → `docs/kb-format.md#unknown-field`); every problem line ends
with that pointer, so a user reads the fix next to the rule.
"""

from __future__ import annotations

from dataclasses import replace

from kb.problems import Problem
from kb.schema import ENV_FIELDS, FIELDS, VERIFICATION_FIELDS

DOC = "docs/kb-format.md"
FALLBACK_ANCHOR = "validation-rules"

# rule id -> one-line summary (the docs section says more)
RULES: dict[str, str] = {
    # reading files (kb/loader.py)
    "yaml": "kb.yaml or vocabulary.yaml is not valid YAML or not a mapping",
    "encoding": "a file is not UTF-8",
    "frontmatter": "a Markdown file has no, unclosed or malformed YAML frontmatter",
    "too-large": "a KB doc is over the 5 MB cap",
    "symlink-loop": "a symlink is broken or leads back to a folder already read",
    "unreadable": "a folder cannot be listed",
    # fields and values (kb/validate.py)
    "kind": "kind is missing or not project, component, doc or adr",
    "required": "a required field is missing or empty",
    "unknown-field": "a field the format does not define (often a typo or a misplaced field)",
    "type": "a field has the wrong shape (text, list, mapping, date, hex)",
    "id": "an id is not lowercase letters, digits and '-', or does not match its folder",
    "vocabulary": "a value is not in vocabulary.yaml",
    "calls": "a calls entry lacks component or one of env_var, url, host, path",
    "cross-project": "a calls entry names a component of another project",
    "reference": "a project, component or superseded ADR that does not exist",
    "missing-repo": "a component's repo folder does not exist under repos_root",
    "repo-outside": "a component's repo path leaves repos_root",
    "duplicate": "two files define the same project, component or ADR number",
    "adr-name": "an ADR file is not named NNNN-title.md",
    "scope": "effort, schedules, assignments or meeting notes in the KB",
    "secret-value": "a secrets entry carries a value field",
    "secret": "a plaintext credential in a KB file",
    "adr-stale": "an ADR has been proposed for too long (warning)",
    "verification-old": "a doc was verified too long ago (warning)",
    # imports (kb/imports/store.py)
    "import-secret-redacted": "an imported page contained a credential, redacted on import (warning)",
    "import-source-deleted": "an imported page no longer exists upstream (warning)",
    # kb check
    "index-stale": "index/ is not what the KB generates (kb check)",
}


def doc_link(rule: str) -> str:
    """`docs/kb-format.md#<rule>`, or the rules overview for a rule not listed."""
    return f"{DOC}#{rule if rule in RULES else FALLBACK_ANCHOR}"


def with_doc_link(problem: Problem) -> Problem:
    """The problem with `; see docs/kb-format.md#<rule>` at the end of its message."""
    if f"{DOC}#" in problem.message:
        return problem
    return replace(problem, message=f"{problem.message}; see {doc_link(problem.rule)}")


def misplaced(kind: str, name: str) -> str | None:
    """For a top-level field that belongs one level down: where it goes instead."""
    if kind == "component" and name in ENV_FIELDS and name != "notes":
        return (
            f" — {name} is set per environment: put it under envs.<env>.{name}, "
            f"e.g. envs: {{prod: {{{name}: ...}}}}"
        )
    if (
        name in VERIFICATION_FIELDS
        and name not in ("status", "notes")
        and "verification" in FIELDS[kind]
    ):
        return f" — it belongs under verification: (verification.{name})"
    return None
