"""Routes named the way a person writes them: `METHOD /path`, with or without holes.

A route's name is `METHOD /full/path` in its framework's parameter syntax (`:id`, `{id}`,
`<int:id>`, `[id]`). Where the extractor could not evaluate a prefix it keeps a readable
hole: a whole segment (`/{API_PREFIX}/v1/users`) or part of one (`/api{bp.url_prefix}/x`).
A hole is a `{…}` whose content is an expression — upper case (`API_PREFIX`) or dotted
(`settings.api_prefix`) — and stands for any run of characters, slashes included; a
parameter (`{id}`, `:id`, `<id>`) stands for one segment.

`match_tier` ranks how a typed route matches a route node: 0 the same after parameter
syntax is normalised, 1 the typed literals fill the route's parameters, 2 the route's
holes absorb what the typed path adds (`POST /api/v1/auth/google/login` against
`POST /{API_PREFIX}/v1/auth/{provider}/login`), 3 the typed path's own holes or
parameters cover the route's literals. A typed path that is only the tail of a route
(no mount prefix) is not a match: it is a near route (`near_routes`), said as such.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mcp_server.graph import ProjectGraph

METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "ANY", "ALL", "USE"}
ANY_METHOD = {"ANY", "ALL", "USE", "*"}
_ROUTE = re.compile(r"^(?:(?P<method>[A-Za-z]+)\s+)?(?P<path>/\S*)$")
# one whole-segment parameter, in any framework's syntax
_PARAM = re.compile(r"^(:[\w-]+\??|\{[a-z_][\w-]*(?::[^}]*)?\}|<[^>]+>|\[[^\]]+\]|\*\*?)$")
_REST = re.compile(r"^(\[\[?\.\.\.[^\]]+\]\]?|\*\*|\*[\w-]+|:[\w-]+[*+]|\{[^}]*:path\}|\(\.\*\))$")
_BRACE = re.compile(r"\{([^{}]*)\}")


def route_parts(text: str) -> tuple[str | None, str] | None:
    """(METHOD or None, path) of `METHOD /path` or `/path`; None when it is not one."""
    match = _ROUTE.match((text or "").strip())
    if not match:
        return None
    method = (match["method"] or "").upper() or None
    if method and method not in METHODS:
        return None
    return method, match["path"]


def segments(path: str) -> list[str]:
    return [s for s in path.split("?", 1)[0].split("/") if s]


def is_hole(body: str) -> bool:
    """`API_PREFIX`, `settings.api_prefix`, `bp.url_prefix`, `prefix()`: an expression the
    extractor could not evaluate (a parameter is a lower- or camel-case name: `{userId}`)."""
    body = body.strip()
    if not body or ":" in body:
        return False
    if "." in body or "(" in body:
        return True
    letters = [c for c in body if c.isalpha()]
    return len(body) > 1 and bool(letters) and all(c.isupper() for c in letters)


def _is_param(seg: str) -> bool:
    if not _PARAM.match(seg):
        return False
    inner = _BRACE.fullmatch(seg)
    return inner is None or not is_hole(inner.group(1))


def has_hole(path: str) -> bool:
    return any(is_hole(m.group(1)) for m in _BRACE.finditer(path))


def normal(path: str) -> str:
    """The path with every parameter written `{}` and every hole `{*}`, lower case."""
    out = []
    for seg in segments(path):
        if _REST.match(seg):
            out.append("{**}")
            continue
        if _is_param(seg):
            out.append("{}")
            continue
        marked = _BRACE.sub(lambda m: "\x01" if is_hole(m.group(1)) else "\x02", seg)
        out.append(marked.lower().replace("\x01", "{*}").replace("\x02", "{}"))
    return "/" + "/".join(out)


def _pattern(path: str, holes: bool, strict: bool = False) -> re.Pattern[str] | None:
    """A regex for the path: a parameter is one segment (`strict`: only the other side's
    parameter), a hole (when `holes`) any run; None when the path has a hole and `holes`
    is off."""
    one, part = ("/\x00", "\x00") if strict else ("/[^/]+", "[^/]*")
    parts = []
    for seg in segments(path):
        if _REST.match(seg):
            parts.append("(?:/.*)?")
            continue
        if _is_param(seg):
            parts.append(one)
            continue
        whole = _BRACE.fullmatch(seg)
        if whole and is_hole(whole.group(1)):
            if not holes:
                return None
            parts.append("(?:/.*)?")
            continue
        text, pos = "/", 0
        for m in _BRACE.finditer(seg):
            text += re.escape(seg[pos : m.start()])
            if is_hole(m.group(1)):
                if not holes:
                    return None
                text += ".*"
            else:
                text += part
            pos = m.end()
        parts.append(text + re.escape(seg[pos:]))
    return re.compile("^" + "".join(parts) + "/?$", re.I)


def _literal(path: str) -> str:
    """The path with its parameters and holes as one opaque token each (matched by the
    other side's parameters, never by its literals)."""
    out = []
    for seg in segments(path):
        out.append("\x00" if _is_param(seg) else _BRACE.sub("\x00", seg))
    return "/" + "/".join(out)


def method_ok(asked: str | None, route_method: str) -> bool:
    have = route_method.upper()
    return not asked or asked in ANY_METHOD or have in ANY_METHOD or have == asked


def _typed_pattern(parts: list[dict]) -> re.Pattern[str] | None:
    """The regex of a route's typed `segments` attr (lit / param / hole), a hole — even one
    shown by its default — standing for any run; None when it has no hole."""
    if not any(isinstance(p, dict) and p.get("kind") == "hole" for p in parts):
        return None
    out = []
    for p in parts:
        kind, text = p.get("kind"), str(p.get("text") or "")
        out.append(
            "(?:/.*)?" if kind == "hole" else "/[^/]+" if kind == "param" else "/" + re.escape(text)
        )
    return re.compile("^" + "".join(out) + "/?$", re.I)


def match_tier(
    method: str | None,
    path: str,
    route_method: str,
    route_path: str,
    parts: list[dict] | None = None,
) -> int | None:
    """How well the typed route matches a route node (lower is better), None: no match.
    `parts`: the route's typed segments when the extractor gave them (holes known as such)."""
    if not method_ok(method, route_method):
        return None
    if normal(path) == normal(route_path):
        return 0
    typed = _literal(path)
    holed = _typed_pattern(parts) if parts else None  # the extractor's holes, known as such
    exact = None if holed else _pattern(route_path, holes=False)
    if exact is not None and exact.match(typed):
        return 1
    loose = holed or _pattern(route_path, holes=True)
    if loose is not None and loose.match(typed):
        return 2
    back = _pattern(path, holes=True, strict=True) if has_hole(path) else None
    if back is not None and back.match(_literal(route_path)):
        return 3
    return None


def route_of(data: dict) -> tuple[str, str] | None:
    """(METHOD, path) of a route node: attrs `method`/`path`, else its name."""
    attrs = data.get("attrs") or {}
    method, path = attrs.get("method"), attrs.get("path")
    if method and isinstance(path, str) and path.startswith("/"):
        return str(method).upper(), path
    parts = route_parts(str(data.get("name") or ""))
    if parts is None:
        return None
    return (parts[0] or "ANY"), parts[1]


@dataclass(frozen=True)
class RouteHit:
    node: str
    tier: int


def matching_routes(
    pg: ProjectGraph, text: str, component: str | None = None, project_only: bool = True
) -> list[RouteHit]:
    """Every route of the project the typed `METHOD /path` matches, best tier first."""
    parts = route_parts(text)
    if parts is None:
        return []
    method, path = parts
    hits = []
    for n, d in pg.of_kind("route"):
        if project_only and d.get("project") != pg.project:
            continue
        if component and d.get("component") != component:
            continue
        have = route_of(d)
        if have is None:
            continue
        typed = (d.get("attrs") or {}).get("segments")
        tier = match_tier(method, path, *have, typed if isinstance(typed, list) else None)
        if tier is not None:
            hits.append(RouteHit(n, tier))
    return sorted(hits, key=lambda h: (h.tier, h.node))


def best_routes(pg: ProjectGraph, text: str, component: str | None = None) -> list[str]:
    """The routes of the best tier the typed route matches (several: an honest ambiguity)."""
    hits = matching_routes(pg, text, component)
    if not hits:
        return []
    best = hits[0].tier
    pool = [h.node for h in hits if h.tier == best]
    if method := (route_parts(text) or (None, ""))[0]:  # a specific method beats a catch-all
        specific = [n for n in pool if (route_of(pg.node(n)) or ("", ""))[0] == method]
        pool = specific or pool
    return pool


def _dist(a: list[str], b: list[str]) -> int | None:
    if len(a) != len(b):
        return None
    return sum(x != y for x, y in zip(a, b, strict=True))


def near_routes(
    pg: ProjectGraph, method: str | None, path: str, component: str | None
) -> list[str]:
    """Routes that differ only by method, by one segment, or by a mount prefix."""
    want = segments(normal(path))
    scored: list[tuple[int, str]] = []
    for n, d in pg.of_kind("route"):
        if d.get("project") != pg.project:
            continue
        have_route = route_of(d)
        if have_route is None:
            continue
        m, p = have_route
        have = segments(normal(p))
        dist = _dist(want, have)
        same_method = method_ok(method, m)
        if dist == 0:
            score = 0 if not same_method else 1
        elif dist == 1:
            score = 2 if same_method else 3
        elif have and len(have) < len(want) and want[-len(have) :] == have:
            score = 4  # the same path without a mount prefix
        elif want and len(want) < len(have) and have[-len(want) :] == want:
            score = 4  # the typed path lacks the route's mount prefix
        else:
            continue
        if component and d.get("component") != component:
            score += 1
        scored.append((score, n))
    return [n for _, n in sorted(scored)[:8]]


def holes_that_could_be(
    pg: ProjectGraph, method: str | None, path: str, component: str | None = None
) -> list[str]:
    """Routes with a hole or parameter that a concrete typed path could fill (tier ≥ 2)."""
    return [h.node for h in matching_routes(pg, f"{method or ''} {path}".strip(), component)
            if h.tier >= 2]  # fmt: skip
