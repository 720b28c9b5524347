"""Why a documented KB `calls:` entry has no CALLS edge, for the verification report.

`missing_call_reason(project, entry, caller, nodes, edges, unresolved)` reads one project's
published tables (parsed `attrs` or JSON text) and names the failing link: no call site
of the caller uses the entry's env var / URL / host, or the ones that do are unresolved
(with the first reason), or they reach another component.
"""

from __future__ import annotations

from typing import Any

from kb.model import CallsEntry
from vocab.pathparts import from_attrs, text_segments
from warehouse.reader import parse_attrs
from warehouse.urls import bare_host, netloc, starts_with


def _uses(entry: CallsEntry, attrs: dict[str, Any]) -> bool:
    """The call (typed attrs, extractors/parts.py) goes where the entry speaks of."""
    segs = from_attrs(attrs.get("segments")) or []
    if entry.key == "env_var":
        return attrs.get("env_var") == entry.value
    base = attrs.get("base") if isinstance(attrs.get("base"), str) else None
    if entry.key == "path":
        return (
            not base and not attrs.get("env_var") and starts_with(segs, text_segments(entry.value))
        )
    got = netloc(base or "")
    want = netloc(entry.value if entry.key == "url" else f"http://{entry.value}")
    if got is None or want is None:
        return False
    if entry.key == "host" and ":" not in want[0]:
        return bare_host(got[0]) == want[0]
    return got[0] == want[0] and (entry.key == "host" or starts_with(segs, want[1]))


def missing_call_reason(
    project: str,
    entry: CallsEntry,
    caller: str,
    nodes: list[dict[str, Any]],
    edges: list[dict[str, Any]],
    unresolved: list[dict[str, Any]],
) -> str:
    """One line: why `caller`'s `calls:` entry `entry` has no CALLS edge to its component."""
    sites = [
        n
        for n in nodes
        if n.get("kind") == "http_call"
        and n.get("project") == project
        and n.get("component") == caller
        and _uses(entry, parse_attrs(n.get("attrs")))
    ]
    if not sites:
        return f"no call site of {project}/{caller} in the graph uses {entry.label}"
    where = {(n.get("file"), n.get("line")) for n in sites}
    rows = sorted(
        (r for r in unresolved if r.get("component") == caller
         and (r.get("file"), r.get("line")) in where),
        key=lambda r: (str(r.get("file")), r.get("line") or 0),
    )  # fmt: skip
    if rows:
        r = rows[0]
        return (
            f"{len(sites)} call site(s) use {entry.label}, {len(rows)} unresolved; "
            f"{r.get('file')}:{r.get('line')}: {r.get('reason')}"
        )
    ids = {n["id"] for n in sites}
    reached = sorted(
        {
            str(parse_attrs(e.get("attrs")).get("target_component"))
            for e in edges
            if e.get("type") == "CALLS" and e.get("src") in ids
        }
    )
    if reached:
        return f"call sites using {entry.label} reach {', '.join(reached)}, not {entry.component}"
    return f"{len(sites)} call site(s) use {entry.label} but none was bridged"
