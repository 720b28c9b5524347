"""kb_entity views of a route, a symbol (handler, middleware, service) and an env var.

Route: the middleware chain in order with each usage line, the handler, what the
handler calls (call line → callee definition), env reads, and the frontend call
sites that reach it. Symbol: the routes it serves or guards, its calls and callers.
Env var: read sites (tests apart), where it is declared, the secret it resolves to,
the call sites whose URL it builds.
"""

from __future__ import annotations

import re

from mcp_server.budget import Answer
from mcp_server.facts import (
    at,
    call_site_text,
    callers_http,
    chain,
    declared_text,
    eattrs,
    env_read_sites,
    handlers,
    ins,
    is_test,
    middleware_of_symbol,
    mw_text,
    name,
    outs,
    secrets_of_env,
    via_text,
)
from mcp_server.graph import ProjectGraph
from mcp_server.impact_code import inline_line, inline_reads
from mcp_server.negatives import no_callers, no_route_for_call
from mcp_server.provenance import call_tail, route_tail
from mcp_server.render import confidence_words, ref, short, span, where
from mcp_server.settings import env_settings, route_mounts, route_paths, section, settings_of

CALLEE_CAP = 25
# Middleware/dependency names that read as an auth guard (Express/Nest/Flask/FastAPI/Next).
AUTH_NAME = re.compile(
    r"auth|jwt|guard|login|token|passport|session|permission|protect|verify", re.I
)


def auth_verdict(pg: ProjectGraph, mids: list) -> str:
    """A plain yes/no to "is this route protected?", from the names of its chain."""
    guards = [
        (i, name(pg, m, 60))
        for i, (m, _) in enumerate(mids, 1)
        if AUTH_NAME.search(name(pg, m, 200))
    ]
    if guards:
        return "auth guard: " + ", ".join(f"[{i}] {n}" for i, n in guards)
    return (
        f"auth guard: no — per the static graph, none of its {len(mids)} middleware/dependencies "
        "is named like an auth guard (auth, jwt, guard, login, token, session, permission)"
    )


def route_view(pg: ProjectGraph, ans: Answer, route: str) -> None:
    mids = chain(pg, route)
    if mids:
        ans.add(f"middleware chain ({len(mids)}, in order; usage line where this route gets it):")
        for i, (m, d) in enumerate(mids, 1):
            ans.add(mw_text(pg, m, d, i), prio=1, indent="  ")
    else:
        ans.add(
            "middleware chain: no edge per the static graph (no USES_MIDDLEWARE: no guard, dependency or middleware found)"
        )
    ans.add(auth_verdict(pg, mids))
    _mounts(pg, ans, route)
    hs = handlers(pg, route)
    if not hs:
        ans.add("handler: no edge per the static graph (no ROUTES_TO)")
    for h in hs:
        ans.touch(pg.node(h).get("project"), pg.node(h).get("component"))
        ans.add(f"handler: {name(pg, h, 80)} ({where(pg, h)})")
        callees(pg, ans, h, depth=2)
    exported_settings(pg, ans, route, hs)
    callers = callers_http(pg, route)
    if callers:
        ans.add(f"called from ({len(callers)} call site{'s' if len(callers) > 1 else ''}):", prio=5)
        for c, d in callers:
            ans.touch(pg.project, pg.node(c).get("component"))
            ans.add(
                f"{call_site_text(pg, c)}{via_text(d)}",
                prio=5,
                group="caller",
                indent="  ",
            )
            t = call_tail(pg, c)
            if t:
                ans.add(f"↳ {short(t, 220)}", prio=9, group="caller tail", indent="    ")
    else:
        ans.add("called from: no edge per the static graph (no CALLS from a call site)")
        no_callers(pg, ans, [route])


MOUNT_KEYS = ("mount", "mounts", "prefix", "prefixes", "mounted_at", "router_prefix")


def _mounts(pg: ProjectGraph, ans: Answer, route: str) -> None:
    """How the full path is built: the route's own mount/prefix attrs and the settings of
    its component whose value is a run of its path (app mount, router prefix, probe)."""
    built = route_tail(pg, route)
    if built:
        ans.add(f"path built: {short(built, 300)}", prio=2)
    a = pg.attrs(route)
    for key in MOUNT_KEYS:
        value = a.get(key)
        if key != "mounts" and value not in (None, "", []):
            shown = "; ".join(map(str, value)) if isinstance(value, list) else str(value)
            ans.add(f"{key}: {short(shown, 200)}", prio=2)
    found = route_mounts(pg, route)
    found += [n for n in route_paths(pg, route) if n not in found]
    if found:
        section(pg, ans, found, "path set by (mount / prefix / probe lines)", 2, group=None)


