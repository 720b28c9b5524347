"""The negatives engine: "does X call Y?" answered from both ends, never as a side effect.

One verdict line first — `yes — per the static graph` or `no — per the static graph` —
then the evidence a reader needs to trust a no: both ends as resolved; whether the
route exists, and which placeholder-prefix route (`/{API_PREFIX}/v1/users`) or
unevaluated registration could be it; the route's inbound CALLS; what the asking side
calls instead, grouped by target component; the unbridged call sites and unresolved
calls that could hide an edge, the likeliest first. A route that only another project
serves is a no by construction: no edge ever joins two projects.

kb_trace (`to=`, and up-traces that find no caller), kb_neighbors (`to=`, and a route's
inbound CALLS) and kb_entity (a route nobody calls) all answer through here.
"""

from __future__ import annotations

import networkx as nx

from mcp_server.budget import Answer
from mcp_server.call_ends import WALK, bridged, calls_of, could_be, fits_text, routes_of
from mcp_server.facts import (
    call_site_text,
    callers_http,
    comp_of,
    handlers,
    is_test,
    name,
    via_text,
)
from mcp_server.graph import ProjectGraph
from mcp_server.provenance import with_tail
from mcp_server.render import ref, short, unresolved_line, where
from mcp_server.resolve import one_per_registration
from mcp_server.route_names import (
    has_hole,
    holes_that_could_be,
    near_routes,
    normal,
    route_of,
    route_parts,
    segments,
)

NO = "no — per the static graph"
YES = "yes — per the static graph"
CAVEAT = "caveats: static graph — runtime middleware/DI and dynamic dispatch do not appear"
PATH_TYPES = WALK | {"CALLS", "READS_ENV", "RESOLVES_TO"}
SHOWN = 8
INSTEAD = 20  # routes named per target in "what X calls instead" before the rest is counted


# -- evidence blocks ---------------------------------------------------------------------------


def route_evidence(
    pg: ProjectGraph, ans: Answer, method: str | None, path: str, component: str | None
) -> None:
    """For a route that is not there: the placeholder or parameter routes that could be it,
    the routes one method / segment / mount prefix away, unevaluated registrations."""
    holes = holes_that_could_be(pg, method, path, component)
    if holes:
        ans.add("routes whose unresolved prefix or parameter could be it:")
    for n in holes[:SHOWN]:
        ans.touch(pg.project, comp_of(pg, n))
        ans.add(with_tail(f"{name(pg, n, 100)} ({where(pg, n)})", pg, n), prio=3, indent="  ")
    near = [n for n in near_routes(pg, method, path, component) if n not in holes]
    if near:
        ans.add("nearest routes (differ by method, one segment or a mount prefix):")
    for n in near:
        ans.touch(pg.project, comp_of(pg, n))
        ans.add(f"{name(pg, n, 100)} ({where(pg, n)})", prio=5, group="near", indent="  ")
    regs = [
        r
        for r in pg.unresolved
        if r.get("kind") == "route" and (not component or r["component"] == component)
    ]
    if regs:
        ans.add(f"route registrations the extractor could not evaluate ({len(regs)}):")
    for row in regs[:SHOWN]:
        ans.add(unresolved_line(row), prio=6, group="unresolved route", indent="  ")


def _hints(pg: ProjectGraph, comps: list[str], want: list[str]) -> list[dict]:
    """Unresolved call rows of these components, those naming the wanted path words first."""
    words = {w.lower() for w in want if w and not w.startswith((":", "{", "<", "["))}
    rows = [r for r in pg.unresolved if r.get("component") in comps and r.get("kind") != "import"]

    def score(r: dict) -> tuple:
        text = f"{r.get('expr')} {r.get('reason')}".lower()
        return (
            -sum(w in text for w in words),
            r.get("kind") != "http_call",
            comps.index(r["component"]),
            r["file"],
            r["line"],
        )

    return sorted(rows, key=score)


