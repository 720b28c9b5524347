"""Starts given as `path:line` resolved the way a person means them, and routes registered
by a regex named by the path they serve — through a real MCP client over stdio on the
harbor project (mcp_locate_fixture)."""

from __future__ import annotations

import re

import mcp_locate_fixture as fixture
import pytest
from mcp_ask import asker, serve

P = fixture.P
ask = asker()


@pytest.fixture(scope="module")
def harbor(tmp_path_factory: pytest.TempPathFactory):
    yield from serve(fixture.build, tmp_path_factory.mktemp("locate"))


def test_a_file_whose_first_folder_is_named_like_a_component_is_that_file(harbor):
    text = ask(harbor, "kb_trace", start="api/accounts.ts:14", project=P, direction="down")
    assert text.startswith(
        "http_call POST {API_ROOT}/api/sessions (harbor/web api/accounts.ts:14-17)"
    )
    assert "--> route POST /api/sessions (harbor/api src/routes/sessions.ts:31)" in text


def test_a_line_inside_a_route_written_over_several_lines_is_that_route(harbor):
    text = ask(harbor, "kb_trace", start="src/routes/sessions.ts:32", project=P, direction="up")
    first, second = text.splitlines()[:2]
    assert first == (
        "nothing starts on harbor/api src/routes/sessions.ts:32: answering for the route "
        "registered above it, POST /api/sessions (harbor/api src/routes/sessions.ts:31)"
    )
    assert second.startswith("route POST /api/sessions")
    assert "http_call POST {API_ROOT}/api/sessions (harbor/web api/accounts.ts:14-17)" in text
    assert "no — per the static graph" not in text


def test_a_line_far_from_any_registration_is_still_a_plain_no(harbor):
    text = ask(harbor, "kb_trace", start="src/routes/sessions.ts:40", project=P, direction="up")
    assert text.startswith(
        "no — per the static graph: nothing is declared on harbor/api src/routes/sessions.ts:40"
    )


def test_a_regex_route_is_named_by_the_path_it_serves(harbor):
    text = ask(harbor, "kb_trace", start="src/pages/seal.ts:5", project=P, direction="down")
    assert "--> route POST /api/boxes/<slug>/seal (harbor/api src/urls.py:14)" in text
    assert "(?P<" not in text
    for name in ("POST /api/boxes/b-17/seal", "POST /api/boxes/<slug>/seal", fixture.SEAL):
        text = ask(harbor, "kb_entity", name=name, project=P)
        assert text.startswith("route POST /api/boxes/<slug>/seal"), name
    text, err = harbor.call("kb_find", kind="route", query="POST /api/boxes/x/seal")
    assert not err and "POST /api/boxes/<slug>/seal (harbor/api src/urls.py:14)" in text


def test_routes_sharing_one_line_each_keep_a_caller_when_the_budget_cuts(harbor):
    text = ask(harbor, "kb_trace", start="src/urls.py:11", project=P, direction="up", budget=900)
    assert text.startswith("'src/urls.py:11' matches 3 routes — each traced")
    assert text.splitlines()[-1].startswith("collapsed:")
    blocks = re.split(r"^(?=route )", text, flags=re.M)[1:]
    assert [b.split(" (", 1)[0] for b in blocks] == [f"route {m} {p}" for m, p in fixture.VIEWSET]
    for block in blocks:
        assert re.search(r"<--CALLS .*-- http_call \w+ \{API_ROOT\}/api/boxes", block), block
    assert "src/pages/editor.ts:6" in text and "src/pages/editor.ts:20" in text
