"""kb_find and kb_compare: cross-project questions from the catalog and knowledge layer.

Both read the `_global` partition only (catalog tables, knowledge nodes). The one
exception is kind=route, which is a code internal: it needs a single project and reads
that project's partition.
"""

from __future__ import annotations

import difflib
from typing import Any

from mcp_server.budget import Answer
from mcp_server.catalog_envs import compare_envs
from mcp_server.catalog_envs import knowledge as _knowledge
from mcp_server.catalog_routes import find_routes
from mcp_server.negatives import NO
from mcp_server.render import short
from mcp_server.route_names import route_parts
from mcp_server.settings import find_rows, find_section
from mcp_server.state import State, ToolFailure
from warehouse.reader import fetch_dicts

CATALOG = {
    "package": "catalog_packages",
    "middleware": "catalog_middleware",
    "host": "catalog_hosts",
    "tf_resource_type": "catalog_tf_types",
    "env_var": "catalog_env_vars",
}
MW_NAME = "json_extract_string(attrs, '$.middleware')"
KINDS = [*CATALOG, "runtime", "integration", "stack", "component", "route"]


def _kind(kind: str | None) -> str:
    kind = (kind or "").strip().lower()
    if kind not in KINDS:
        near = difflib.get_close_matches(kind, KINDS, n=2, cutoff=0.5)
        hint = f" — did you mean {', '.join(near)}?" if near else ""
        raise ToolFailure(f"unknown kind '{short(kind, 40)}'{hint} (kinds: {', '.join(KINDS)})")
    return kind


def _pattern(query: str | None) -> str:
    q = (query or "").strip()
    if not q:
        raise ToolFailure("empty query — pass a name, a glob like 'express*', or '*' for all")
    if len(q) > 200:
        raise ToolFailure(f"query is {len(q)} characters (max 200)")
    esc = q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    if "*" in q or "?" in q:
        return esc.replace("*", "%").replace("?", "_")
    return f"%{esc}%"


def _tables(con: Any) -> set[str]:
    return {
        r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
    }


def _catalog_rows(
    state: State, kind: str, like: str, project: str | None, exact: bool = False
) -> list[dict]:
    con = state.connection(None)
    table = CATALOG[kind]
    if table not in _tables(con):
        return []
    cols = "project, component, name, file, line, attrs" + (
        ", version, declared, ecosystem" if kind == "package" else ""
    )

    def test(col: str) -> str:
        return f"lower({col}) = lower(?)" if exact else f"{col} ILIKE ? ESCAPE '\\'"

    cond, params = test("name"), [like]
    if kind == "middleware":  # the middleware as written (`app.enableCors`), not only its package
        cond = f"({cond} OR {test(MW_NAME)})"
        params.append(like)
    sql = f"SELECT {cols} FROM {table} WHERE {cond}"
    if project:
        sql += " AND project = ?"
        params.append(project)
    sql += " ORDER BY name, project, component, file, line LIMIT 2000"
    return fetch_dicts(con.execute(sql, params))


def _users(state: State, node_ids: list[str], edge_types: list[str]) -> dict[str, list[dict]]:
    """Sources of edges into node_ids (who runs on / integrates ...), with their attrs."""
    if not node_ids:
        return {}
    con = state.connection(None)
    cur = con.execute(
        "SELECT e.dst, s.id, s.kind, s.name, s.attrs, e.file, e.line FROM edges e JOIN nodes s ON s.id = e.src "
        f"WHERE e.dst IN ({','.join('?' * len(node_ids))}) AND e.type IN ({','.join('?' * len(edge_types))}) "
        "ORDER BY s.id",
        [*node_ids, *edge_types],
    )
    out: dict[str, list[dict]] = {}
    for row in fetch_dicts(cur):
        out.setdefault(row.pop("dst"), []).append(row)
    return out


def _loc(row: dict) -> str:
    comp = (
        f"{row.get('project')}/{row['component']}"
        if row.get("component")
        else str(row.get("project"))
    )
    where = (
        f" {row['file']}:{row['line']}"
        if row.get("file") and row.get("line")
        else (f" {row['file']}" if row.get("file") else "")
    )
    return comp + where


def _stacks(state: State, like: str, project: str | None) -> list[dict]:
    rows = _knowledge(state, ["component"], "%", project)
    needle = like.strip("%").replace("%", "").lower()
    out = []
    for row in rows:
        stack = row["attrs"].get("stack")
        text = " ".join(stack) if isinstance(stack, list) else str(stack or "")
        if needle in text.lower() or like == "%":
            out.append({**row, "stack": text, "component": row["name"]})
    return out


def _mw_package(row: dict) -> str:
    return str(
        (row.get("attrs") or {}).get("package") or str(row.get("name") or "").split(".")[0]
    ).lower()


def _written(row: dict) -> str:
    """` as AuthGuard('jwt')` when the middleware is written otherwise than its package."""
    own = (row.get("attrs") or {}).get("middleware")
    return f" as {short(own, 60)}" if own and str(own) != str(row.get("name")) else ""


