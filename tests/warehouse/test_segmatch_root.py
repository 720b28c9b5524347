"""The root path (`GET /`) is a path like any other when a call is matched to routes."""

from __future__ import annotations

from vocab.pathparts import text_segments
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
