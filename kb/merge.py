"""Merge a machine draft into a file a person wrote, keeping everything they wrote.

Frontmatter is edited as text, one top-level key at a time, so the person's keys,
order, comments and flow style survive byte for byte: a key the draft adds is appended,
`stack:` and `calls:` gain only the entries the person does not have, and nothing else
(`verification:` above all — a person's check is theirs) is touched. The body is kept
and only the draft's lines about things the file does not mention yet are appended,
under one heading that says they are proposals.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:")
PROPOSED_HEADING = "## Proposed by `kb excavate` (review: keep, edit or delete)"
NEVER_ADDED = {"verification", "source"}


def split_front(text: str) -> tuple[str, str] | None:
    """(frontmatter text without the fences, body), or None without frontmatter."""
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    if end < 0:
        return None
    return text[4 : end + 1], text[end + 5 :]


def _blocks(front: str) -> list[tuple[str | None, str]]:
    """Top-level keys with their text (indented and comment lines go with the key above)."""
    blocks: list[tuple[str | None, str]] = []
    for line in front.splitlines(keepends=True):
        match = _KEY.match(line)
        if match or not blocks:
            blocks.append((match.group(1) if match else None, line))
        else:
            key, text = blocks[-1]
            blocks[-1] = (key, text + line)
    return blocks


def _same_call(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("env_var", "url", "host")
    return a.get("component") == b.get("component") and any(
        a.get(k) and a.get(k) == b.get(k) for k in keys
    )


def _flow(value: Any) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=10_000).strip()


def merge_front(front: str, draft: dict[str, Any]) -> str:
    """The person's frontmatter text with the draft's additions (see the module doc)."""
    data = yaml.safe_load(front) or {}
    blocks = _blocks(front)
    out: list[str] = []
    for key, text in blocks:
        if key == "stack" and isinstance(data.get("stack"), list):
            new = [s for s in draft.get("stack") or [] if s not in data["stack"]]
            if new:
                text = f"stack: {_flow(data['stack'] + new)}  # kb excavate proposes: {', '.join(new)}\n"
        if key == "calls" and isinstance(data.get("calls"), list):
            new = [
                c
                for c in draft.get("calls") or []
                if not any(_same_call(c, o) for o in data["calls"])
            ]
            text = text.rstrip("\n") + "\n" + "".join(f"  - {_flow(c)}  # proposed\n" for c in new)
        out.append(text)
    for key, value in draft.items():
        if key in data or key in NEVER_ADDED or value in (None, [], {}):
            continue
        out.append(yaml.safe_dump({key: value}, sort_keys=False, width=100))
    return "".join(out)


def merge_body(body: str, proposals: list[tuple[str, list[tuple[str, str]]]], whole: str) -> str:
    """The person's body plus, per section, the draft's lines whose subject (a name such as
    an env var or a route) the file does not mention anywhere yet."""
    added: list[str] = []
    for heading, items in proposals:
        lines = [line for subject, line in items if subject not in whole]
        if lines:
            added += ["", f"### {heading}", "", *lines]
    if not added:
        return body
    return body.rstrip("\n") + "\n\n" + PROPOSED_HEADING + "\n" + "\n".join(added) + "\n"


def merge_into(existing: str, draft_front: dict[str, Any], proposals) -> str:
    """A person's file with the draft merged in; a file without frontmatter keeps its text
    and only gains the proposed lines."""
    parts = split_front(existing)
    if parts is None:
        return merge_body(existing, proposals, existing)
    front, body = parts
    return (
        "---\n" + merge_front(front, draft_front) + "---\n" + merge_body(body, proposals, existing)
    )