def exported_settings(pg: ProjectGraph, ans: Answer, route: str, hs: list[str]) -> None:
    """Exported variables of the route's own file (route-segment config such as Next.js
    `runtime`/`dynamic`/`revalidate`), each with its line."""
    rd = pg.node(route)
    found = []
    for n in pg.by_file.get(rd.get("file") or "", []):
        d = pg.node(n)
        a = eattrs(d)
        if (
            n not in hs
            and d.get("kind") == "symbol"
            and d.get("component") == rd.get("component")
            and a.get("exported")
            and a.get("symbol_kind") == "variable"
        ):
            found.append(n)
    if found:
        shown = ", ".join(f"{name(pg, n, 40)} ({where(pg, n)})" for n in found[:5])
        ans.add(f"its file also exports: {shown}", prio=6)


def callees(pg: ProjectGraph, ans: Answer, sym: str, depth: int = 1, indent: str = "  ") -> None:
    """What a function calls (call line → callee definition), env reads, HTTP calls."""
    seen = {sym}

    def walk(node: str, level: int, pad: str) -> None:
        edges = outs(pg, node, "CALLS_FN", "READS_ENV", "CALLS_HTTP")
        edges.sort(key=lambda x: (x[1].get("line") or 0, x[0]))
        for v, d in edges[:CALLEE_CAP]:
            kind = d.get("type")
            verb = {"CALLS_FN": "calls", "READS_ENV": "reads env", "CALLS_HTTP": "HTTP"}[kind]
            used = at(pg, v, d)
            defined = f" → {where(pg, v)}" if kind == "CALLS_FN" and where(pg, v) != used else ""
            if kind == "CALLS_HTTP":  # where it lands, and how its URL was built
                lands = [f"{ref(pg, r)}{via_text(e)}" for r, e in outs(pg, v, "CALLS")]
                defined = " → " + "; ".join(lands) if lands else " → no route (no CALLS edge)"
            ans.add(
                f"{verb} {name(pg, v, 70)} at {used}{defined}",
                prio=3 + 4 * level,
                group=f"{kind} {level}",
                indent=pad,
            )
            built = call_tail(pg, v) if kind == "CALLS_HTTP" else ""
            if built:
                ans.add(
                    f"↳ {short(built, 220)}", prio=5 + 4 * level, group="tail", indent=pad + "  "
                )
            if kind == "CALLS_FN" and level + 1 < depth and v not in seen:
                seen.add(v)
                walk(v, level + 1, pad + "  ")
        if len(edges) > CALLEE_CAP:
            ans.add(f"… +{len(edges) - CALLEE_CAP} more calls", prio=3 + 4 * level, indent=pad)

    walk(sym, 0, indent)


def _members(pg: ProjectGraph, sym: str) -> list[str]:
    """Methods of a class symbol (same file, `Class.method` names)."""
    data = pg.node(sym)
    prefix = f"{data.get('name')}."
    return [
        n
        for n in pg.by_file.get(data.get("file") or "", [])
        if n != sym and str(pg.node(n).get("name") or "").startswith(prefix)
    ]


def _body_settings(pg: ProjectGraph, ans: Answer, sym: str) -> None:
    """Settings written inside the symbol (a base URL it hard-codes), and a plain no when it
    reads no env var."""
    d = pg.node(sym)
    start, end = d.get("line") or 0, d.get("end_line") or d.get("line") or 0
    inside = [
        n
        for n in settings_of(pg, d.get("component"), d.get("file"))
        if start <= (pg.node(n).get("line") or 0) <= end
    ]
    section(pg, ans, inside, "settings in its body", 2)


