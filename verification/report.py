"""The verification report: how much of the KB is checked against code, and what drifted.

One set of facts, two renderings: `verification-report.md` in the KB root (generated,
deterministic for the same inputs and day) and the `verification` table (`kb_status`,
SQL). Sections: coverage per project/component, docs stale by their source's date,
docs verified more than `verified_max_days` ago, imports never distilled, drift
(verification.drift), verified docs whose `verified_against` commit is not in the repo, and
bridge coverage per calling component (verification.bridging).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

import polars as pl

from kb.model import KbDoc, KnowledgeBase
from verification.bridging import bridge_rows
from verification.drift import Drift, project_drifts
from warehouse.tables import frame

COMMAND = "kb refresh (asset verification_report)"
SECTIONS = (
    "coverage",
    "stale_source",
    "verified_old",
    "undistilled",
    "drift",
    "unknown_commit",
    "extraction",
    "bridges",
)


def _date(value: Any) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def _sources(doc: KbDoc) -> list[str]:
    value = doc.frontmatter.get("source") or []
    return [str(s) for s in (value if isinstance(value, list) else [value])]


def _checked(doc: KbDoc) -> bool:
    return doc.kind in ("doc", "component") and doc.project is not None


def coverage_rows(kb: KnowledgeBase) -> list[dict[str, Any]]:
    counts: dict[tuple[str, str], list[int]] = {}
    for project in sorted(kb.projects):
        counts[(project, "")] = [0, 0]
        for comp in sorted(kb.projects[project].components):
            counts[(project, comp)] = [0, 0]
    for doc in kb.docs:
        if not _checked(doc):
            continue
        comp = doc.component or (doc.frontmatter.get("id") if doc.kind == "component" else "")
        for key in {(doc.project, ""), (doc.project, str(comp or ""))}:
            cell = counts.setdefault(key, [0, 0])
            cell[1] += 1
            cell[0] += doc.verification.get("status") == "verified"
    rows = []
    for (project, comp), (verified, total) in sorted(counts.items()):
        pct = f"{100 * verified // total}%" if total else "—"
        rows.append(
            {
                "section": "coverage",
                "project": project,
                "component": comp or None,
                "verified": verified,
                "total": total,
                "message": f"{verified}/{total} docs verified ({pct})",
            }
        )
    return rows


def stale_rows(kb: KnowledgeBase, sources: Mapping[str, dict[str, Any]], today: dt.date):
    """Docs older than their source, and docs verified more than verified_max_days ago."""
    by_key = {f"{m.get('system')}:{m.get('id')}": (slug, m) for slug, m in sources.items()}
    rows = []
    for doc in sorted(kb.docs, key=lambda d: d.path):
        if not _checked(doc):
            continue
        verified_at = _date(doc.verification.get("verified_at"))
        for key in _sources(doc):
            slug, meta = by_key.get(key, (None, None))
            if meta is None:
                continue
            current = meta.get("version", meta.get("revision"))
            distilled = meta.get("distilled_version")
            was = distilled.get(doc.path) if isinstance(distilled, dict) else None
            changed = _date(meta.get("modified"))
            if was is not None and str(was) != str(current):
                why = f"{key} is now version {current}; the doc was distilled from {was}"
            elif verified_at and changed and changed > verified_at:
                why = f"{key} changed on {changed}, after the doc was verified on {verified_at}"
            else:
                continue
            rows.append(
                {
                    "section": "stale_source",
                    "project": doc.project,
                    "component": doc.component,
                    "path": doc.path,
                    "line": doc.line_of("source"),
                    "subject": key,
                    "location": f"_imports/raw/{slug}/_source.yaml",
                    "message": why,
                }
            )
        if doc.verification.get("status") == "verified" and verified_at:
            age = (today - verified_at).days
            if age > kb.config.verified_max_days:
                rows.append(
                    {
                        "section": "verified_old",
                        "project": doc.project,
                        "component": doc.component,
                        "path": doc.path,
                        "line": doc.line_of("verification.verified_at"),
                        "subject": str(verified_at),
                        "message": f"verified {age} days ago (> {kb.config.verified_max_days})",
                    }
                )
    return rows


def undistilled_rows(kb: KnowledgeBase, sources: Mapping[str, dict[str, Any]]):
    cited = {key for doc in kb.docs for key in _sources(doc)}
    rows = []
    for slug, meta in sorted(sources.items()):
        key = f"{meta.get('system')}:{meta.get('id')}"
        if meta.get("distilled_into") or key in cited or meta.get("status") == "deleted":
            continue
        rows.append(
            {
                "section": "undistilled",
                "path": f"_imports/raw/{slug}/_source.yaml",
                "line": 1,
                "subject": key,
                "message": f"{meta.get('title')!s} ({key}) was imported but no KB doc cites it",
            }
        )
    return rows


def drift_rows(drifts: list[Drift]) -> list[dict[str, Any]]:
    return [
        {
            "section": "drift",
            "project": d.project,
            "component": d.component or None,
            "path": d.doc_path,
            "line": d.doc_line,
            "rule": d.rule,
            "subject": d.claim,
            "location": d.code_location,
            "message": d.message,
        }
        for d in drifts
    ]


def extraction_rows(project: str, coverage: pl.DataFrame | None) -> list[dict[str, Any]]:
    """A declared web framework or HTTP client the graph has nothing from (the warehouse's
    `coverage` table, extractors/coverage.py): the code the docs are checked against is
    incomplete there."""
    if coverage is None or coverage.is_empty() or "warning" not in coverage.columns:
        return []
    return [
        {
            "section": "extraction",
            "project": project,
            "component": r["component"],
            "path": r["file"],
            "line": r["line"],
            "rule": r["status"],
            "subject": r["package"],
            "location": f"{r['project']}/{r['component']}",
            "message": r["warning"],
        }
        for r in coverage.filter(pl.col("warning").is_not_null())
        .sort("component", "package")
        .iter_rows(named=True)
    ]


def build_verification(
    kb: KnowledgeBase,
    project_tables: Mapping[str, Mapping[str, pl.DataFrame]],
    sources: Mapping[str, dict[str, Any]],
    today: dt.date | None = None,
    drifts_of: Callable[..., tuple[list[Drift], list[str]]] = project_drifts,
) -> tuple[str, pl.DataFrame]:
    """(verification-report.md text, `verification` table) for the whole KB.
    `drifts_of(kb, project, tables)` is `project_drifts` or a caller's memo of it."""
    if today is None:
        from kb.validate import kb_today  # KB_TODAY pins the clock, as for validation

        today = kb_today()
    rows = coverage_rows(kb) + stale_rows(kb, sources, today) + undistilled_rows(kb, sources)
    for project in sorted(kb.projects):
        tables = dict(project_tables.get(project) or {})
        drifts, unknown = drifts_of(kb, project, tables)
        rows += drift_rows(drifts)
        rows += extraction_rows(project, tables.get("coverage"))
        rows += bridge_rows(kb, project, tables)
        for path in unknown:
            doc = next(d for d in kb.docs if d.path == path)
            commit = doc.verification.get("verified_against")
            rows.append(
                {
                    "section": "unknown_commit",
                    "project": project,
                    "component": doc.component or doc.frontmatter.get("id"),
                    "path": path,
                    "line": doc.line_of("verification.verified_against"),
                    "subject": str(commit),
                    "message": f"verified_against {commit} is not a commit of the repo "
                    "here: changes since verification can't be checked",
                }
            )
    for row in rows:
        row["as_of"] = today.isoformat()
    df = frame("verification", rows)
    return render_report(kb, rows, today), df


