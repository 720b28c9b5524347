"""Matching a call's typed path to routes: the root path, and prefix holes with a default."""

from __future__ import annotations

from vocab.pathparts import Seg, text_segments
from warehouse.segmatch import RouteRef, best_routes, match_segs


def _route(method: str, path: str) -> RouteRef:
    return RouteRef(
        id=f"r:{method} {path}", component="api", method=method, segs=tuple(text_segments(path))
    )


def test_a_call_of_the_root_path_matches_the_root_route_and_nothing_longer() -> None:
    routes = [_route("GET", "/"), _route("GET", "/health"), _route("GET", "/{page}")]
    assert match_segs(text_segments("/"), list(routes[0].segs)) == ("exact", 0)
    found = best_routes("GET", text_segments("/"), routes, suffix=False)
    assert [m.route.id for m in found] == ["r:GET /"]
    assert best_routes("GET", text_segments("/health"), routes, suffix=False)[0].route.id == (
        "r:GET /health"
    )


def test_a_prefix_hole_with_a_default_takes_its_default_not_any_other_literal() -> None:
    prefix = Seg("hole", "API_PREFIX", "config", "api")  # settings.API_PREFIX = "api/"
    root = RouteRef(id="r:root", component="api", method="GET", segs=(prefix,))
    token = RouteRef(
        id="r:token", component="api", method="GET", segs=(prefix, Seg("lit", "csrf_token"))
    )
    with_prefix = best_routes("GET", text_segments("/api/csrf_token"), [root, token], False)
    assert [(m.route.id, m.kind) for m in with_prefix] == [("r:token", "default")]
    # a call without the prefix is not the API root: at most the closest route, never joined
    without = best_routes("GET", text_segments("/csrf_token"), [root, token], False)
    assert all(m.kind == "loose" for m in without), without


def test_a_tail_of_parameters_alone_is_no_suffix_match() -> None:
    """Under an unknown base, a call's path may be a route's tail; but a tail the route only
    takes in its parameters (`/admin` as `/media/{path}`) says nothing about the route, and
    would let a host's stray calls tip the route-shape majority."""
    media = _route("GET", "/media/{path}")
    item = _route("GET", "/shop/items/{id}")
    assert match_segs(text_segments("/admin"), list(media.segs), suffix=True) is None
    assert best_routes("GET", text_segments("/admin"), [media, item], suffix=True) == []
    # a tail with a literal of its own still matches (`/items/7` under `/shop`)
    found = best_routes("GET", text_segments("/items/7"), [media, item], suffix=True)
    assert [(m.route.id, m.kind) for m in found] == [("r:GET /shop/items/{id}", "param")]
