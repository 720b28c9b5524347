"""The code side of kb_impact: readers, through callers and middleware to routes, to callers.

From the target's code nodes (a secret's env vars, an env var, a file's symbols, a
handler, a middleware, a route) the walk goes: readers (READS_ENV with the read line)
→ their callers (CALLS_FN, a few levels) → the routes they serve (ROUTES_TO) or guard
(a middleware whose symbol is reached → every route with USES_MIDDLEWARE to it) → the
call sites in other components that reach those routes (CALLS). Imports are not
followed (a settings variable's impact is its readers, not every importer of the
config module). Test code is counted apart and never expanded.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from mcp_server.budget import Answer
from mcp_server.facts import (
    at,
    call_site_text,
    callers_http,
    ins,
    is_test,
    middleware_of_symbol,
    name,
    outs,
    secret_payload,
    via_text,
)
from mcp_server.graph import ProjectGraph, folder_of
from mcp_server.provenance import call_tail, route_tail
from mcp_server.render import short, where
from vocab import EDGE_TYPES, NODE_KINDS

CODE_KINDS = {
    "symbol", "middleware", "code_file", "env_var", "route", "http_call", "secret", "setting",
}  # fmt: skip
KNOWN_KINDS = {k for group in NODE_KINDS.values() for k in group}


def is_code(kind: object) -> bool:
    """A kind the code walk starts from: the code kinds, and any newer kind (a cookie)."""
    return kind in CODE_KINDS or kind not in KNOWN_KINDS


CALLER_DEPTH = 4
TAILED = 5  # a longer list of routes or call sites goes without provenance lines


def inline_reads(pg: ProjectGraph, env: str) -> list[tuple[str, dict]]:
    """Reads written inside a route registration: by the route itself, or by a middleware
    built right there (`router.get(p, jwt({secret: process.env.X}))` — the read's line is
    the line where a route gets that middleware)."""
    out = []
    for u, d in ins(pg, env, "READS_ENV"):
        kind = pg.node(u).get("kind")
        if kind == "route":
            out.append((u, d))
        elif kind == "middleware":
            at = (d.get("file"), d.get("line"))
            uses = [e for _, e in ins(pg, u, "USES_MIDDLEWARE")]
            if any((e.get("file"), e.get("line")) == at for e in uses):
                out.append((u, d))
    return out


def inline_line(pg: ProjectGraph, reads: list[tuple[str, dict]]) -> str:
    """Reads written inside route registrations (`router.get(p, jwt({secret: process.env.X}))`)
    are one fact — a middleware built per route — said once with its registration lines,
    not a list of "readers"."""
    lines = sorted(
        {
            (d.get("file") or pg.node(u).get("file"), d.get("line") or pg.node(u).get("line"))
            for u, d in reads
        }
    )
    files: dict[str, list[str]] = {}
    for f, ln in lines:
        files.setdefault(str(f), []).append(str(ln))
    shown = "; ".join(f"{f}:{','.join(v)}" for f, v in files.items())
    comp = pg.node(reads[0][0]).get("component")
    return f"read inline where {len(lines)} route registrations build a middleware ({pg.project}/{comp} {shown})"


@dataclass
class Reach:
    readers: list[tuple[str, dict, str]] = field(default_factory=list)  # (reader, edge, read)
    callers: list[tuple[str, dict, int]] = field(default_factory=list)  # (caller, edge, depth)
    routes: dict[str, str] = field(default_factory=dict)  # route → how it is reached
    sites: list[tuple[str, str, dict]] = field(default_factory=list)  # (call, route, edge)
    tests: list[str] = field(default_factory=list)  # test locations
    module: list[str] = field(default_factory=list)  # functions of a file read at module level
    components: set[str] = field(default_factory=set)


def _test_node(pg: ProjectGraph, node: str, data: dict | None = None) -> bool:
    return is_test((data or {}).get("file") or pg.node(node).get("file"))


KNOWN_TYPES = {t for group in EDGE_TYPES.values() for t in group}


def _callers(pg: ProjectGraph, node: str) -> list[tuple[str, dict]]:
    """Who calls or uses the node: CALLS_FN, and any newer edge type the vocabulary does
    not know yet (a config-value use site, a cookie read), so the walk keeps up with it."""
    return [
        (u, d)
        for u, _, d in pg.g.in_edges(node, data=True)
        if d.get("type") == "CALLS_FN" or d.get("type") not in KNOWN_TYPES
    ]


def expand(pg: ProjectGraph, seeds: list[str]) -> tuple[list[str], list[str]]:
    """(env var nodes, code nodes) the seeds stand for (secret → its env vars, file → symbols)."""
    envs, code = [], []
    for s in seeds:
        kind = pg.node(s).get("kind")
        if kind == "secret":
            envs += [u for u, _ in ins(pg, s, "RESOLVES_TO")]
            envs += _payload_envs(pg, s)
        elif kind == "env_var":
            envs.append(s)
        elif kind == "code_file":
            path, comp = pg.node(s).get("file"), pg.node(s).get("component")
            code.append(s)
            code += [v for v, _ in outs(pg, s, "DEFINES")]
            code += [
                n
                for n in pg.by_file.get(path or "", [])
                if pg.node(n).get("component") == comp and n != s
            ]
        elif is_code(kind):
            code.append(s)
    return sorted(set(envs)), list(dict.fromkeys(code))


def _payload_envs(pg: ProjectGraph, secret: str) -> list[str]:
    """The env vars a secret's Terraform payload carries, and the same-named env vars of the
    components that use the secret (the code that reads what the payload sets)."""
    carried = [e for _, rows in secret_payload(pg, secret) for e, _ in rows]
    names = {str(pg.node(e).get("name")).lower() for e in carried}
    users = {str(pg.node(u).get("name")) for u, _ in ins(pg, secret, "USES_SECRET")}
    same = [
        n
        for low in names
        for n in pg.by_name.get(low, [])
        if pg.node(n).get("kind") == "env_var" and pg.node(n).get("component") in users
    ]
    return carried + same


def reach(pg: ProjectGraph, seeds: list[str]) -> Reach:
    out = Reach()
    envs, code = expand(pg, seeds)
    start: list[str] = []
    # a constant or setting read at use sites (READS_ENV with `constant`) has readers too
    valued = [c for c in code if pg.node(c).get("kind") in ("symbol", "setting")]
    for e in envs + valued:
        out.components.add(pg.node(e).get("component") or "")
        for u, d in ins(pg, e, "READS_ENV"):
            if _test_node(pg, u, d):
                out.tests.append(f"{at(pg, u, d)} reads {name(pg, e, 40)}")
                continue
            out.readers.append((u, d, e))
            start.append(u)
            if pg.node(u).get("kind") == "code_file":  # a module-level read: its functions use it
                out.module.extend(v for v, _ in outs(pg, u, "DEFINES") if not _test_node(pg, v))
    start += code + out.module
    seen = set(start)
    queue = deque((n, 0) for n in start)
    while queue:
        node, depth = queue.popleft()
        data = pg.node(node)
        out.components.add(data.get("component") or "")
        kind = data.get("kind")
        if kind == "route":
            out.routes.setdefault(node, "the target (or a route of it)")
        for r, _ in ins(pg, node, "ROUTES_TO"):
            out.routes.setdefault(r, f"handler {name(pg, node, 50)}")
        mids = middleware_of_symbol(pg).get(node, []) + ([node] if kind == "middleware" else [])
        for m in mids:
            for r, d in ins(pg, m, "USES_MIDDLEWARE"):
                out.routes.setdefault(r, f"middleware {name(pg, m, 40)} at {at(pg, r, d)}")
        if depth >= CALLER_DEPTH:
            continue
        for u, d in _callers(pg, node):
            if u in seen:
                continue
            seen.add(u)
            if _test_node(pg, u, d):
                out.tests.append(f"{at(pg, u, d)} calls {name(pg, node, 40)}")
                continue
            out.callers.append((u, d, depth + 1))
            queue.append((u, depth + 1))
    for r in out.routes:
        out.components.add(pg.node(r).get("component") or "")
        for c, d in callers_http(pg, r):
            if _test_node(pg, c):
                out.tests.append(f"{where(pg, c)} calls {name(pg, r, 50)}")
                continue
            out.sites.append((c, r, d))
            out.components.add(pg.node(c).get("component") or "")
    out.components.discard("")
    return out


def render(pg: ProjectGraph, ans: Answer, got: Reach) -> None:
    for comp in got.components:
        ans.touch(pg.project, comp)
    written = {(u, e) for e in {e for _, _, e in got.readers} for u, _ in inline_reads(pg, e)}
    inline = [r for r in got.readers if (r[0], r[2]) in written]
    readers = [r for r in got.readers if r not in inline]
    if readers:
        ans.add(f"read at ({len(readers)}, production code):", prio=1)
        several = len({e for _, _, e in readers}) > 1  # then say which one each reads
        for u, d, e in sorted(
            readers, key=lambda x: (x[1].get("file") or "", x[1].get("line") or 0)
        ):
            what = f" reads {name(pg, e, 40)}" if several else ""
            ans.add(
                f"{at(pg, u, d)} — {name(pg, u, 60)}{what}", prio=1, group="reader", indent="  "
            )
    if inline:
        ans.add(inline_line(pg, [(u, d) for u, d, _ in inline]), prio=2)
    if got.module:
        shown = ", ".join(f"{name(pg, m, 40)}:{pg.node(m).get('line')}" for m in got.module[:12])
        more = f" +{len(got.module) - 12}" if len(got.module) > 12 else ""
        ans.add(f"read at module level; functions of that file: {shown}{more}", prio=3)
    if got.routes:
        ans.add(f"routes affected ({len(got.routes)}):", prio=4)
        for r, how in sorted(got.routes.items(), key=lambda x: str(pg.node(x[0]).get("name"))):
            ans.add(
                f"{name(pg, r, 90)} ({where(pg, r)}) — via {how}",
                prio=4,
                group="route",
                indent="  ",
            )
            built = route_tail(pg, r) if len(got.routes) <= TAILED else ""
            if built:
                ans.add(f"↳ {short(built, 200)}", prio=11, group="route tail", indent="    ")
    if got.sites:
        ans.add(f"call sites in other code that reach them ({len(got.sites)}):", prio=6)
        for c, r, d in got.sites:
            ans.add(
                f"{call_site_text(pg, c, 70, 40)} → {name(pg, r, 60)}{via_text(d)}",
                prio=6,
                group="call site",
                indent="  ",
            )
            built = call_tail(pg, c) if len(got.sites) <= TAILED else ""
            if built:
                ans.add(f"↳ {short(built, 200)}", prio=12, group="call site tail", indent="    ")
    if got.callers:
        ans.add(f"callers of the readers ({len(got.callers)}):", prio=10)
        for u, d, depth in sorted(got.callers, key=lambda x: x[2]):
            f = d.get("file") or pg.node(u).get("file")
            ans.add(
                f"{name(pg, u, 60)} at {at(pg, u, d)}",
                prio=8 + 2 * depth,
                group="CALLS_FN",
                fold=None if depth == 1 else folder_of(f),
                indent="  " * (depth + 1) if depth < 4 else "        ",
            )
    if got.tests:
        ans.add(f"tests (kept apart, {len(got.tests)}):", prio=28)
        for t in got.tests[:10]:
            ans.add(t, prio=29, group="test", indent="  ")
