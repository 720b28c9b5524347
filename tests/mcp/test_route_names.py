"""Routes named the way a person writes them: holes and parameters, typed or as text."""

from __future__ import annotations

import pytest

from mcp_server.route_names import has_hole, is_hole, match_tier, normal

HOLED = [
    {"kind": "hole", "text": "api_prefix", "source": "config"},
    {"kind": "lit", "text": "v1"},
    {"kind": "lit", "text": "users"},
]


@pytest.mark.parametrize(
    ("typed", "route", "tier"),
    [
        ("GET /api/profiles/<username>", "GET /api/profiles/<string:username>", 0),
        ("POST /api/v1/auth/google/login", "POST /api/v1/auth/:provider/login", 1),
        ("GET /users/42", "GET /users/:id", 1),
        ("POST /api/v1/auth/google/login", "POST /{API_PREFIX}/v1/auth/{provider}/login", 2),
        ("POST /v1/users", "POST /{API_PREFIX}/v1/users", 2),  # the hole may be empty
        ("GET /api/profiles/jake", "GET /api{profiles_bp.url_prefix}/<string:username>", 2),
        ("GET /{API_PREFIX}/v1/users", "GET /api/v1/users", 3),
        ("GET /users", "GET /api/users", None),  # a tail without its mount prefix is not it
        ("GET /api/articles/{slug}", "GET /api/articles/feed", None),  # a param is no literal
        ("POST /api/users", "GET /api/users", None),
    ],
)
def test_a_typed_route_matches_by_tier(typed, route, tier):
    method, path = typed.split(" ", 1)
    have_method, have_path = route.split(" ", 1)
    assert match_tier(method, path, have_method, have_path) == tier


def test_the_extractors_typed_holes_win_over_the_text():
    # `{api_prefix}` reads like a parameter; the segments say it is a hole
    assert match_tier("POST", "/api/v1/users", "POST", "/{api_prefix}/v1/users", HOLED) == 2
    assert match_tier("POST", "/v1/users", "POST", "/{api_prefix}/v1/users", HOLED) == 2
    assert match_tier("POST", "/api/v2/users", "POST", "/{api_prefix}/v1/users", HOLED) is None


def test_holes_are_expressions_parameters_are_names():
    assert is_hole("API_PREFIX") and is_hole("settings.api_prefix") and is_hole("prefix()")
    assert not is_hole("id") and not is_hole("userId") and not is_hole("id:int")
    assert has_hole("/api{bp.url_prefix}/x") and not has_hole("/users/{id}")
    assert normal("/{API_PREFIX}/Users/:id/[...rest]") == "/{*}/users/{}/{**}"
