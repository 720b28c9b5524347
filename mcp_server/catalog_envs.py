"""kb_compare for env-instance kinds: runtime, URL, GCP project per component/env."""

from __future__ import annotations

from typing import Any

from mcp_server.budget import Answer
from mcp_server.render import short
from mcp_server.state import State, ToolFailure
from warehouse.reader import fetch_dicts


def knowledge(
    state: State, kinds: list[str], like: str, project: str | None, exact: bool = False
) -> list[dict]:
    con = state.connection(None)
    cond = "lower(name) = lower(?)" if exact else "name ILIKE ? ESCAPE '\\'"
    sql = f"SELECT id, project, kind, name, file, line, attrs FROM nodes WHERE kind IN ({','.join('?' * len(kinds))}) AND {cond}"
    params: list[Any] = [*kinds, like]
    if project:
        sql += " AND project = ?"
        params.append(project)
    return fetch_dicts(con.execute(sql + " ORDER BY project, name LIMIT 2000", params))


def compare_envs(state: State, ans: Answer, kind: str, text: str, scope: str | None) -> None:
    """Env instances side by side: runtime, URL, GCP project per component/env."""
    con = state.connection(None)
    sql = "SELECT project, name, file, line, attrs FROM nodes WHERE kind = 'env_instance'"
    params: list[Any] = []
    if scope:
        sql += " AND project = ?"
        params.append(scope)
    rows = fetch_dicts(con.execute(sql + " ORDER BY project, name", params))
    comps = {
        r["project"] + "/" + r["name"]: r["attrs"]
        for r in knowledge(state, ["component"], "%", scope)
    }
    t = text.lower()
    out = []
    for row in rows:
        project, name, file, line, a = (
            row[k] for k in ("project", "name", "file", "line", "attrs")
        )
        comp = str(a.get("component") or name.split(" ")[0])
        stack = comps.get(f"{project}/{comp}", {}).get("stack")
        stack_s = " ".join(stack) if isinstance(stack, list) else str(stack or "")
        keys = {
            "runtime": str(a.get("runtime") or ""),
            "component": comp,
            "stack": stack_s,
        }
        if t != "*" and t not in keys[kind].lower():
            continue
        out.append(
            f"{project}/{comp} | {a.get('env', '?')} | {a.get('runtime') or '∅'} | {short(a.get('url') or '∅', 60)} | {a.get('gcp_project') or '∅'} | {file}:{line}"
        )
    if not out:
        raise ToolFailure(
            f"no environment with {kind} matching '{short(text, 60)}' — try kb_find kind={kind} query='*'"
        )
    ans.add(f"{kind} '{text}': {len(out)} environments")
    ans.add("project/component | env | runtime | url | gcp_project | where")
    for line in out:
        ans.add(line, prio=10, group="env")
