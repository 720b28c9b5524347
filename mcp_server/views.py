"""kb_entity views of a component and of a code file: facts with `path:line` first.

Component: routes (method + full path → handler, middleware chain with usage lines),
env vars read (read sites, declared where, secret), outbound calls (call site → route
in which component / external host / unresolved with reason), inbound calls from
other components, secrets, runtime per env, packages summarised — in that priority
order, so a tight budget drops the catalog before the facts.
File: what it declares (routes with handler and middleware, functions, env reads,
outbound calls), who imports it.
"""

from __future__ import annotations

from mcp_server.budget import Answer
from mcp_server.facts import (
    at,
    callers_http,
    chain,
    comp_of,
    declared_text,
    eattrs,
    env_read_sites,
    handlers,
    ins,
    is_test,
    mw_text,
    name,
    outs,
    route_of_call,
    secrets_of_env,
    unresolved_reason,
    via_text,
)
from mcp_server.graph import ProjectGraph, folder_of
from mcp_server.lookup import routes_at_folder
from mcp_server.render import short, where
from mcp_server.settings import section, settings_of

# priorities (lower survives longer): settings, routes, env reads, outbound, inbound, secrets,
# envs, packages
P_SETTING, P_ROUTE, P_ENV, P_OUT, P_IN, P_SECRET, P_RUNTIME, P_PKG = 9, 10, 12, 14, 16, 18, 20, 30


def _of_kind(pg: ProjectGraph, comp: str, kind: str) -> list[str]:
    nodes = [
        n
        for n, d in pg.of_kind(kind)
        if d.get("component") == comp and d.get("project") == pg.project
    ]
    return sorted(nodes, key=lambda n: (pg.node(n).get("file") or "", pg.node(n).get("line") or 0))


def _common_chain(pg: ProjectGraph, routes: list[str]) -> list[tuple[str, dict]]:
    """Middleware every route gets at the same usage line (app-level), in order."""
    chained = [chain(pg, r) for r in routes]
    chained = [c for c in chained if c]
    if len(routes) < 3 or len(chained) < len(routes):
        return []
    keys = [{(m, d.get("file"), d.get("line")) for m, d in c} for c in chained]
    common = set.intersection(*keys)
    return [(m, d) for m, d in chained[0] if (m, d.get("file"), d.get("line")) in common]


def _mw(pg: ProjectGraph, mids: list[tuple[str, dict]]) -> str:
    return " ".join(mw_text(pg, m, d, i) for i, (m, d) in enumerate(mids, 1))


def route_line(pg: ProjectGraph, route: str, skip: set | None = None) -> str:
    """`METHOD /path (at) → handler (at) | middleware [1] a (usage) …` on one line."""
    text = f"{name(pg, route, 100)} ({where(pg, route)})"
    hs = handlers(pg, route)
    if hs:
        text += " → " + ", ".join(f"{name(pg, h, 60)} ({where(pg, h)})" for h in hs)
    mids = [
        (m, d)
        for m, d in chain(pg, route)
        if (m, d.get("file"), d.get("line")) not in (skip or set())
    ]
    if mids:
        text += " | middleware " + _mw(pg, mids)
    return text


def call_line(pg: ProjectGraph, call: str) -> str:
    """A call site with where it lands: a route in which component, a host, or why not."""
    site = f"{name(pg, call, 90)} at {where(pg, call)}"
    targets = route_of_call(pg, call)
    if targets:
        lands = "; ".join(
            f"route {name(pg, r, 80)} in {comp_of(pg, r)} ({where(pg, r)}){via_text(d)}"
            for r, d in targets
        )
        return f"{site} → {lands}"
    return f"{site} → unresolved: {unresolved_reason(pg, call)}"