def hiding_block(
    pg: ProjectGraph, ans: Answer, comps: list[str], routes: list[str], title: str
) -> None:
    """Unbridged call sites of `comps` that fit one of the routes, then unresolved rows."""
    fits = [
        c for comp in comps for c in _unbridged(pg, comp) if any(could_be(pg, c, r) for r in routes)
    ]
    if fits:
        ans.add(f"call sites not bridged to any route whose method and path fit it ({len(fits)}):")
    for c in fits[:SHOWN]:
        ans.touch(pg.project, comp_of(pg, c))
        ans.add(
            f"unresolved http_call {name(pg, c, 90)} ({where(pg, c)}) — {unbridged_reason(pg, c)}",
            prio=4,
            indent="  ",
        )
    want = [s for r in routes[:3] for s in segments((route_of(pg.node(r)) or ("", ""))[1])]
    listed = {(pg.node(c).get("file"), pg.node(c).get("line")) for c in fits[:SHOWN]}
    rows = [r for r in _hints(pg, comps, want) if (r.get("file"), r.get("line")) not in listed]
    if rows:
        ans.add(f"{title} ({len(rows)}):")
    for row in rows[:SHOWN]:
        ans.add(unresolved_line(row), prio=20, group="unresolved", indent="  ")
    if not fits and not rows:
        scope = ", ".join(f"{pg.project}/{c}" for c in comps) or pg.project
        ans.add(f"nothing could hide one: no unbridged call site or unresolved call in {scope}")


def _unbridged(pg: ProjectGraph, comp: str) -> list[str]:
    return [n for n, d in pg.of_kind("http_call") if d.get("component") == comp and d.get("project") == pg.project
            and not bridged(pg, n) and not is_test(d.get("file"))]  # fmt: skip


def unbridged_reason(pg: ProjectGraph, call: str) -> str:
    """Why an http_call has no CALLS edge: the unresolved row at its line, its attrs, else generic."""
    d = pg.node(call)
    for r in pg.unresolved:
        if (
            r.get("file") == d.get("file")
            and r.get("line") == d.get("line")
            and r.get("component") == d.get("component")
        ):
            return short(r.get("reason"), 90)
    a = pg.attrs(call)
    for key in ("unresolved", "reason", "resolution"):
        if a.get(key):
            return short(a[key], 90)
    if a.get("base") and str(a["base"]).startswith("http"):
        return f"external host {short(a['base'], 60)}"
    return "no route of this project matches its method and path"


def no_callers(pg: ProjectGraph, ans: Answer, routes: list[str]) -> None:
    """A route (or a handler's routes) nobody calls: the verdict and what could hide a caller."""
    if not routes:
        return
    label = ref(pg, routes[0]) if len(routes) == 1 else f"{len(routes)} routes"
    ans.add(f"{NO}: no call site reaches {label} (no CALLS edge)")
    own = comp_of(pg, routes[0])
    comps = sorted(c for c in pg.components if c != own) + [own]
    hiding_block(
        pg,
        ans,
        [c for c in comps if c],
        routes,
        "unresolved/dynamic calls that could hide a caller",
    )


def no_route_for_call(pg: ProjectGraph, ans: Answer, call: str) -> None:
    """A call site bridged to no route: why, how its URL was built, the routes it could be."""
    ans.add(f"{NO}: this call reaches no route (no CALLS edge) — {unbridged_reason(pg, call)}")
    fits = [
        n
        for n, d in pg.of_kind("route")
        if d.get("project") == pg.project and could_be(pg, call, n)
    ]
    fits = one_per_registration(pg, fits)  # a route emitted twice is one candidate
    fits.sort(key=lambda n: (comp_of(pg, n) == comp_of(pg, call), len(segments(name(pg, n, 300)))))
    for n in fits[:SHOWN]:
        ans.touch(pg.project, comp_of(pg, n))
        ans.add(f"unresolved match: route {name(pg, n, 90)} ({where(pg, n)}) has its method and path; "
                "the base is not resolved to that component", prio=4, indent="  ")  # fmt: skip


# -- the engine --------------------------------------------------------------------------------


def _yes_http(
    pg: ProjectGraph, ans: Answer, src: str, dst: str, hits: list[tuple[str, str, dict]]
) -> None:
    routes = sorted({r for _, r, _ in hits}, key=lambda r: name(pg, r, 200))
    sites = f"{len(hits)} call site{'s' if len(hits) != 1 else ''}"
    ans.add(
        f"{YES}: {ref(pg, src)} calls {ref(pg, dst)} — {sites} → {len(routes)} route{'s' if len(routes) != 1 else ''}"
    )
    for r in routes:
        ans.touch(pg.project, comp_of(pg, r))
        hs = ", ".join(f"{name(pg, h, 50)} ({where(pg, h)})" for h in handlers(pg, r))
        ans.add(
            with_tail(f"{name(pg, r, 100)} ({where(pg, r)})" + (f" → {hs}" if hs else ""), pg, r),
            indent="  ",
        )
        for c, rr, d in hits:
            if rr == r:
                ans.touch(pg.project, comp_of(pg, c))
                ans.add(
                    with_tail(f"← {call_site_text(pg, c)}{via_text(d)}", pg, c),
                    prio=2,
                    group="caller",
                    indent="    ",
                )


