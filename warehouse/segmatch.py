"""Matching a call's typed path to a route's typed path (vocab.pathparts segments).

Per segment (call ↔ route):
- literal ↔ the same literal: `exact`;
- anything ↔ a route parameter or catch-all: `param`;
- a call hole whose default is the route's literal, or a literal that is a route hole's
  default: `default`;
- anything ↔ a route hole (`/{API_PREFIX}/users`): `wildcard` — the route's value is not
  known, so the edge is drawn at low confidence; a literal other than the hole's default
  (`/users` ↔ `/{API_PREFIX=api}/users`'s first segment) is only `loose`;
- an env / config hole of the call ↔ a route literal: `wildcard` as well;
- a run-time value of the call ↔ a route literal (`{slug}` ↔ `feed`): `loose` — never
  joined, only named as the closest route.
A route's kind is its worst segment's; among the routes that match, the best kind wins and
then the fewest non-literal segments (`/articles/feed` beats `/articles/{slug}`); a tie left
after that is ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass

from vocab.pathparts import Seg, shown

ANY_METHOD = {"ALL", "USE", "ANY", "*"}
RANK = {"exact": 0, "param": 1, "default": 2, "wildcard": 3, "loose": 4}


@dataclass(frozen=True)
class RouteRef:
    id: str
    component: str
    method: str
    segs: tuple[Seg, ...]
    file: str | None = None
    line: int | None = None
    name: str = ""  # as the route node is named (the framework's own parameter syntax)
    condition: str | None = None  # a registration chosen at run time: when it is this one

    @property
    def text(self) -> str:
        return self.name or f"{self.method} {shown(list(self.segs))}"


@dataclass(frozen=True)
class RouteMatch:
    route: RouteRef
    kind: str  # exact | param | default | wildcard | loose
    suffix: bool
    loose_count: int = 0  # segments not matched literally (ties: fewer wins)


def _seg(call: Seg, route: Seg) -> str | None:
    if route.kind in ("param", "rest"):
        return "param"
    if route.kind == "hole":
        if call.kind == "lit" and route.default is not None:
            # the value the route has unless configured otherwise: another literal is no
            # more than the closest route (a call without the prefix is not this route)
            return "default" if call.text == route.default else "loose"
        return "wildcard"
    if call.kind == "lit":
        return "exact" if call.text == route.text else None
    if call.kind == "hole" and call.default is not None:
        return "default" if call.default == route.text else None
    if call.kind == "hole" and call.source in ("env", "config"):
        return "wildcard"  # a configured value (`/api/{VERSION}/x`): any literal, low
    return "loose"


def match_segs(call: list[Seg], route: list[Seg], suffix: bool = False) -> tuple[str, int] | None:
    """(kind, non-literal count) when `call` matches `route` (whole, or its tail when
    `suffix`), else None."""
    if route and route[-1].kind == "rest":
        head = route[:-1]
        if suffix or len(call) < len(head) + 1:
            return None  # a catch-all says nothing about a suffix
        pairs = list(zip(call[: len(head)], head, strict=True))
        kinds = [_seg(c, r) for c, r in pairs] + ["param"]
    else:
        if suffix:
            if len(route) < len(call) or not call:
                return None
            route = route[len(route) - len(call) :]
        elif len(route) != len(call):
            return None
        kinds = [_seg(c, r) for c, r in zip(call, route, strict=True)]
    if None in kinds:
        return None
    if suffix and "exact" not in kinds:
        return None  # a tail of parameters alone (`/admin` as `…/<path>`) says nothing either
    if not kinds:  # the root path on both sides
        return "exact", 0
    worst = max(kinds, key=lambda k: RANK[k])  # type: ignore[arg-type]
    return worst, sum(k != "exact" for k in kinds)  # type: ignore[return-value]


def filled_params(call: list[Seg], route: list[Seg], suffix: bool = False) -> list[int]:
    """Indexes into `call` where a literal of the call fills a one-segment route parameter
    (`feed` in `/articles/feed` against `/articles/{slug}`)."""
    if suffix:
        route = route[max(0, len(route) - len(call)) :]
    return [i for i, (c, r) in enumerate(zip(call, route, strict=False))
            if c.kind == "lit" and r.kind == "param"]  # fmt: skip


def method_fits(call: str, route: str) -> bool:
    return call == "*" or route.upper() in ANY_METHOD or route.upper() == call.upper()


def best_routes(
    method: str, call: list[Seg], routes: list[RouteRef], suffix: bool
) -> list[RouteMatch]:
    """The best-ranked routes for the call; ties are all returned (the caller says
    'ambiguous'). A specific method beats a catch-all one; with `suffix`, the shortest
    route that ends with the call's path."""
    found: list[RouteMatch] = []
    for route in routes:
        if not method_fits(method, route.method):
            continue
        got = match_segs(call, list(route.segs), suffix)
        if got:
            found.append(RouteMatch(route, got[0], suffix, got[1]))
    if not found:
        return []
    top = min((RANK[m.kind], m.loose_count) for m in found)
    pool = [m for m in found if (RANK[m.kind], m.loose_count) == top]
    if suffix and len(pool) > 1:
        shortest = min(len(m.route.segs) for m in pool)
        pool = [m for m in pool if len(m.route.segs) == shortest]
    if len(pool) > 1:
        specific = [m for m in pool if m.route.method.upper() not in ANY_METHOD]
        pool = specific or pool
    return sorted(pool, key=lambda m: m.route.id)


def closest_route(method: str, call: list[Seg], routes: list[RouteRef]) -> str:
    """The route a near miss was probably meant for: same path with another method, else
    the same method with one segment of two or more different (the rest agreeing, one
    literally); '' otherwise."""
    ordered = sorted(routes, key=lambda r: (r.text, r.id))
    for r in ordered:
        if not method_fits(method, r.method) and match_segs(call, list(r.segs)):
            return f"{r.text} (same path, other method)"
    for r in ordered:
        if not method_fits(method, r.method) or len(r.segs) != len(call) or len(call) < 2:
            continue
        kinds = [_seg(c, x) for c, x in zip(call, r.segs, strict=True)]
        off = [i for i, k in enumerate(kinds) if k is None]
        if len(off) == 1 and "exact" in kinds:
            return f"{r.text} (segment {off[0] + 1} differs: {call[off[0]].shown!r})"
    return ""