def component_view(pg: ProjectGraph, ans: Answer, comp: str) -> None:
    ans.touch(pg.project, comp)
    section(pg, ans, settings_of(pg, comp), "settings", P_SETTING, group=None)
    routes = _of_kind(pg, comp, "route")
    if routes:
        common = _common_chain(pg, routes)
        ans.add(
            f"routes ({len(routes)}): METHOD path (declared) → handler | middleware (usage line)",
            prio=P_ROUTE,
        )
        if common:
            ans.add(f"  every route first passes: {_mw(pg, common)}", prio=P_ROUTE - 1)
        skip = {(m, d.get("file"), d.get("line")) for m, d in common}
        for r in routes:
            ans.add(route_line(pg, r, skip), prio=P_ROUTE, group="route", indent="  ")
    _env_reads(pg, ans, comp)
    calls = _of_kind(pg, comp, "http_call")
    prod = [c for c in calls if not is_test(pg.node(c).get("file"))]
    if prod:
        ans.add(f"outbound calls ({len(prod)}): call site → route / host / unresolved", prio=P_OUT)
        for c in prod:
            ans.add(call_line(pg, c), prio=P_OUT, group="outbound", indent="  ")
    if len(calls) > len(prod):
        ans.add(f"  (+{len(calls) - len(prod)} call sites in tests left out)", prio=P_OUT)
    _inbound(pg, ans, routes)
    unresolved = pg.unresolved_of(comp)
    if unresolved:
        ans.add(
            f"unresolved/dynamic calls: {len(unresolved)} (kb_neighbors on the component lists them)",
            prio=P_OUT,
        )
    _knowledge(pg, ans, comp)


def _env_reads(pg: ProjectGraph, ans: Answer, comp: str) -> None:
    envs = [e for e in _of_kind(pg, comp, "env_var") if ins(pg, e, "READS_ENV")]
    if not envs:
        return
    ans.add(f"env vars read ({len(envs)}): name → read sites; declared; secret", prio=P_ENV)
    for e in sorted(envs, key=lambda n: str(pg.node(n).get("name"))):
        prod, test = env_read_sites(pg, e)
        sites = ", ".join(s.split(" (")[0] for s in prod[:4]) or "tests only"
        if len(prod) > 4:
            sites += f" +{len(prod) - 4}"
        if test:
            sites += f" (+{len(test)} in tests)"
        secret = "; ".join(f"→ secret {name(pg, s, 50)}" for s in secrets_of_env(pg, e))
        text = f"{name(pg, e, 60)} read at {sites}; {declared_text(pg, e)}"
        ans.add(f"{text} {secret}".rstrip(), prio=P_ENV, group="env", indent="  ")


def _inbound(pg: ProjectGraph, ans: Answer, routes: list[str]) -> None:
    lines = []
    for r in routes:
        for call, d in callers_http(pg, r):
            owner = comp_of(pg, call)
            lines.append(
                f"{name(pg, r, 80)} ← {owner} {name(pg, call, 70)} at {where(pg, call)}{via_text(d)}"
            )
    if lines:
        ans.add(f"inbound calls ({len(lines)}): route ← call site", prio=P_IN)
        for line in lines:
            ans.add(line, prio=P_IN, group="inbound", indent="  ")


def _knowledge(pg: ProjectGraph, ans: Answer, comp: str) -> None:
    cid = f"{pg.project}:component:{comp}"
    if cid not in pg.g:
        return
    secrets = outs(pg, cid, "USES_SECRET")
    if secrets:
        ans.add(f"secrets ({len(secrets)}):", prio=P_SECRET)
        for s, d in secrets:
            a = pg.attrs(s)
            bits = " ".join(
                f"{k}={short(a[k], 50)}" for k in ("env_var", "store", "ref") if a.get(k)
            )
            ans.add(
                f"{name(pg, s, 60)} {bits} ({at(pg, s, d)})",
                prio=P_SECRET,
                group="secret",
                indent="  ",
            )
    envs = outs(pg, cid, "HAS_ENV")
    if envs:
        ans.add(f"runtime per env ({len(envs)}):", prio=P_RUNTIME)
        for e, _ in sorted(envs, key=lambda x: str(pg.node(x[0]).get("name"))):
            a = pg.attrs(e)
            bits = " ".join(
                f"{k}={short(a[k], 60)}"
                for k in ("runtime", "url", "region", "gcp_project", "deploy")
                if a.get(k)
            )
            ans.add(
                f"{a.get('env') or name(pg, e)}: {bits}".rstrip(),
                prio=P_RUNTIME,
                group="env_instance",
                indent="  ",
            )
    pkgs = outs(pg, cid, "USES_PACKAGE")
    if pkgs:
        stack = pg.attrs(cid).get("stack") or []
        words = {str(s).lower() for s in (stack if isinstance(stack, list) else [stack])}
        named = [
            (p, d)
            for p, d in pkgs
            if any(w and (w in str(pg.node(p).get("name")).lower()) for w in words)
        ]
        shown = ", ".join(
            f"{name(pg, p, 40)} {eattrs(d).get('version') or ''} ({d.get('file')}:{d.get('line')})".replace(
                "  ", " "
            )
            for p, d in named[:8]
        )
        ans.add(
            f"packages: {len(pkgs)}" + (f"; naming its stack: {shown}" if shown else ""),
            prio=P_PKG,
        )


