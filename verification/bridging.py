"""Bridge coverage per frontend, for the verification report: how many call sites the
component has, how many reached a route (by confidence), and why the others did not,
grouped by the first words of their `unresolved` reason."""

from __future__ import annotations

from collections import Counter
from typing import Any

import polars as pl

from kb.model import KnowledgeBase
from warehouse.reader import dict_rows

REASONS = (
    ("dead code", "dead code"),
    ("dynamic URL", "dynamic URL"),
    ("no base URL", "no base URL"),
    ("relative URL", "relative URL, nothing serves it"),
    ("generated operation", "generated operation"),
    ("no route", "no route matches"),
    ("ambiguous", "ambiguous"),
)


def _reason(text: str) -> str:
    for head, word in REASONS:
        if head in text.split(";")[0] or text.startswith(head):
            return word
    return "other"


def _frame(tables: dict[str, Any], name: str, column: str, value: str) -> list[dict[str, Any]]:
    """The rows of one table whose `column` is `value`, filtered before their attrs are
    parsed (a portfolio's nodes and edges are 100,000s of rows; a few are calls)."""
    df = tables.get(name)
    if not isinstance(df, pl.DataFrame) or column not in df.columns:
        return []
    return dict_rows(df.filter(pl.col(column) == value))


def bridge_rows(kb: KnowledgeBase, project: str, tables: dict[str, Any]) -> list[dict[str, Any]]:
    """One `bridges` row per component of the project that makes HTTP calls (a frontend,
    or any component whose code has call sites)."""
    proj = kb.projects.get(project)
    if proj is None:
        return []
    nodes = _frame(tables, "nodes", "kind", "http_call")
    calls = _frame(tables, "edges", "type", "CALLS")
    rows = _frame(tables, "unresolved", "kind", "http_call")
    out = []
    for cid, comp in sorted(proj.components.items()):
        mine = [n for n in nodes if n.get("component") == cid]
        misses = [u for u in rows if u.get("component") == cid]
        if not mine and not misses and comp.field("role") != "frontend":
            continue
        sites = {(n.get("file"), n.get("line")) for n in mine}
        sites |= {(u.get("file"), u.get("line")) for u in misses}
        ids = {n["id"] for n in mine}
        bridged: dict[tuple, str] = {}
        rank = {"high": 2, "medium": 1, "low": 0}
        for e in calls:
            if e.get("src") in ids:
                level = str((e.get("attrs") or {}).get("confidence") or "high")
                key = (e.get("file"), e.get("line"))
                if rank.get(level, 2) >= rank.get(bridged.get(key, "low"), 0) or key not in bridged:
                    bridged[key] = level
        reached = set(bridged)
        why = Counter(_reason(str(u.get("reason") or "")) for u in misses
                      if (u.get("file"), u.get("line")) not in reached)  # fmt: skip
        levels = Counter(bridged.values())
        by_level = ", ".join(f"{k} {levels[k]}" for k in ("high", "medium", "low") if levels[k])
        unresolved = ", ".join(
            f"{k} {v}" for k, v in sorted(why.items(), key=lambda x: (-x[1], x[0]))
        )
        message = (f"{len(sites)} call sites, {len(reached)} bridged"
                   + (f" ({by_level})" if by_level else "")
                   + (f"; unresolved: {unresolved}" if unresolved else ""))  # fmt: skip
        out.append({"section": "bridges", "project": project, "component": cid,
                    "path": comp.doc.path if comp.doc else "", "line": None,
                    "subject": f"{len(reached)}/{len(sites)}", "location": f"{project}/{cid}",
                    "message": message})  # fmt: skip
    return out
