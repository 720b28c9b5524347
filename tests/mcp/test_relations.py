"""Answers an agent can act on — through a real MCP client over stdio, on the orbit/delta
portfolio (mcp_relations_fixture): component views built around relationships, the
negatives engine (placeholder prefix, across projects), upward traces that name what could
hide a caller, names resolved the way a person means them, provenance tails and spans."""

from __future__ import annotations

import re

import mcp_relations_fixture as fixture
import pytest
from mcp_ask import asker, serve

ORBIT = fixture.ORBIT
LOGIN = "POST /api/v1/auth/google/login"


@pytest.fixture(scope="module")
def orbit(tmp_path_factory: pytest.TempPathFactory):
    yield from serve(fixture.build, tmp_path_factory.mktemp("relations"))


ask = asker(fixture.PLANT, "delta/")


def test_a_component_with_30_routes_and_5_targets_fits_2000_tokens_whole(orbit):
    text = ask(orbit, "kb_entity", name="gateway", project=ORBIT, budget=2000)
    for res in fixture.RESOURCES:
        for method, tail, _ in fixture.VERBS:
            assert re.search(rf"^  {method} /{res}{re.escape(tail)} \(src/routes/{res}\.ts:\d\)", text, re.M), (res, method, tail)  # fmt: skip
    for comp, method, path, handler, _ in fixture.BACKENDS:
        assert f"→ {ORBIT}/{comp} (1 call, 1 route):" in text
        assert (
            f"{method} {path} → {handler}" in text
            or f"{method} {path} (src/routes/{comp}.ts:4) → {handler}" in text
        )
    assert (
        text.count("helmet") == 1
        and "every route first passes: [1] helmet (src/app.ts:10) [2] cors" in text
    )
    assert "POST /books ← " in text and "Books.vue:22" in text  # inbound, from the frontend
    assert "more route" not in text and "… +" not in text  # no list cut in the middle
    order = [text.index(s) for s in ("routes of orbit/gateway (30)", "outbound calls (5 call sites → 5 targets)",
                                     "inbound calls (2 call sites", "env vars read")]  # fmt: skip
    assert order == sorted(order)


def test_a_tight_budget_keeps_every_route_and_target_in_less_detail(orbit):
    text = ask(orbit, "kb_entity", name="gateway", project=ORBIT, budget=1000)
    for res in fixture.RESOURCES:
        assert f"src/routes/{res}.ts (5): GET /{res}:5, POST /{res}:6" in text
    for comp, *_ in fixture.BACKENDS:
        assert f"→ {ORBIT}/{comp} (1 call" in text
    assert text.splitlines()[-1].startswith("collapsed: routes grouped")


def test_a_file_view_lists_its_routes_with_handler_and_what_the_handler_calls(orbit):
    text = ask(orbit, "kb_entity", name="src/routes/books.ts", project=ORBIT)
    assert "every route first passes: [1] helmet (src/app.ts:10) [2] cors (src/app.ts:11)" in text
    assert (
        "POST /books (src/routes/books.ts:6) → booksController.create (src/controllers/books.ts:22-31)"
        " | [3] requireAuth (src/routes/books.ts:6)"
    ) in text
    assert (
        "booksController.create calls HTTP GET {USERS_URL}/v1/users/:id (src/clients/users.ts:8)"
        in text
    )
    assert text.count("helmet") == 1


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("kb_trace", {"start": "web", "to": LOGIN}),
        ("kb_neighbors", {"node": "web", "to": LOGIN}),
    ],
)
def test_a_negative_whose_route_has_a_placeholder_prefix(orbit, tool, args):
    text = ask(orbit, tool, project=ORBIT, **args)
    first = text.splitlines()[0]
    assert first.startswith("no — per the static graph: component web")
    assert (
        "route POST /{API_PREFIX}/v1/auth/{provider}/login (orbit/users src/routes/auth.ts:12-13)"
        in first
    )
    assert f"the route exists: '{LOGIN}' is this route through its unresolved prefix" in text
    assert "{API_PREFIX} from env — API_PREFIX (declared without a value at src/main.ts:7)" in text
    assert "its inbound CALLS: none" in text
    assert (
        "→ orbit/gateway (2): POST /books ← src/components/Books.vue:22" in text
    )  # what it calls instead
    assert (
        "unresolved http_call POST {AUTH_URL}/v1/auth/{provider}/login (orbit/web "
        "src/components/LoginButton.vue:14) — base AUTH_URL is set nowhere in the repo"
    ) in text


