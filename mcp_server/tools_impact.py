"""kb_impact: what changes or breaks when a target changes or is rotated.

Walks the graph backwards from the target (readers, callers, routes, HTTP callers in
other repos), then adds the affected components' deploy environments, Terraform that
provisions or mentions it, and the docs and ADRs that mention it.
"""

from __future__ import annotations

import re
from collections import deque

from mcp_server.budget import Answer
from mcp_server.facts import (
    at,
    declarations,
    declared_text,
    eattrs,
    ins,
    is_test,
    name,
    outs,
    secret_payload,
)
from mcp_server.graph import ProjectGraph, folder_of
from mcp_server.impact_calls import base_call_sites, render_sites
from mcp_server.impact_code import KNOWN_TYPES, is_code, reach, render
from mcp_server.impact_targets import no_target, seeds_for, settings_naming
from mcp_server.lookup import plain_no
from mcp_server.render import attrs_text, edge_label, ref, short, where
from mcp_server.resolve import candidates, pick_project
from mcp_server.route_names import route_parts
from mcp_server.state import State, ToolFailure
from vocab import EDGE_TYPES
from warehouse.reader import GLOBAL

# Every code and catalog edge, and the bridges/knowledge edges a change travels back along.
UPSTREAM = {*EDGE_TYPES["code"], *EDGE_TYPES["catalog"], "RESOLVES_TO", "CALLS", "USES_SECRET"} - {
    "IMPORTS",
    "DEFINES",
}
MAX_DEPTH = 5
_URLISH = re.compile(r"^[a-z]+://|^[\w-]+(\.[\w-]+)+(/|$)", re.I)


def _walk(pg: ProjectGraph, seeds: list[str], types: set[str]) -> list[tuple[str, str, dict, int]]:
    """(node, reached-from, edge data, depth) upstream of the seeds, breadth first."""
    seen = set(seeds)
    queue = deque((s, 0) for s in seeds)
    found: list[tuple[str, str, dict, int]] = []
    while queue:
        node, depth = queue.popleft()
        if depth >= MAX_DEPTH:
            continue
        for u, _, d in pg.g.in_edges(node, data=True):
            t = d.get("type")
            newer = types is UPSTREAM and t not in KNOWN_TYPES  # e.g. READS_COOKIE
            if u in seen or not (t in types or newer):
                continue
            kind = pg.node(u).get("kind")
            seen.add(u)
            found.append((u, node, d, depth + 1))
            if kind not in {"component", "project"}:
                queue.append((u, depth + 1))
    return found


def impact(
    state: State, ans: Answer, target: str, project: str | None, component: str | None
) -> None:
    text = (target or "").strip()
    if not text:
        raise ToolFailure(
            "empty target — pass a secret, env var, route, file or folder, symbol, package, Terraform resource or URL"
        )
    if len(text) > 500:
        raise ToolFailure(f"target is {len(text)} characters (max 500)")
    pg = state.graph(pick_project(state, project, text))
    if route_parts(text) and not candidates(pg, text, component):
        plain_no(pg, ans, text, component, "target")
        return
    seeds = seeds_for(pg, text, component)
    if not seeds:
        no_target(pg, ans, text, component)
        return
    label = ref(pg, seeds[0]) if len(seeds) == 1 else f"{len(seeds)} nodes named {text}"
    ans.add(f"impact of {label} in project {pg.project}")
    for s in seeds:
        ans.touch(pg.node(s).get("project"), pg.node(s).get("component"))
    comps: set[str] = {str(pg.node(s)["component"]) for s in seeds if pg.node(s).get("component")}
    code_seeds = [s for s in seeds if is_code(pg.node(s).get("kind"))]
    for s in seeds:  # a component: what calls into it (its routes' callers)
        if pg.node(s).get("kind") == "component" and pg.node(s).get("project") == pg.project:
            comp = str(pg.node(s).get("name"))
            comps.add(comp)
            code_seeds += [n for n, d in pg.of_kind("route") if d.get("component") == comp]
    found: list[tuple[str, str, dict, int]] = []
    if code_seeds:
        _about(pg, ans, code_seeds)
        got = reach(pg, code_seeds)
        render(pg, ans, got)
        comps |= got.components
        calls = base_call_sites(pg, seeds, {c for c, _, _ in got.sites})
        render_sites(pg, ans, calls)
        if not (got.readers or got.routes or got.sites or got.callers or calls):
            ans.add("no readers or callers per the static graph (production code)")
            _unresolved(pg, ans, comps)
        code_files = [s for s in code_seeds if pg.node(s).get("kind") == "code_file"]
        if code_files:
            found = _walk(pg, code_files, {"IMPORTS"})
            _listing(pg, ans, found, comps, "importers")
    else:
        found = _walk(pg, seeds, UPSTREAM)
        _listing(pg, ans, found, comps, "readers and callers")
        if not found:
            ans.add("no readers or callers per the static graph")
            _unresolved(pg, ans, comps)
    settings_naming(pg, ans, seeds, text)
    _deploy(pg, ans, comps)
    _terraform(pg, ans, seeds, text)
    direct = [
        str(pg.node(n).get("name"))
        for n, _, _, depth in found
        if depth == 1 and pg.node(n).get("kind") in {"env_var", "secret"}
    ] + [
        str(pg.node(n).get("name"))
        for s in seeds
        for n, _ in ins(pg, s, "RESOLVES_TO") + outs(pg, s, "RESOLVES_TO")
    ]
    _docs(
        state,
        ans,
        pg.project,
        [text] + [str(pg.node(s).get("name")) for s in seeds[:3]] + direct[:3],
    )