def symbol_view(pg: ProjectGraph, ans: Answer, sym: str) -> None:
    _body_settings(pg, ans, sym)
    served = [(r, n) for n in [sym, *_members(pg, sym)] for r, _ in ins(pg, n, "ROUTES_TO")]
    if served:
        ans.add(f"handler of ({len(served)} routes):", prio=2)
        for r, h in sorted(served, key=lambda x: str(pg.node(x[0]).get("name"))):
            d = pg.node(h)  # a member method answers it: name it at its own line
            by = f" → {name(pg, h, 50)} ({span(d)})" if h != sym else ""
            ans.add(f"{name(pg, r, 90)} ({where(pg, r)}){by}", prio=2, group="route", indent="  ")
        probes = [n for r, _ in served for n in route_paths(pg, r)]
        section(pg, ans, list(dict.fromkeys(probes)), "settings naming those paths", 3)
    mids = middleware_of_symbol(pg).get(sym, [])
    if pg.node(sym).get("kind") == "middleware":
        mids = [sym, *mids]
    guarded = [(r, d) for m in mids for r, d in ins(pg, m, "USES_MIDDLEWARE")]
    if guarded:
        ans.add(f"used as middleware by ({len(guarded)} routes; usage line):", prio=4)
        for r, d in sorted(guarded, key=lambda x: str(pg.node(x[0]).get("name"))):
            ans.add(f"{name(pg, r, 90)} at {at(pg, r, d)}", prio=4, group="guarded", indent="  ")
    called = outs(pg, sym, "CALLS_FN", "READS_ENV", "CALLS_HTTP")
    if called:
        ans.add(f"what it calls ({len(called)}; at the call line → where it goes):", prio=3)
    callees(pg, ans, sym, depth=2)
    if not outs(pg, sym, "READS_ENV"):
        ans.add("env vars read: no edge per the static graph (no READS_ENV from it)", prio=14)
    callers = ins(pg, sym, "CALLS_FN")
    prod = [(u, d) for u, d in callers if not is_test(d.get("file") or pg.node(u).get("file"))]
    if callers:
        ans.add(f"called by ({len(prod)}, +{len(callers) - len(prod)} in tests):", prio=12)
        for u, d in sorted(prod, key=lambda x: (x[1].get("file") or "", x[1].get("line") or 0)):
            ans.add(f"{name(pg, u, 70)} at {at(pg, u, d)}", prio=12, group="caller", indent="  ")


def env_view(pg: ProjectGraph, ans: Answer, env: str) -> None:
    inline = inline_reads(pg, env)
    prod, test = env_read_sites(pg, env, skip={u for u, _ in inline})
    if inline:
        ans.add(inline_line(pg, inline))
    ans.add(f"read at ({len(prod)}):" if prod else "read at: no read site per the static graph")
    for line in prod:
        ans.add(line, prio=1, group="read", indent="  ")
    if test:
        ans.add(
            f"read in tests ({len(test)}): " + ", ".join(t.split(" (")[0] for t in test[:5]),
            prio=20,
        )
    ans.add(f"declared: {declared_text(pg, env)}")
    for s in secrets_of_env(pg, env):
        a = pg.attrs(s)
        ans.add(
            f"resolves to secret {name(pg, s, 60)} ({where(pg, s)}) store={a.get('store') or '?'}"
        )
    envname = str(pg.node(env).get("name"))
    env_settings(pg, ans, envname)
    calls = [
        (u, d)
        for u, _, d in pg.g.edges(data=True)
        if d.get("type") == "CALLS" and eattrs(d).get("via") == envname
    ]
    if calls:
        ans.add(f"call sites whose base URL it sets ({len(calls)}):", prio=8)
        for u, d in calls:
            ans.add(
                f"{name(pg, u, 80)} at {where(pg, u)}{via_text(d)}",
                prio=8,
                group="CALLS",
                indent="  ",
            )


def call_view(pg: ProjectGraph, ans: Answer, call: str) -> None:
    """kb_entity on a call site: how its URL was built, who makes it, where it lands."""
    built = call_tail(pg, call)
    if built:
        ans.add(f"URL built: {short(built, 300)}")
    owners = [u for u, d in ins(pg, call, "CALLS_HTTP")]
    for u in owners:
        ans.add(f"made in: {ref(pg, u)}")
    targets = outs(pg, call, "CALLS")
    for r, d in targets:
        ans.touch(pg.project, pg.node(r).get("component"))
        said = confidence_words(eattrs(d))
        ans.add(
            f"lands on: {ref(pg, r)}{via_text(d)}"
            + (f" — {said}" if said and said not in via_text(d) else "")
        )
        for h in handlers(pg, r):
            ans.add(f"handler: {ref(pg, h)}", indent="  ")
    if not targets:
        no_route_for_call(pg, ans, call)
