"""Matching a path written as text (a doc claim, an agent's question) to a route, across
framework param syntaxes (read by vocab.pathparts.classify). The bridge matches typed
segments instead (warehouse.segmatch).

Route params `:id`, `{id}`, `<int:id>`, `[slug]`, `*` match any one segment (`[...slug]`
and `**` the rest). A call segment that is itself a template (`{id}`, `${id}`) matches
any route segment. An exact route beats a parametrised one, which beats a literal route
segment matched only by a call template; a full path beats a suffix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from vocab.pathparts import classify

_TEMPLATE = re.compile(r"\$?\{[^}]*\}")
ANY_METHOD = {"ALL", "USE", "ANY", "*"}


def segments(path: str) -> list[str]:
    path = path.split("?", 1)[0].split("#", 1)[0]
    return [s for s in path.split("/") if s]


def split_url(url: str) -> tuple[str | None, str]:
    """(host, path) of an absolute URL; (None, url) for anything else."""
    if "://" not in url:
        return None, url
    parts = urlsplit(url)
    host = (parts.hostname or "").lower() or None
    return host, parts.path or "/"


def join_path(base_path: str, call_path: str) -> str:
    """String concatenation, the way `${BASE}${path}` builds it, with `//` collapsed."""
    if base_path and call_path and not base_path.endswith("/") and not call_path.startswith("/"):
        joined = base_path + "/" + call_path
    else:
        joined = (base_path or "") + (call_path or "")
    return "/" + "/".join(segments(joined))


def _seg_kind(call_seg: str, route_seg: str) -> str | None:
    """'exact', 'param' or None (no match) for one segment pair."""
    if classify(route_seg).kind in ("param", "rest"):
        return "param"
    if _TEMPLATE.search(call_seg):
        pattern = "^" + ".+".join(re.escape(p) for p in _TEMPLATE.split(call_seg)) + "$"
        return "loose" if re.match(pattern, route_seg) else None
    return "exact" if call_seg == route_seg else None


def match_segments(call: list[str], route: list[str], suffix: bool) -> str | None:
    """'exact' / 'param' when `call` matches `route` (whole, or its tail when `suffix`)."""
    if route and classify(route[-1]).kind == "rest":
        head = route[:-1]
        if len(call) < len(head) + 1 and not suffix:
            return None
        if suffix:
            return None  # a catch-all route says nothing about a suffix
        kinds = [_seg_kind(c, r) for c, r in zip(call[: len(head)], head, strict=True)]
        return None if None in kinds else "param"
    if suffix:
        if len(route) < len(call):
            return None
        route = route[len(route) - len(call) :]
    elif len(route) != len(call):
        return None
    kinds = [_seg_kind(c, r) for c, r in zip(call, route, strict=True)]
    if None in kinds:
        return None
    return "loose" if "loose" in kinds else "param" if "param" in kinds else "exact"


@dataclass
class RouteRef:
    id: str
    component: str
    method: str
    path: str
    file: str | None = None
    line: int | None = None


@dataclass
class RouteMatch:
    route: RouteRef
    kind: str  # exact | param | loose (a call template against a literal route segment)
    suffix: bool


def best_routes(method: str, path: str, routes: list[RouteRef], suffix: bool) -> list[RouteMatch]:
    """The best-ranked routes for the call: exact before param; ties are all returned."""
    call = segments(path)
    method = method.upper()
    found: list[RouteMatch] = []
    for route in routes:
        if route.method.upper() not in ANY_METHOD and method != "*" and route.method != method:
            continue
        kind = match_segments(call, segments(route.path), suffix)
        if kind:
            found.append(RouteMatch(route, kind, suffix))
    if not found:
        return []
    rank = {"exact": 0, "param": 1, "loose": 2}
    best = min(rank[m.kind] for m in found)
    pool = [m for m in found if rank[m.kind] == best]
    if suffix and len(pool) > 1:  # prefer the shortest route that ends with the call path
        shortest = min(len(segments(m.route.path)) for m in pool)
        pool = [m for m in pool if len(segments(m.route.path)) == shortest]
    if len(pool) > 1:  # a specific method beats a catch-all method
        specific = [m for m in pool if m.route.method.upper() not in ANY_METHOD]
        pool = specific or pool
    return sorted(pool, key=lambda m: m.route.id)


def closest_route(method: str, path: str, routes: list[RouteRef]) -> str:
    """The route a near miss was probably meant for: same path with another method, else
    the same method with exactly one of two or more segments different (the others agreeing, one
    literally); '' otherwise."""
    call = segments(path)
    method = method.upper()
    for r in sorted(routes, key=lambda r: (r.path, r.method)):
        if r.method.upper() != method and match_segments(call, segments(r.path), False):
            return f"{r.method} {r.path} (same path, other method)"
    for r in sorted(routes, key=lambda r: (r.path, r.method)):
        if r.method.upper() not in ANY_METHOD | {method}:
            continue
        route = segments(r.path)
        if len(route) != len(call) or len(call) < 2:
            continue
        kinds = [_seg_kind(c, x) for c, x in zip(call, route, strict=True)]
        off = [i for i, k in enumerate(kinds) if not k]
        if len(off) == 1 and "exact" in kinds:  # the rest agrees, on a literal at least
            return f"{r.method} {r.path} (segment {off[0] + 1} differs: {call[off[0]]!r})"
    return ""


def route_of(name: str, attrs: dict) -> tuple[str, str]:
    """(method, path) of a route node: attrs `method`/`path`, else its name `METHOD /path`."""
    method, path = attrs.get("method"), attrs.get("path")
    if method and path is not None:
        return str(method).upper(), str(path)
    head, _, tail = name.partition(" ")
    if tail.startswith("/"):
        return head.upper(), tail
    return "ALL", name if name.startswith("/") else "/" + name