def test_the_placeholder_route_resolves_by_its_concrete_path(orbit):
    text = ask(orbit, "kb_entity", name=LOGIN, project=ORBIT)
    assert text.startswith("route POST /{API_PREFIX}/v1/auth/{provider}/login")
    assert "path built: mounted {API_PREFIX} (src/main.ts:7 setGlobalPrefix)" in text
    assert "no — per the static graph: no call site reaches route" in text


@pytest.mark.parametrize("to", ["POST /api/users", "delta/api:route:POST /api/users"])
def test_a_cross_project_negative_says_no_edge_can_exist(orbit, to):
    text = ask(orbit, "kb_trace", start="web", project=ORBIT, to=to)
    assert text.startswith(
        "no — per the static graph, and no edge can exist: route 'POST /api/users'"
    )
    assert "it is in project delta" in text and "never joins two projects" in text
    assert "what web calls instead (3 call sites):" in text


def test_a_yes_verdict_comes_first_with_each_call_site(orbit):
    text = ask(orbit, "kb_trace", start="web", project=ORBIT, to="gateway")
    assert text.startswith("yes — per the static graph: component web")
    assert "2 call sites → 2 routes" in text
    assert (
        "← POST {VITE_GATEWAY_URL}/todos at orbit/web src/components/TodoApp.jsx:6 in TodoApp.handleAddTodo"
        in text
    )


def test_an_ambiguous_name_lists_its_candidates_and_a_component_outranks_a_symbol(orbit):
    text, err = orbit.call("kb_entity", name="formatPrice", project=ORBIT)
    assert err and "matches 2 nodes" in text and "\n" not in text
    assert "orbit/billing src/money.ts:2-6" in text and "orbit/web src/lib/price.ts:1-4" in text
    text = ask(orbit, "kb_entity", name="search", project=ORBIT)
    assert text.startswith("component search\nid: orbit:component:search")


def test_an_up_trace_without_callers_names_what_could_hide_one(orbit):
    text = ask(orbit, "kb_trace", start=LOGIN, project=ORBIT, direction="up")
    assert "no — per the static graph: no call site reaches route POST /{API_PREFIX}" in text
    assert "call sites not bridged to any route whose method and path fit it (1):" in text
    assert "unresolved http_call fetch(endpoints[kind]) (orbit/web src/lib/track.ts:7)" in text
    assert text.count("LoginButton.vue:14") == 1  # the unresolved row of that call is not repeated


def test_a_medium_confidence_edge_is_said_in_words(orbit):
    text = ask(orbit, "kb_trace", start="GET /v1/users/:id", project=ORBIT, direction="up")
    assert (
        "medium confidence — the path matched through route parameters; resolved by KB calls[0] env_var USERS_URL; "
        "evidence: USERS_URL = http://users:8080, compose service (compose.yaml:12)" in text
    )
    text = ask(orbit, "kb_trace", start="GET /query", project=ORBIT, direction="up")
    assert (
        "(via SEARCH_URL, envs dev+prod, the call site is in dead code (nothing calls its function))"
        in text
    )


