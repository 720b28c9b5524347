"""kb_sql, kb_status and kb_context: SQL escape hatch, freshness report, doc broker."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from mcp_server.budget import Answer
from mcp_server.render import short
from mcp_server.resolve import refuse_all
from mcp_server.sql_answer import render_rows
from mcp_server.state import State, ToolFailure
from warehouse.query_guard import QueryRejected
from warehouse.reader import GLOBAL
from warehouse.sql_worker import shared_worker


def sql(state: State, ans: Answer, query: str, project: str | None) -> None:
    refuse_all(project, "kb_sql")
    scope = state.check_project(project)
    state.manifest()  # the current build
    assert state.warehouse is not None
    parts = [scope, GLOBAL] if scope else [GLOBAL]
    try:
        columns, rows, truncated = shared_worker().run(
            state.warehouse.build_dir, parts, query or ""
        )
    except QueryRejected as exc:
        raise ToolFailure(f"SQL rejected: {exc}") from None
    ans.add(
        f"{len(rows)} rows{' (capped at 200)' if truncated else ''} — partitions {scope}, {GLOBAL}"
    )
    render_rows(state, ans, scope, query or "", columns, rows)


def _parse_day(value: Any) -> date | None:
    if value is None:
        return None
    text = str(value)[:10]
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def status(state: State, ans: Answer, project: str | None) -> None:
    scope = state.check_project(project, allow_all=True)
    manifest = state.manifest()
    ans.add(f"build {manifest.get('build_id')} published {manifest.get('built_at')}")
    comps = manifest.get("components") or {}
    parts = manifest.get("partitions") or {}
    for name in sorted(parts):
        if scope and name not in (scope, GLOBAL):
            continue
        counts = parts[name].get("tables", {}) if isinstance(parts[name], dict) else {}
        shown = ", ".join(
            f"{t}={counts[t]}" for t in ("nodes", "edges", "unresolved", "problems") if t in counts
        )
        ans.add(f"partition {name}: {shown}", prio=5)
        for key in sorted(k for k in comps if k.split("/", 1)[0] == name):
            info = comps[key] or {}
            built = info.get("version", "?")
            now = state.versions.current(str(info["repo"])) if info.get("repo") else "?"
            flag = (
                f"code_graph_stale: {key} built {built} now {now}"
                if now != built
                else f"{key} fresh at {built}"
            )
            ans.add(flag, prio=1 if now != built else 10, group="component", indent="  ")
    if "kb_index_stale" in manifest:
        ans.add(f"kb_index_stale: {manifest['kb_index_stale']}")
    today = datetime.now(UTC).date()
    adr_days, doc_days = state.adr_proposed_days, state.verified_max_days
    old_adrs = [
        r
        for r in state.rows("adrs")
        if r.get("status") == "proposed"
        and (d := _parse_day(r.get("date")))
        and today - d > timedelta(days=adr_days)
        and (not scope or r.get("project") in (scope, "_kb"))
    ]
    ans.add(f"ADRs proposed > {adr_days} days: {len(old_adrs)}")
    for r in sorted(old_adrs, key=lambda r: (str(r.get("project")), str(r.get("id")))):
        ans.add(
            f"{r.get('project')} ADR {r.get('id')} proposed {r.get('date')} ({r.get('path')})",
            prio=20,
            group="adr",
            indent="  ",
        )
    old_docs = [
        r
        for r in state.rows("docs")
        if (d := _parse_day(r.get("verified_at")))
        and today - d > timedelta(days=doc_days)
        and (not scope or r.get("project") in (scope, None))
    ]
    ans.add(f"docs verified > {doc_days} days ago: {len(old_docs)}")
    for r in sorted(old_docs, key=lambda r: str(r.get("path"))):
        ans.add(f"{r['path']} verified {r.get('verified_at')}", prio=25, group="doc", indent="  ")
    rows = list(state.rows("problems")) + (list(state.rows("problems", scope)) if scope else [])
    rows.sort(key=lambda r: (str(r.get("severity")), str(r.get("path")), r.get("line") or 0))
    warn = [r for r in rows if r.get("severity") == "warning"]
    errs = [r for r in rows if r.get("severity") == "error"]
    ans.add(f"validation: {len(errs)} errors, {len(warn)} warnings")
    for r in errs + warn:
        ans.add(
            f"{r['severity']} {r.get('path')}:{r.get('line') or 1} [{r.get('rule')}] {short(r.get('message'), 120)}",
            prio=30,
            group="problem",
            indent="  ",
        )


def context(
    state: State, ans: Answer, task: str, max_tokens: int | None, project: str | None
) -> int:
    """Append the doc context pack; returns the budget it was fitted to."""
    scope = state.check_project(project, allow_all=True)
    state.manifest()
    limit = 8000 if max_tokens is None else int(max_tokens)
    if not (task or "").strip():
        raise ToolFailure("empty task — describe what you are about to do")
    if len(task) > 4000:
        raise ToolFailure(f"task is {len(task)} characters (max 4000) — summarise it")
    try:
        from doc_context.search import search_context
    except ImportError:
        raise ToolFailure("doc index not built — run kb refresh") from None
    assert state.warehouse is not None
    tables = state.manifest().get("partitions", {}).get(GLOBAL, {}).get("tables", {})
    if "doc_chunks" not in tables and not any(
        "doc_chunks" in (p.get("tables") or {}) for p in state.manifest()["partitions"].values()
    ):
        raise ToolFailure("doc index not built — run kb refresh")
    source: object = state.warehouse
    if scope is not None:
        from mcp_server.context_scope import project_index

        build = str(state.manifest().get("build_id"))
        source = project_index(state.warehouse, build, scope, set(state.projects()), state.kb_root)
    pack = search_context(source, task, max_tokens=limit, project=scope, or_fill=True)
    for line in pack.render().splitlines():
        ans.add(line, prio=0)
    return limit