def _about(pg: ProjectGraph, ans: Answer, seeds: list[str]) -> None:
    """Where an env var is declared and which secret it resolves to; a secret's env vars."""
    for s in seeds[:4]:
        kind = pg.node(s).get("kind")
        if kind == "env_var":
            secrets = ", ".join(_secret_text(pg, v, d) for v, d in outs(pg, s, "RESOLVES_TO"))
            extra = f"; resolves to secret {secrets}" if secrets else ""
            ans.add(
                f"{name(pg, s, 60)} in {pg.node(s).get('component')}: {declared_text(pg, s)}{extra}"
            )
        elif kind == "secret":
            a = pg.attrs(s)
            bits = " ".join(
                f"{k}={short(a[k], 60)}" for k in ("env_var", "store", "ref") if a.get(k)
            )
            ans.add(f"secret {name(pg, s, 60)} {bits} ({where(pg, s)})")
            for e, _ in ins(pg, s, "RESOLVES_TO"):
                told = declared_text(pg, e).removeprefix(where(pg, e) + "; ")
                ans.add(f"resolved from {ref(pg, e)}; {told}")
            _payload(pg, ans, s)
            users = [u for u, _ in ins(pg, s, "USES_SECRET")]
            if users:
                ans.add("used by components: " + ", ".join(name(pg, u, 30) for u in users))


def _secret_text(pg: ProjectGraph, secret: str, data: dict) -> str:
    """A secret an env var resolves to, with the secret id's own line when the edge has it."""
    a = eattrs(data)
    sid = f" (secret_id {short(a['secret_id'], 40)} at {a['at']})" if a.get("at") else ""
    return f"{name(pg, secret, 60)}{sid}"


def _payload(pg: ProjectGraph, ans: Answer, secret: str) -> None:
    """The env vars a catalog secret's Terraform payload carries, each at its line."""
    for t, carried in secret_payload(pg, secret):
        ans.add(f"{ref(pg, t)} carries {len(carried)} env vars in its payload:")
        for e, d in carried:
            here = f"{d.get('file')}:{d.get('line')}"
            also = [x for x in declarations(pg, e) if not x.startswith(here)]
            more = f"; also declared in {', '.join(also)}" if also else ""
            ans.add(f"{name(pg, e, 40)} at {at(pg, e, d)}{more}", indent="  ")


def _unresolved(pg: ProjectGraph, ans: Answer, comps: set[str]) -> None:
    for comp in sorted(comps):
        for row in pg.unresolved_of(comp)[:5]:
            ans.add(
                f"  unresolved {row['kind']} {short(row['expr'], 60)} ({row['file']}:{row['line']})",
                prio=40,
            )


def _listing(
    pg: ProjectGraph,
    ans: Answer,
    found: list[tuple[str, str, dict, int]],
    comps: set[str],
    title: str,
) -> None:
    prod = [f for f in found if not is_test(pg.node(f[0]).get("file"))]
    if found:
        tests = len(found) - len(prod)
        ans.add(f"{title} ({len(prod)}" + (f", +{tests} in tests left out):" if tests else "):"))
    for node, via, d, depth in prod:
        data = pg.node(node)
        ans.touch(data.get("project"), data.get("component"))
        if data.get("component"):
            comps.add(data["component"])
        if data.get("kind") == "component":
            comps.add(str(data.get("name")))
        fold = folder_of(data.get("file")) if data.get("kind") == "code_file" else None
        hop = f"{edge_label(d)} {short(pg.node(via).get('name'), 60)}"
        ans.add(
            f"{ref(pg, node)} {hop}",
            prio=10 * depth,
            group=d["type"],
            fold=fold,
            indent="  " * depth,
        )