def test_terraform_variables_are_not_listed_as_resources(orbit):
    text = ask(orbit, "kb_entity", name="infra", project=ORBIT)
    assert "terraform of orbit/infra: 2 resources, 2 variables" in text
    assert (
        "variables (2): var.region = europe-west1 (variables.tf:1-4), var.project_id (variables.tf:6-8)"
        in text
    )
    assert "google_cloud_run_v2_service (1): gateway (main.tf:1-30)" in text


def test_one_handler_under_two_paths_is_one_route_line(orbit):
    text = ask(orbit, "kb_entity", name="notify", project=ORBIT)
    assert (
        "GET /api/messages (src/routes/notify.ts:9) (also /api/api/messages (src/routes/notify.ts:9)) → "
        "messagesController.list"
    ) in text
    assert "routes of orbit/notify (3)" in text and text.count("messagesController.list") == 1


def test_reads_written_in_route_registrations_are_one_fact(orbit):
    text = ask(orbit, "kb_impact", target="JWT_SECRET", project=ORBIT)
    assert "read at (1, production code):\n  orbit/gateway src/auth/tokens.ts:5 — signToken" in text
    assert (
        "read inline where 2 route registrations build a middleware (orbit/gateway src/routes/books.ts:5,6)"
        in text
    )


def test_routes_are_found_across_projects_from_the_catalog(orbit):
    text, err = orbit.call("kb_find", kind="route", query="POST /api/users")
    assert not err and "POST /api/users (delta/api src/" in text
    text, err = orbit.call("kb_find", kind="route", query=LOGIN)
    assert (
        not err
        and "POST /{API_PREFIX}/v1/auth/{provider}/login (orbit/users src/routes/auth.ts:12)"
        in text
    )
    text, err = orbit.call("kb_find", kind="route", query="GET /books*", project=ORBIT)
    assert (
        not err
        and "GET /books (orbit/gateway src/routes/books.ts:5)" in text
        and "delta" not in text
    )


def test_compare_matches_components_by_role(orbit):
    text, err = orbit.call("kb_compare", kind="component", name="gateway")
    assert not err and text.startswith("components by role (api)")
    for comp in ("orbit/gateway", "orbit/users", "orbit/billing", "delta/api"):
        assert f"{comp} | api |" in text
    assert "orbit/web" not in text and "delta/portal" not in text


def test_neighbors_of_a_component_lead_with_the_components_it_calls_and_is_called_by(orbit):
    text = ask(orbit, "kb_neighbors", node="gateway", project=ORBIT)
    lines = text.splitlines()
    assert lines[1].startswith("outbound calls (5 call sites → 5 targets)")
    for comp, *_ in fixture.BACKENDS:
        assert f"→ {ORBIT}/{comp} (1 call, 1 route):" in text
    assert text.index("inbound calls (2 call sites") < text.index("--> HAS_ENV (1):")


def test_one_registration_emitted_twice_is_one_route_not_an_ambiguity(orbit):
    text = ask(orbit, "kb_entity", name="POST /charges", project=ORBIT)
    assert text.startswith("route POST /charges\nid: orbit/billing:route:POST /charges\n")
    assert "called from (1 call site):" in text  # the node that carries the bridge
    text = ask(orbit, "kb_entity", name="billing", project=ORBIT)
    assert "routes of orbit/billing (1, +1 emitted twice)" in text
    assert (
        "POST /charges (src/routes/billing.ts:4) (also registered again (src/routes/billing.ts:4))"
        in text
    )


def test_a_route_with_some_middleware_says_which_of_the_others_it_does_not_pass(orbit):
    """'Does GET /books go through requireAuth?': its chain, then what it has no edge to."""
    text = ask(orbit, "kb_neighbors", node="GET /books", project=ORBIT,
               edge_types=["USES_MIDDLEWARE"], direction="out")  # fmt: skip
    assert "--> USES_MIDDLEWARE (3):\n  middleware helmet" in text
    assert "no edge to the middleware other routes of gateway get" in text
    assert re.search(r"^  requireAuth — \d+ routes, usage at orbit/gateway src/routes/", text, re.M)
