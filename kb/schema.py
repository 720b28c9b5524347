"""What each kind of KB file may hold (kb-format.md), as data the validator walks.

A field maps to (expected type, vocabulary key or None, required). Types are the
Python types YAML produces; `date` accepts a YAML date or an ISO string.
"""

from __future__ import annotations

KINDS = ("project", "component", "doc", "adr")

# field -> (type name, vocabulary key, required)
FIELDS: dict[str, dict[str, tuple[str, str | None, bool]]] = {
    "project": {
        "kind": ("str", None, True),
        "id": ("id", None, True),
        "title": ("str", None, True),
        "tags": ("list", "tag", False),
        "source": ("list", None, False),
        "verification": ("verification", None, False),
    },
    "component": {
        "kind": ("str", None, True),
        "project": ("id", None, True),
        "id": ("id", None, True),
        "title": ("str", None, True),
        "role": ("str", "role", True),
        "repo": ("str", None, True),
        "stack": ("list", "stack", False),
        "envs": ("envs", None, False),
        "integrations": ("list", "integration", False),
        "secrets": ("secrets", None, False),
        "calls": ("calls", None, False),
        "tags": ("list", "tag", False),
        "source": ("list", None, False),
        "verification": ("verification", None, False),
    },
    "doc": {
        "kind": ("str", None, True),
        "project": ("id", None, True),
        "component": ("id", None, False),
        "type": ("str", "doc_type", True),
        "title": ("str", None, True),
        "tags": ("list", "tag", False),
        "source": ("list", None, False),
        "verification": ("verification", None, False),
    },
    "adr": {
        "kind": ("str", None, True),
        "project": ("id", None, True),
        "status": ("str", "adr_status", True),
        "date": ("date", None, True),
        "decision-makers": ("list", None, True),
        "consulted": ("list", None, False),
        "informed": ("list", None, False),
        "summary": ("str", None, True),
        "supersedes": ("adr_ref", None, False),
        "superseded-by": ("adr_ref", None, False),
        "prs": ("list", None, False),
        "tags": ("list", "tag", False),
        "source": ("list", None, False),
    },
}

ENV_FIELDS: dict[str, tuple[str, str | None, bool]] = {
    "runtime": ("str", "runtime", False),
    "gcp_project": ("str", None, False),
    "url": ("str", None, False),
    "deploy": ("str", "deploy", False),
    "access": ("str", "access", False),
    "region": ("str", None, False),
    "notes": ("str", None, False),
}

SECRET_FIELDS: dict[str, tuple[str, str | None, bool]] = {
    "name": ("str", None, True),
    "store": ("str", "secret_store", True),
    "ref": ("str", None, False),
    "env_var": ("str", None, False),
    "hint": ("str", None, False),
    "sha256_prefix": ("hex", None, False),
}

# A `calls:` entry: `component` (same project) and exactly one of the CALLS_TARGET_KEYS.
CALLS_TARGET_KEYS = ("env_var", "url", "host", "path")
CALLS_FIELDS: dict[str, tuple[str, str | None, bool]] = {
    "component": ("str", None, True),
    "env_var": ("str", None, False),
    "url": ("str", None, False),
    "host": ("str", None, False),
    "path": ("str", None, False),
    "notes": ("str", None, False),
}

# A `secrets:` entry must never carry the value itself.
SECRET_VALUE_KEYS = {
    "value",
    "secret",
    "password",
    "token",
    "key",
    "plaintext",
    "api_key",
    "credential",
}

VERIFICATION_FIELDS: dict[str, tuple[str, str | None, bool]] = {
    "status": ("str", "status", True),
    "verified_against": ("str", None, False),
    "verified_at": ("date", None, False),
    "by": ("str", None, False),
    "notes": ("str", None, False),
}

# Scope rule: effort, schedule, assignments and meeting notes never go in the KB.
OUT_OF_SCOPE_TYPES = {
    "meeting",
    "meeting-notes",
    "minutes",
    "schedule",
    "timeline",
    "roadmap",
    "effort",
    "estimate",
    "estimates",
    "assignment",
    "assignments",
    "status-report",
    "standup",
}
OUT_OF_SCOPE_HEADING = (
    r"^#{1,6}\s+(?:effort|estimates?|estimation|schedule|timeline|deadlines?|milestones?"
    r"|assignments?|assignees?|owners? and dates|meeting notes?|minutes|action items|attendees"
    r"|sprint(?: planning)?|standup)\b"
)

# kb.yaml (kb-format.md "kb.yaml"): dotted key -> (type, (min, max) for numbers, default).
# Keys not listed are ignored, as the format says. `token_budget` spans what an MCP tool
# accepts as `budget` (mcp_server.budget MIN_BUDGET..MAX_BUDGET).
SETTINGS_FIELDS: dict[str, tuple[str, tuple[int, int] | None, object]] = {
    "name": ("str", None, None),
    "repos_root": ("str", None, "repos"),
    "data_dir": ("str", None, None),
    "token_budget": ("int", (150, 50_000), 2000),
    "stale": ("mapping", None, None),
    "stale.adr_proposed_days": ("int", (1, 36_500), 30),
    "stale.verified_max_days": ("int", (1, 36_500), 90),
    "imports": ("mapping", None, None),
}
# vocabulary.yaml: every key names a field, every value is a list of plain values.
VOCABULARY_VALUE = "list of text"
