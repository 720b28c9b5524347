"""The two ends of "does X call Y?": the call sites X makes, the routes Y stands for.

X (a component, file, symbol or call site) is the set of production HTTP call sites it
makes itself or through what it calls; Y (a route, component, handler, service or file)
is the set of routes it serves or sits behind. An unbridged call `could_be` a route when
its method and path fit the route's tail (its base unresolved).
"""

from __future__ import annotations

from mcp_server.facts import is_test
from mcp_server.graph import ProjectGraph
from mcp_server.route_names import route_of, segments
from warehouse.routematch import match_segments

WALK = {"CALLS_FN", "CALLS_HTTP", "ROUTES_TO", "DEFINES", "HAS_CODE", "USES_MIDDLEWARE"}
MAX_DEPTH = 8


def _reach(pg: ProjectGraph, starts: list[str], types: set[str]) -> set[str]:
    seen, todo = set(starts), [(s, 0) for s in starts]
    while todo:
        node, depth = todo.pop()
        if depth >= MAX_DEPTH:
            continue
        for _, v, d in pg.g.out_edges(node, data=True):
            if d.get("type") in types and v not in seen:
                seen.add(v)
                todo.append((v, depth + 1))
    return seen


def calls_of(pg: ProjectGraph, node: str) -> list[str]:
    """The production HTTP call sites the node makes, itself or through what it calls."""
    data = pg.node(node)
    if data.get("kind") == "http_call":
        return [node]
    if data.get("kind") == "component":
        comp = data.get("name")
        found = [n for n, d in pg.of_kind("http_call") if d.get("component") == comp]
    else:
        start = [node] + [n for n in pg.by_file.get(data.get("file") or "", [])
                          if data.get("kind") == "code_file" and pg.node(n).get("component") == data.get("component")]  # fmt: skip
        found = [n for n in _reach(pg, start, WALK) if pg.node(n).get("kind") == "http_call"]
    prod = [
        n
        for n in found
        if not is_test(pg.node(n).get("file")) and pg.node(n).get("project") == pg.project
    ]
    return sorted(
        set(prod), key=lambda n: (pg.node(n).get("file") or "", pg.node(n).get("line") or 0)
    )


def routes_of(pg: ProjectGraph, node: str) -> list[str]:
    """The routes the node stands for as a target: itself, a component's routes, the routes a
    handler serves, the routes whose handler reaches a service, a file's routes."""
    data = pg.node(node)
    kind = data.get("kind")
    if kind == "route":
        return [node]
    if kind == "component":
        return [n for n, d in pg.of_kind("route") if d.get("component") == data.get("name")
                and d.get("project") == pg.project]  # fmt: skip
    if kind == "code_file":
        here = [
            n
            for n in pg.by_file.get(data.get("file") or "", [])
            if pg.node(n).get("component") == data.get("component")
        ]
        return sorted(
            {
                r
                for n in here
                for r in ([n] if pg.node(n).get("kind") == "route" else _served(pg, n))
            }
        )
    if kind in ("symbol", "middleware"):
        return sorted({r for n in _callers_up(pg, node) for r in _served(pg, n)})
    return []


def _served(pg: ProjectGraph, sym: str) -> list[str]:
    return [u for u, _, d in pg.g.in_edges(sym, data=True) if d.get("type") == "ROUTES_TO"]


def _callers_up(pg: ProjectGraph, node: str) -> set[str]:
    """The node and every function that reaches it through CALLS_FN (a service's handlers)."""
    seen, todo = {node}, [(node, 0)]
    while todo:
        cur, depth = todo.pop()
        if depth >= MAX_DEPTH:
            continue
        for u, _, d in pg.g.in_edges(cur, data=True):
            if d.get("type") == "CALLS_FN" and u not in seen:
                seen.add(u)
                todo.append((u, depth + 1))
    return seen


def call_path(pg: ProjectGraph, call: str) -> str:
    """The path part of a call's URL (after its base, env var or host)."""
    a = pg.attrs(call)
    path = a.get("path")
    if isinstance(path, str) and path:
        return path
    text = str(pg.node(call).get("name") or "").split(" ", 1)[-1]
    text = text.split("}", 1)[-1] if text.startswith("{") else text
    if "://" in text:
        text = "/" + text.split("://", 1)[1].partition("/")[2]
    return text


def could_be(pg: ProjectGraph, call: str, route: str) -> bool:
    """The call's method and path fit the route, its base aside (the path is the route's tail)."""
    have = route_of(pg.node(route))
    if have is None:
        return False
    method = str(
        pg.attrs(call).get("method") or str(pg.node(call).get("name")).split(" ")[0]
    ).upper()
    if have[0] not in ("ANY", "ALL", "USE") and method != have[0]:
        return False
    return bool(match_segments(segments(call_path(pg, call)), segments(have[1]), suffix=True))


def bridged(pg: ProjectGraph, call: str) -> list[tuple[str, dict]]:
    return [(v, d) for _, v, d in pg.g.out_edges(call, data=True) if d.get("type") == "CALLS"]


def fits_text(pg: ProjectGraph, call: str, method: str | None, path: str) -> bool:
    m = str(pg.attrs(call).get("method") or "").upper()
    if method and m and m != method:
        return False
    return bool(match_segments(segments(call_path(pg, call)), segments(path), suffix=True))