def _instead(pg: ProjectGraph, ans: Answer, src: str, calls: list[str]) -> None:
    """What the asking side calls: target component → route, then the unbridged ones."""
    if not calls:
        ans.add(f"what {name(pg, src, 60)} calls instead: no HTTP call site per the static graph")
        return
    by_target: dict[str, list[str]] = {}
    loose = []
    for c in calls:
        targets = bridged(pg, c)
        if not targets:
            loose.append(c)
        for r, _ in targets:
            by_target.setdefault(str(comp_of(pg, r)), []).append(
                f"{name(pg, r, 70)} ← {where(pg, c).split(' ', 1)[-1]}"
            )
    sites = f"{len(calls)} call site{'s' if len(calls) != 1 else ''}"
    ans.add(f"what {name(pg, src, 60)} calls instead ({sites}):")
    for comp, items in sorted(by_target.items()):
        ans.touch(pg.project, comp)
        ans.add(
            f"→ {pg.project}/{comp} ({len(items)}): "
            + "; ".join(items[:INSTEAD])
            + (
                f" +{len(items) - INSTEAD} more (kb_entity on it lists them)"
                if len(items) > INSTEAD
                else ""
            ),
            prio=6,
            indent="  ",
        )
    if loose:
        shown = "; ".join(
            f"{name(pg, c, 60)} ({where(pg, c).split(' ', 1)[-1]})" for c in loose[:INSTEAD]
        )
        ans.add(
            f"→ no route ({len(loose)}): {shown}"
            + (f" +{len(loose) - INSTEAD} more" if len(loose) > INSTEAD else ""),
            prio=7,
            indent="  ",
        )


def does_call(
    pg: ProjectGraph, ans: Answer, src: str, dst: str | None, dst_text: str, others: list[str]
) -> None:
    """The engine: verdict first, then both ends and the evidence (see the module).
    `dst` None: `dst_text` names nothing in this project; `others` are the projects that
    have it (from the catalog, or the project of a foreign node id)."""
    calls = calls_of(pg, src)
    if dst is None:  # Y names no node of this project
        parts = route_parts(dst_text)
        if others:
            what = "route" if parts else "node"
            ans.add(f"{NO}, and no edge can exist: {what} '{short(dst_text, 80)}' is not in project {pg.project}; "
                    f"it is in project {', '.join(others)}, and kb-graph never joins two projects with an edge "
                    "(each project is its own partition)")  # fmt: skip
        else:
            ans.add(
                f"{NO}: {ref(pg, src)} reaches no '{short(dst_text, 80)}' — no such node in {pg.project}"
            )
        ans.add(f"from: {ref(pg, src)}")
        if parts:
            fitting = [c for c in calls if fits_text(pg, c, *parts)]
            if fitting:
                ans.add(f"its call sites with that method and path ({len(fitting)}):")
            for c in fitting[:SHOWN]:
                lands = (
                    "; ".join(f"→ {ref(pg, r)}" for r, _ in bridged(pg, c))
                    or f"→ no route: {unbridged_reason(pg, c)}"
                )
                ans.add(f"{call_site_text(pg, c)} {lands}", prio=3, indent="  ")
            if not others:
                route_evidence(pg, ans, parts[0], parts[1], None)
        _instead(pg, ans, src, calls)
        ans.add(CAVEAT)
        return
    routes = routes_of(pg, dst)
    hits = [(c, r, d) for c in calls for r, d in bridged(pg, c) if r in routes]
    if hits:
        _yes_http(pg, ans, src, dst, hits)
        if pg.node(dst).get("kind") not in ("route", "component"):
            _onward(pg, ans, hits[0][1], dst)
        ans.add(CAVEAT)
        return
    path = _shortest(pg, src, dst)
    if path:
        _yes_path(pg, ans, path)
        return
    ans.add(f"{NO}: {ref(pg, src)} does not reach {ref(pg, dst)}")
    ans.add(with_tail(f"from: {ref(pg, src)}", pg, src))
    ans.add(with_tail(f"to: {ref(pg, dst)}", pg, dst))
    if pg.node(dst).get("kind") == "route":
        ans.add(_exists(pg, dst, dst_text))
    if routes:
        _inbound(pg, ans, routes)
    _instead(pg, ans, src, calls)
    comps = [
        c
        for c in [
            comp_of(pg, src)
            or (pg.node(src).get("name") if pg.node(src).get("kind") == "component" else None)
        ]
        if c
    ]
    if routes:
        hiding_block(
            pg,
            ans,
            [str(c) for c in comps],
            routes,
            "unresolved/dynamic calls that could hide an edge",
        )
    else:
        rows = _hints(pg, [str(c) for c in comps] + [str(comp_of(pg, dst))], [])
        ans.add(
            f"unresolved/dynamic calls that could hide one ({len(rows)}):"
            if rows
            else "nothing could hide one: no unresolved call on either side"
        )
        for row in rows[:SHOWN]:
            ans.add(unresolved_line(row), prio=20, group="unresolved", indent="  ")
    ans.add(CAVEAT)