def _deploy(pg: ProjectGraph, ans: Answer, comps: set[str]) -> None:
    rows = []
    for comp in sorted(comps):
        cid = f"{pg.project}:component:{comp}"
        if cid not in pg.g:
            continue
        for _, env, d in pg.g.out_edges(cid, data=True):
            if d.get("type") == "HAS_ENV":
                attrs = pg.attrs(env)
                bits = [
                    f"{k}={short(attrs[k], 60)}"
                    for k in ("runtime", "url", "gcp_project", "region")
                    if attrs.get(k)
                ]
                rows.append(f"{pg.node(env).get('name')} {' '.join(bits)}".rstrip())
    if rows:
        ans.add(f"deploy environments of affected components ({', '.join(sorted(comps))}):")
        for row in rows:
            ans.add(row, prio=20, group="HAS_ENV", indent="  ")


def _terraform(pg: ProjectGraph, ans: Answer, seeds: list[str], text: str) -> None:
    names = {text.lower()} | {str(pg.node(s).get("name")).lower() for s in seeds}
    names.discard("")
    hits = []
    for n, d in pg.of_kind("tf_resource"):
        if n in seeds:
            continue
        blob = (str(d.get("name")) + " " + attrs_text(d)).lower()
        if any(name in blob for name in names if len(name) >= 3):
            hits.append(n)
    for s in seeds:
        if pg.node(s).get("kind") == "tf_resource":
            hits.extend(
                v for _, v, d in pg.g.out_edges(s, data=True) if d.get("type") == "PROVISIONS"
            )
    if hits:
        ans.add(f"terraform ({len(hits)}):")
        for n in sorted(set(hits)):
            ans.touch(pg.node(n).get("project"), pg.node(n).get("component"))
            ans.add(ref(pg, n), prio=25, group="terraform", indent="  ")


def foreign(path: object, project: str) -> bool:
    """A KB doc under another project's folder (`projects/<other>/...`)."""
    parts = str(path or "").split("/")
    return len(parts) > 2 and parts[0] == "projects" and parts[1] != project


def _docs(state: State, ans: Answer, project: str, needles: list[str]) -> None:
    """Docs and ADRs of this project (or the KB's own) whose frontmatter or text mentions a needle."""
    needles = sorted({n.lower() for n in needles if n and len(n) >= 3})[:6]
    if not needles:
        return
    rows: list[str] = []
    for adr in state.rows("adrs"):
        if adr.get("project") not in (project, None, "_kb"):
            continue
        if any(n in str(adr.get("summary") or "").lower() for n in needles):
            rows.append(f"ADR {adr['id']} ({adr.get('status')}) {adr.get('path')}")
    for doc in state.rows("docs"):
        if doc.get("project") not in (project, None) or foreign(doc.get("path"), project):
            continue
        blob = f"{doc.get('title') or ''} {doc.get('frontmatter') or ''}".lower()
        if any(n in blob for n in needles):
            title = f" — {short(doc['title'], 80)}" if doc.get("title") else ""
            rows.append(f"doc {doc['path']}{title}")
    listed = {r.split(" ")[1] for r in rows if r.startswith("doc ")}
    for partition in (GLOBAL, project):
        for chunk in state.rows("doc_chunks", partition):
            path = str(chunk.get("path") or "")
            if (
                chunk.get("project") not in (project, "_kb")
                or path in listed
                or foreign(path, project)
            ):
                continue
            if any(n in str(chunk.get("text") or "").lower() for n in needles):
                listed.add(path)
                where = f"{chunk.get('component')}: " if partition != GLOBAL else ""
                heading = short(str(chunk.get("heading_path") or ""), 60)
                rows.append(f"doc {where}{path}:{chunk.get('start_line')} § {heading}")
    if rows:
        ans.add(f"docs and ADRs mentioning it ({len(rows)}):")
        for row in rows[:40]:
            ans.add(row, prio=30, group="docs", indent="  ")
