"""Routes across projects, from the catalog: for kb_find and for cross-project negatives.

The `_global` partition's `catalog_routes` table lists every route of every project (name,
method, path, declaring `file:line`) — the one code-level fact the catalog carries, so
"which projects serve POST /api/users?" needs no project's partition. A warehouse
published before that table existed (its view is empty) answers from each partition's
route nodes instead, the same columns.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mcp_server.budget import Answer
from mcp_server.negatives import NO
from mcp_server.render import short
from mcp_server.route_names import match_tier, route_parts
from mcp_server.route_regex import readable_name, readable_path
from mcp_server.state import State
from warehouse.reader import dict_rows, fetch_dicts

TABLE = "catalog_routes"
COLUMNS = ("project", "component", "name", "method", "path", "file", "line")


def all_routes(state: State) -> list[dict[str, Any]]:
    """Every project's routes (project, component, name, method, path, file, line)."""

    def make() -> list[dict[str, Any]]:
        con = state.connection(None)
        tables = {
            r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        }
        if TABLE in tables:
            sql = f"SELECT {', '.join(COLUMNS)} FROM {TABLE} ORDER BY project, component, name, file, line"
            rows = [_readable(r) for r in fetch_dicts(con.execute(sql))]
            if rows:
                return rows
        out: list[dict[str, Any]] = []  # an older warehouse (its view is empty), or no route
        for p in state.projects():
            df = state.read(p, "nodes")
            if not df.height or "kind" not in df.columns:
                continue
            for row in dict_rows(df.filter(df["kind"] == "route")):
                a = row.get("attrs") or {}
                method, _, path = str(row.get("name") or "").partition(" ")
                out.append(_readable({
                    "project": row["project"], "component": row.get("component"), "name": row["name"],
                    "method": a.get("method") or method, "path": a.get("path") or path,
                    "file": row.get("file"), "line": row.get("line"),
                }))  # fmt: skip
        return out

    return state.cached(TABLE, make)


def _readable(row: dict[str, Any]) -> dict[str, Any]:
    """A regex-registered route named by the path it serves (as the project view names it)."""
    name, path = str(row.get("name") or ""), str(row.get("path") or "")
    return {**row, "name": readable_name(name), "path": readable_path(path)}


def serving(state: State, method: str | None, path: str, exclude: str | None = None) -> list[dict]:
    """Catalog routes the typed route matches (exact, parameters or holes), best first."""
    hits = []
    for row in all_routes(state):
        if row["project"] == exclude:
            continue
        tier = match_tier(method, path, str(row.get("method") or "ANY"), str(row.get("path") or ""))
        if tier is not None and tier <= 2:
            hits.append((tier, row))
    return [r for _, r in sorted(hits, key=lambda x: (x[0], x[1]["project"], x[1]["name"]))]


def foreign_lookup(state: State, project: str):
    """`(method, path) → [other projects serving it]` for the negatives engine."""

    def lookup(method: str | None, path: str) -> list[str]:
        return sorted({r["project"] for r in serving(state, method, path, exclude=project)})

    return lookup


def find_routes(
    state: State, ans: Answer, query: str, scope: str | None, where: str, no_route: Callable
) -> None:
    """Routes matching a query (`METHOD /path` with holes or parameters, a glob, `*`), from
    the catalog: across projects with project='*', grouped by route name."""
    q = query.strip()
    parts = route_parts(q) if "*" not in q and "?" not in q else None
    if parts is not None:
        rows = [r for r in serving(state, parts[0], parts[1]) if not scope or r["project"] == scope]
    else:
        like = _glob(q)
        rows = [
            r
            for r in all_routes(state)
            if (not scope or r["project"] == scope) and like.search(str(r["name"]))
        ]
    by_name: dict[str, list[dict]] = {}
    for r in rows:
        by_name.setdefault(str(r["name"]), []).append(r)
    projects = sorted({r["project"] for r in rows})
    ans.add(
        f"routes matching '{short(q, 80)}' in {where}: {len(by_name)} routes, {len(projects)} projects, {len(rows)} registrations"
    )
    if not rows:
        if scope:
            no_route(state, ans, scope, q)
        else:
            ans.add(f"{NO}: no route matching '{short(q, 80)}' in any project's catalog")
        return
    for name, group in by_name.items():
        if len(by_name) > 1 or len(group) > 1:
            ps = sorted({r["project"] for r in group})
            ans.add(
                f"{name} — {len(group)} in {len(ps)} projects ({', '.join(ps[:6])}{'…' if len(ps) > 6 else ''})",
                prio=5,
            )
        for r in group:
            ans.touch(r["project"], r.get("component"))
            ans.add(
                f"{name} ({r['project']}/{r.get('component')} {r.get('file')}:{r.get('line')})",
                prio=10,
                group=f"route {name}",
                indent="  ",
            )


def _glob(query: str) -> re.Pattern[str]:
    """A glob (`*`, `?`) or a plain substring as a case-insensitive regex."""
    if "*" in query or "?" in query:
        body = re.escape(query).replace("\\*", ".*").replace("\\?", ".")
        return re.compile(f"^{body}$", re.I)
    return re.compile(re.escape(query), re.I)