def _exists(pg: ProjectGraph, route: str, typed: str) -> str:
    """Whether the typed route is this route as written, or only through its holes."""
    parts = route_parts(typed)
    have = route_of(pg.node(route))
    if parts is None or have is None or normal(parts[1]) == normal(have[1]):
        return f"the route exists: declared at {where(pg, route)}"
    holes = pg.attrs(route).get("holes")
    holed = bool(holes) and isinstance(holes, list) or has_hole(have[1])
    how = "its unresolved prefix" if holed else "its path parameters"
    return f"the route exists: '{short(typed, 80)}' is this route through {how}"


def _onward(pg: ProjectGraph, ans: Answer, route: str, dst: str) -> None:
    """From the route on to the target (a handler's service): the hops, each with its line."""
    from mcp_server.render import edge_label

    path = _shortest(pg, route, dst)
    if not path or len(path) < 2:
        return
    ans.add(f"from {name(pg, route, 80)} on to it ({len(path) - 1} hops):")
    for i, (u, v) in enumerate(zip(path, path[1:], strict=False)):
        data = next(d for d in pg.g[u][v].values() if d.get("type") in PATH_TYPES)
        ans.touch(pg.node(v).get("project"), pg.node(v).get("component"))
        ans.add(f"{edge_label(data)} {ref(pg, v)}", prio=3, indent="  " * (i + 1))


def _inbound(pg: ProjectGraph, ans: Answer, routes: list[str]) -> None:
    callers = [(c, r, d) for r in routes for c, d in callers_http(pg, r)]
    if not callers:
        ans.add(
            f"its inbound CALLS: none — no call site of {pg.project} is bridged to {'it' if len(routes) == 1 else 'them'}"
        )
        return
    ans.add(f"its inbound CALLS ({len(callers)}), from other call sites:")
    for c, r, d in callers[:SHOWN]:
        ans.touch(pg.project, comp_of(pg, c))
        ans.add(f"{name(pg, r, 70)} ← {call_site_text(pg, c)}{via_text(d)}", prio=5, indent="  ")


def _shortest(pg: ProjectGraph, a: str, b: str) -> list[str] | None:
    view = nx.subgraph_view(
        pg.g, filter_edge=lambda u, v, k: pg.g[u][v][k].get("type") in PATH_TYPES
    )
    try:
        return nx.shortest_path(view, a, b)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


def _yes_path(pg: ProjectGraph, ans: Answer, path: list[str]) -> None:
    from mcp_server.render import edge_label

    ans.add(f"{YES}: {ref(pg, path[0])} reaches {ref(pg, path[-1])} — path ({len(path) - 1} hops):")
    ans.add(ref(pg, path[0]), indent="  ")
    for i, (u, v) in enumerate(zip(path, path[1:], strict=False)):
        data = next(d for d in pg.g[u][v].values() if d.get("type") in PATH_TYPES)
        ans.touch(pg.node(v).get("project"), pg.node(v).get("component"))
        ans.add(with_tail(f"{edge_label(data)} {ref(pg, v)}", pg, v), indent="  " * (i + 2))
    ans.add(CAVEAT)