def _package_of(pkgs: dict[tuple, dict], row: dict) -> str:
    """` — package <name> <version> (<manifest>:<line>)` for a middleware from a package."""
    h = pkgs.get((row.get("project"), row.get("component"), _mw_package(row)))
    if not h:
        return ""
    return f" — package {h['name']} {h.get('version') or h.get('declared') or ''} ({h['file']}:{h['line']})"


def _packages_for(state: State, rows: list[dict]) -> dict[tuple, dict]:
    """(project, component, lower name) → catalog_packages row, for these middleware rows."""
    names = sorted({_mw_package(r) for r in rows} - {""})
    projects = sorted({str(r["project"]) for r in rows})
    con = state.connection(None)
    if not names or CATALOG["package"] not in _tables(con):
        return {}
    cur = con.execute(
        "SELECT project, component, name, version, declared, file, line FROM catalog_packages "
        f"WHERE project IN ({','.join('?' * len(projects))}) "
        f"AND lower(name) IN ({','.join('?' * len(names))})",
        [*projects, *names],
    )
    cols = [d[0] for d in cur.description]
    out: dict[tuple, dict] = {}
    for values in cur.fetchall():
        r = dict(zip(cols, values, strict=True))
        out.setdefault((r["project"], r["component"], str(r["name"]).lower()), r)
    return out


def _version_text(row: dict) -> str:
    """The resolved version and, when it differs, the manifest's declared range."""
    version, declared = row.get("version") or "", row.get("declared") or ""
    if version and declared and declared != version:
        return f" {version} (declared {declared})"
    return f" {version or declared}".rstrip()


def _components_without(state: State, ans: Answer, kind: str, query: str, rows: list[dict]) -> None:
    """A plain no for the components of the matched projects (at most 3) that lack it:
    "does the client also call X?" is answered by the components that do not."""
    projects = sorted({r["project"] for r in rows})
    if not rows or len(projects) > 3 or any(not r.get("component") for r in rows):
        return
    have = {(r["project"], r["component"]) for r in rows}
    lacking = []
    for p in projects:
        comps = sorted(
            c["name"]
            for c in _knowledge(state, ["component"], "%", p)
            if (p, c["name"]) not in have
        )
        if comps:
            lacking.append(f"project {p} components {', '.join(comps)}")
    if lacking:
        ans.add(f"no — per the static graph: no {kind} matching '{query}' in {'; '.join(lacking)}")


def find(state: State, ans: Answer, kind: str, query: str, project: str | None) -> None:
    kind = _kind(kind)
    like = _pattern(query)
    scope = state.check_project(project, allow_all=True)
    where = f"project {scope}" if scope else "all projects"
    if kind == "route":
        find_routes(state, ans, query, scope, where, _no_route)
        return
    if kind in CATALOG:
        rows = _catalog_rows(state, kind, like, scope)
        sdk_line = ""
        if kind == "host" and like == "%":
            rows, sdk_line = _sdk_apart(rows)
        by_name: dict[str, list[dict]] = {}
        for row in rows:
            by_name.setdefault(row["name"], []).append(row)
        projects = {r["project"] for r in rows}
        ans.add(
            f"{kind} matching '{query}' in {where}: {len(by_name)} names, {len(projects)} projects, {len(rows)} declarations"
        )
        pkgs = _packages_for(state, rows) if kind == "middleware" else {}
        for name, group in by_name.items():
            ps = sorted({r["project"] for r in group})
            ans.add(
                f"{name} — {len(group)} in {len(ps)} projects ({', '.join(ps[:6])}{'…' if len(ps) > 6 else ''})",
                prio=5,
            )
            for row in group:
                ver = _version_text(row) if kind == "package" else ""
                if kind == "middleware":
                    ver = _written(row) + _package_of(pkgs, row)
                ans.add(f"{_loc(row)}{ver}", prio=20, group=f"{kind} {name}", indent="  ")
        _components_without(state, ans, kind, query, rows)
        if sdk_line:
            ans.add(sdk_line, prio=8)
        if kind == "host":
            find_section(ans, find_rows(state, kind, query, scope))
    elif kind == "stack":
        rows = _stacks(state, like, scope)
        ans.add(f"components with stack matching '{query}' in {where}: {len(rows)}")
        for row in rows:
            ans.add(
                f"{row['project']}/{row['name']} stack={row['stack']} ({row['file']}:{row['line']})",
                prio=10,
                group="stack",
                indent="  ",
            )
    elif kind == "component":
        rows = _knowledge(state, ["component"], like, scope)
        ans.add(f"components matching '{query}' in {where}: {len(rows)}")
        for row in rows:
            a = row["attrs"]
            bits = " ".join(f"{k}={short(a[k], 40)}" for k in ("role", "stack") if a.get(k))
            ans.add(
                f"{row['project']}/{row['name']} {bits} ({row['file']}:{row['line']})",
                prio=10,
                group="component",
                indent="  ",
            )
    else:
        edge = "RUNS_ON" if kind == "runtime" else "INTEGRATES"
        rows = _knowledge(state, [kind], like, scope)
        users = _users(state, [r["id"] for r in rows], [edge])
        ans.add(
            f"{kind} matching '{query}' in {where}: {len(rows)} in {len({r['project'] for r in rows})} projects"
        )
        for row in rows:
            ans.add(f"{row['name']} — project {row['project']}", prio=5)
            for u in users.get(row["id"], []):
                ans.add(
                    f"{row['project']}: {u['name']} ({u['file']}:{u['line']})",
                    prio=20,
                    group=f"{kind} {row['name']}",
                    indent="  ",
                )
        find_section(ans, find_rows(state, kind, query, scope))
    if len(ans.lines) == 1:
        ans.add(
            f"no — per the static graph: no {kind} matching '{short(query, 60)}' in {where} "
            "(the catalog covers packages, middleware, hosts, tf types, env vars; settings "
            "are matched for runtime, host and integration)"
        )


