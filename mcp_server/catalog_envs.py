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


def _roles(comps: dict[str, dict], text: str) -> set[str]:
    """The roles a kb_compare kind=component name stands for: the name itself when it is a
    role (`api`, `frontend`), and the role of every component of that name, so `contact-api`
    is compared with every other API, whatever each project calls it."""
    roles = {str(a.get("role") or "").lower() for a in comps.values()} - {""}
    named = {
        str(a.get("role") or "").lower()
        for key, a in comps.items()
        if key.split("/", 1)[-1].lower() == text and a.get("role")
    }
    return named | ({text} if text in roles else set())


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
    roles = _roles(comps, t) if kind == "component" else set()
    out = []
    seen: set[str] = set()
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
        role = str(comps.get(f"{project}/{comp}", {}).get("role") or "").lower()
        if kind == "component" and roles:
            if role not in roles and comp.lower() != t:
                continue
        elif t != "*" and t not in keys[kind].lower():
            continue
        seen.add(f"{project}/{comp}")
        out.append(
            f"{project}/{comp} | {role or '∅'} | {short(stack_s or '∅', 40)} | {a.get('env', '?')} | {a.get('runtime') or '∅'} | {short(a.get('url') or '∅', 60)} | {a.get('gcp_project') or '∅'} | {file}:{line}"
        )
    if not out:
        raise ToolFailure(
            f"no environment with {kind} matching '{short(text, 60)}' — try kb_find kind={kind} query='*'"
        )
    if roles:
        ans.add(
            f"components by role ({', '.join(sorted(roles))}) — '{text}': {len(out)} environments"
        )
    else:
        ans.add(f"{kind} '{text}': {len(out)} environments")
    ans.add("project/component | role | stack | env | runtime | url | gcp_project | where")
    for line in out:
        ans.add(line, prio=10, group="env")
    bare = sorted(
        k
        for k, a in comps.items()
        if roles and k not in seen and str(a.get("role") or "").lower() in roles
    )
    if bare:
        ans.add(f"same role, no environment declared ({len(bare)}): {', '.join(bare)}", prio=12)