def render_report(kb: KnowledgeBase, rows: list[dict[str, Any]], today: dt.date) -> str:
    def sect(name):
        return [r for r in rows if r["section"] == name]

    def loc(r):
        return f"`{r['path']}:{r['line']}`" if r.get("line") else f"`{r.get('path')}`"

    out = [
        f"<!-- GENERATED by `{COMMAND}` — do not edit; regenerate with `kb refresh`. -->",
        f"# Verification report — {kb.config.name}",
        "",
        f"As of {today.isoformat()}. Verified = `verification.status: verified` against a commit.",
        "",
        "## Coverage",
        "",
        "| project | component | verified | docs |",
        "| --- | --- | --- | --- |",
    ]
    for r in sect("coverage"):
        out.append(
            f"| {r['project']} | {r.get('component') or '*(all)*'} | {r['verified']} | {r['total']} |"
        )
    blocks = [
        (
            "Drift (doc says ↔ code has)",
            "drift",
            lambda r: f"- {loc(r)} ↔ `{r['location']}` — {r['message']} [{r['rule']}]",
        ),
        (
            "Docs stale by source date",
            "stale_source",
            lambda r: f"- {loc(r)} — {r['message']} (`{r['location']}`)",
        ),
        (
            f"Docs verified more than {kb.config.verified_max_days} days ago",
            "verified_old",
            lambda r: f"- {loc(r)} — {r['message']}",
        ),
        ("Imports never distilled", "undistilled", lambda r: f"- {loc(r)} — {r['message']}"),
        (
            "Verification commits not found in the repo",
            "unknown_commit",
            lambda r: f"- {loc(r)} — {r['message']}",
        ),
        (
            "Bridge coverage (call sites per component, reached routes, why not)",
            "bridges",
            lambda r: f"- `{r['location']}` — {r['message']}",
        ),
        (
            "Declared frameworks and clients the code graph has nothing from",
            "extraction",
            lambda r: f"- `{r['location']}` {loc(r)} — {r['message']} [{r['rule']}]",
        ),
    ]
    for title, name, render in blocks:
        items = sect(name)
        out += ["", f"## {title} ({len(items)})", ""]
        out += [render(r) for r in items] or ["None."]
    return "\n".join(out) + "\n"