def _sdk_apart(rows: list[dict]) -> tuple[list[dict], str]:
    """A survey of hosts (`*`) lists the hosts written in code; hosts an SDK reaches by
    itself (a Firebase import implies firestore.googleapis.com) are one summary line."""
    sdk = [r for r in rows if (r.get("attrs") or {}).get("sdk")]
    line = ""
    if sdk:
        by_host: dict[str, set[str]] = {}
        for r in sdk:
            by_host.setdefault(f"{r['name']} ({r['attrs']['sdk']})", set()).add(r["project"])
        shown = "; ".join(f"{h} in {', '.join(sorted(p))}" for h, p in sorted(by_host.items()))
        line = (
            f"not written in code — reached by an SDK on its own ({len(sdk)} imports; "
            f"kb_find host=<name> lists them): {short(shown, 400)}"
        )
    return [r for r in rows if not (r.get("attrs") or {}).get("sdk")], line


def _no_route(state: State, ans: Answer, project: str, query: str) -> None:
    """No route matches: a plain no, with the routes one method or segment away."""
    from mcp_server.render import where
    from mcp_server.route_names import near_routes

    ans.add(f"{NO}: no route matching '{short(query, 80)}' in project {project}.")
    parts = route_parts(query.strip())
    if parts is None:
        return
    pg = state.graph(project)
    near = near_routes(pg, parts[0], parts[1], None)
    if near:
        ans.add("nearest routes (differ by method, one segment or a mount prefix):")
    for n in near:
        ans.add(f"{pg.node(n).get('name')} ({where(pg, n)})", prio=5, indent="  ")


def compare(state: State, ans: Answer, kind: str, name: str, project: str | None) -> None:
    kind = _kind(kind)
    text = (name or "").strip()
    if not text or len(text) > 200:
        raise ToolFailure("pass name= (what to compare, e.g. express, cloud-run, contact-api)")
    scope = state.check_project(project, allow_all=True)
    if kind == "route":
        raise ToolFailure(
            "kb_compare does not compare routes (code internals) — use kb_find kind=route project=<p>"
        )
    if kind in CATALOG:
        rows = _catalog_rows(state, kind, text, scope, exact=True) or _catalog_rows(
            state, kind, _pattern(text), scope
        )
        if not rows:
            raise ToolFailure(
                f"no {kind} named '{short(text, 60)}' in the catalog — try kb_find kind={kind} query='*'"
            )
        versions: dict[str, list[str]] = {}
        for row in rows:
            key = (
                (row.get("version") or row.get("declared") or "?")
                if kind == "package"
                else "declared"
            )
            versions.setdefault(str(key), []).append(f"{row['project']}/{row['component']}")
        if kind == "package":
            summary = "; ".join(f"{v}: {len(c)}" for v, c in sorted(versions.items()))
            ans.add(
                f"{kind} {text} across {len({r['project'] for r in rows})} projects — versions {summary}"
            )
        else:
            ans.add(
                f"{kind} {text} across {len({r['project'] for r in rows})} projects, {len(rows)} declarations"
            )
        ans.add(
            "project/component | "
            + ("version | declared | ecosystem | " if kind == "package" else "name | ")
            + "where"
        )
        for row in rows:
            cells = [f"{row['project']}/{row['component']}"]
            cells += (
                [str(row.get(k) or "∅") for k in ("version", "declared", "ecosystem")]
                if kind == "package"
                else [row["name"]]
            )
            cells.append(f"{row['file']}:{row['line']}" if row.get("file") else "∅")
            ans.add(" | ".join(cells), prio=10, group=kind)
        return
    if kind in ("runtime", "component", "stack"):
        compare_envs(state, ans, kind, text, scope)
        return
    rows = _knowledge(state, [kind], text, scope, exact=True)
    users = _users(state, [r["id"] for r in rows], ["INTEGRATES"])
    ans.add(f"{kind} {text}: {len(rows)} projects")
    for row in rows:
        comps = ", ".join(u["name"] for u in users.get(row["id"], [])) or "∅"
        ans.add(f"{row['project']} | components: {comps}", prio=10, group=kind)