def file_view(pg: ProjectGraph, ans: Answer, file_node: str) -> None:
    data = pg.node(file_node)
    path, comp = data.get("file") or data.get("name"), data.get("component")
    ans.touch(pg.project, comp)
    here = [n for n in pg.by_file.get(path, []) if pg.node(n).get("component") == comp]
    section(pg, ans, settings_of(pg, comp, path), "settings declared here", P_SETTING)
    routes = sorted(
        (n for n in here if pg.node(n).get("kind") == "route"),
        key=lambda n: pg.node(n).get("line") or 0,
    )
    if routes:
        ans.add(f"routes declared here ({len(routes)}):", prio=P_ROUTE)
        for r in routes:
            ans.add(route_line(pg, r), prio=P_ROUTE, group="route", indent="  ")
    served = [(r, h) for h in here for r, _ in ins(pg, h, "ROUTES_TO") if r not in routes]
    if served:
        ans.add(f"handlers here serve ({len(served)}):", prio=P_ROUTE)
        for r, h in served:
            ans.add(
                f"{name(pg, r, 90)} ({where(pg, r)}) → {name(pg, h, 60)}",
                prio=P_ROUTE,
                group="served",
                indent="  ",
            )
    if not routes and not served:
        ans.add("routes: no edge per the static graph — no route is declared in this file")
        folder = folder_of(path)
        siblings = sorted(
            n
            for f, ids in pg.by_file.items()
            if f != path and folder_of(f) == folder
            for n in ids
            if pg.node(n).get("kind") == "route" and pg.node(n).get("component") == comp
        )
        for r in siblings[:6]:
            ans.add(f"route in the same folder: {route_line(pg, r)}", prio=P_ROUTE, indent="  ")
        for r in routes_at_folder(pg, path, comp):
            if r not in siblings:
                ans.add(
                    f"route serving this folder's URL path: {route_line(pg, r)}",
                    prio=P_ROUTE,
                    indent="  ",
                )
    syms = sorted(
        (n for n in here if pg.node(n).get("kind") in ("symbol", "middleware")),
        key=lambda n: pg.node(n).get("line") or 0,
    )
    if syms:
        ans.add(f"functions and symbols ({len(syms)}):", prio=P_OUT)
        for s in syms:
            kind = pg.node(s).get("kind")
            label = "middleware " if kind == "middleware" else ""
            ans.add(
                f"{label}{name(pg, s, 80)} (line {pg.node(s).get('line')})",
                prio=P_OUT,
                group="symbol",
                indent="  ",
            )
    reads = [
        (v, d)
        for n in [file_node, *here]
        for v, d in outs(pg, n, "READS_ENV")
        if d.get("file") in (None, path)
    ]
    if reads:
        ans.add(f"env reads ({len(reads)}):", prio=P_ENV)
        for v, d in sorted(reads, key=lambda x: x[1].get("line") or 0):
            ans.add(f"{name(pg, v, 60)} at {at(pg, v, d)}", prio=P_ENV, group="env", indent="  ")
    calls = [n for n in here if pg.node(n).get("kind") == "http_call"]
    if calls:
        ans.add(f"outbound calls ({len(calls)}):", prio=P_ENV)
        for c in calls:
            ans.add(call_line(pg, c), prio=P_ENV, group="outbound", indent="  ")
    importers = ins(pg, file_node, "IMPORTS")
    if importers:
        prod = [(u, d) for u, d in importers if not is_test(pg.node(u).get("file"))]
        ans.add(f"imported by ({len(prod)}, +{len(importers) - len(prod)} tests):", prio=P_IN)
        for u, d in sorted(prod, key=lambda x: str(pg.node(x[0]).get("file"))):
            f = pg.node(u).get("file")
            ans.add(at(pg, u, d), prio=P_IN, group="importer", fold=folder_of(f), indent="  ")
    imports = outs(pg, file_node, "IMPORTS")
    if imports:
        ans.add(
            f"imports ({len(imports)}): "
            + ", ".join(short(pg.node(v).get("name"), 50) for v, _ in imports[:12])
            + (" …" if len(imports) > 12 else ""),
            prio=P_PKG,
        )
