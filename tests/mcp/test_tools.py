"""The nine tools through a real MCP client over stdio, on the synthetic warehouse."""

from __future__ import annotations

TOOLS = {
    "kb_trace",
    "kb_impact",
    "kb_neighbors",
    "kb_find",
    "kb_compare",
    "kb_entity",
    "kb_sql",
    "kb_status",
    "kb_context",
}


def test_lists_the_nine_tools_with_layer_advice(mcp):
    tools = {t.name: t for t in mcp.tools()}
    assert set(tools) == TOOLS
    assert "index/projects.yaml" in tools["kb_entity"].description
    assert "index/decisions.md" in tools["kb_context"].description
    assert set(tools["kb_trace"].input_schema["properties"]) >= {
        "start",
        "project",
        "component",
        "direction",
        "to",
        "max_depth",
        "budget",
    }


def test_trace_follows_the_contact_form_across_repos(mcp):
    text, err = mcp.call("kb_trace", start="ContactForm", project="acme-shop")
    assert not err, text
    lines = text.splitlines()
    assert lines[0] == "symbol ContactForm (acme-shop/web src/components/contact-form.tsx:105-160)"
    order = [
        "--CALLS_HTTP--> http_call POST {NEXT_PUBLIC_CONTACT_API_URL}jp/contact (acme-shop/web src/components/contact-form.tsx:112)",
        "--CALLS (via NEXT_PUBLIC_CONTACT_API_URL, envs dev+prod)--> route POST /api/jp/contact (acme-shop/api src/routes/contact.ts:18)",
        "--USES_MIDDLEWARE--> [1] rateLimit (acme-shop/api src/routes/contact.ts:18; defined src/middleware/rate-limit.ts:7) [2] validateContact (acme-shop/api src/routes/contact.ts:18; defined src/validators/contact.ts:12)",
        "--ROUTES_TO--> symbol contactController.sendContactEmailJp (acme-shop/api src/controllers/contact.ts:40-70)",
        "--CALLS_FN--> symbol zendeskService.createTicket (acme-shop/api src/services/zendesk.ts:22-48) [at src/controllers/contact.ts:52]",
    ]
    positions = [next(i for i, ln in enumerate(lines) if ln.strip() == hop) for hop in order]
    assert positions == sorted(positions)
    assert any(ln.startswith("caveats: static trace") for ln in lines)


def test_trace_to_answers_whether_start_reaches_target(mcp):
    text, err = mcp.call(
        "kb_trace", start="ContactForm", project="acme-shop", to="ZENDESK_API_TOKEN"
    )
    assert not err and text.startswith("yes — per the static graph: symbol ContactForm")
    assert "path (5 hops):" in text.splitlines()[0]
    assert (
        "--READS_ENV--> env_var ZENDESK_API_TOKEN (acme-shop/api src/services/zendesk.ts:5)" in text
    )
    text, err = mcp.call(
        "kb_trace", start="healthCheck", project="acme-shop", to="ZENDESK_API_TOKEN"
    )
    assert not err and text.startswith("no — per the static graph: symbol healthCheck")
    assert "handlers[name](payload)" in text  # the unresolved call that could hide one


def test_trace_up_lists_callers(mcp):
    text, err = mcp.call(
        "kb_trace", start="zendeskService.createTicket", project="acme-shop", direction="up"
    )
    assert not err
    assert (
        "<--CALLS_HTTP-- symbol ContactForm (acme-shop/web src/components/contact-form.tsx:105-160)"
        in text
    )


def test_node_arguments_by_path_line_and_component_path_line(mcp):
    a, _ = mcp.call("kb_neighbors", node="src/routes/contact.ts:18", project="acme-shop")
    b, _ = mcp.call("kb_neighbors", node="api/src/routes/contact.ts:18", project="acme-shop")
    c, _ = mcp.call(
        "kb_neighbors", node="acme-shop/api:route:POST /api/jp/contact", project="acme-shop"
    )
    d, _ = mcp.call("kb_neighbors", node="/api/jp/contact", project="acme-shop", component="api")
    assert a == b == c == d
    assert a.startswith("route POST /api/jp/contact (acme-shop/api src/routes/contact.ts:18)")
    assert "--> USES_MIDDLEWARE (2):" in a and "<-- CALLS (1):" in a


def test_same_name_in_two_projects_returns_candidates(mcp):
    text, err = mcp.call("kb_trace", start="ContactForm")
    assert err and "2 projects" in text
    assert "acme-shop" in text and "globex-portal" in text and "\n" not in text


def test_unknown_node_suggests_nearest_names(mcp):
    text, err = mcp.call("kb_entity", name="ContactFrom", project="acme-shop")
    assert err and "nearest: ContactForm" in text and "\n" not in text


def test_unknown_project_and_component_are_one_line(mcp):
    text, err = mcp.call("kb_trace", start="ContactForm", project="acme-shopp")
    assert err and "unknown project 'acme-shopp'" in text and "did you mean acme-shop" in text
    text, err = mcp.call("kb_trace", start="ContactForm", project="acme-shop", component="apii")
    assert err and "unknown component 'apii'" in text


def test_neighbors_negative_is_honest(mcp):
    text, err = mcp.call("kb_neighbors", node="dispatchEvent", project="acme-shop")
    assert not err
    assert "no edge per the static graph" in text
    assert (
        "handlers[name](payload) (acme-shop/api src/services/events.ts:8) — dynamic dispatch"
        in text
    )


def test_neighbors_filters_edge_types_and_rejects_unknown(mcp):
    text, err = mcp.call(
        "kb_neighbors",
        node="POST /api/jp/contact",
        project="acme-shop",
        edge_types=["ROUTES_TO"],
        direction="out",
    )
    assert not err and "ROUTES_TO (1)" in text and "USES_MIDDLEWARE" not in text
    text, err = mcp.call(
        "kb_neighbors", node="POST /api/jp/contact", project="acme-shop", edge_types=["ROUTE_TO"]
    )
    assert err and "did you mean ROUTES_TO" in text


def test_impact_of_rotating_a_secret(mcp):
    text, err = mcp.call("kb_impact", target="zendesk-api-token", project="acme-shop")
    assert not err
    assert "env_var ZENDESK_API_TOKEN (acme-shop/api src/services/zendesk.ts:5)" in text
    assert (
        "POST /api/jp/contact (acme-shop/api src/routes/contact.ts:18) — via handler contactController.sendContactEmailJp"
        in text
    )
    assert (
        "acme-shop/web src/components/contact-form.tsx:112" in text
    )  # the caller in the other repo
    assert "api prod runtime=cloud-run" in text
    assert "ADR 0001 (proposed)" in text


def test_impact_of_a_folder_and_a_package(mcp):
    text, err = mcp.call("kb_impact", target="src/lib/helpers/", project="acme-shop")
    assert not err and "contactController.sendContactEmailJp" in text
    text, err = mcp.call("kb_impact", target="express", project="acme-shop")
    assert not err and "component api" in text and "globex" not in text


def test_find_and_compare_across_projects(mcp):
    text, err = mcp.call("kb_find", kind="package", query="express")
    assert not err
    assert (
        "acme-shop/api package.json:12 4.18.2" in text
        and "globex-portal/api package.json:9 4.19.2" in text
    )
    text, err = mcp.call("kb_compare", kind="package", name="express")
    assert not err and "versions 4.18.2: 1; 4.19.2: 1" in text
    text, err = mcp.call("kb_compare", kind="runtime", name="gke")
    assert (
        not err
        and "globex-portal/api | api | express | prod | gke" in text
        and "acme-shop" not in text
    )
    text, err = mcp.call("kb_find", kind="route", query="POST /api/*")  # across projects: catalog
    assert not err and "POST /api/jp/contact (acme-shop/api src/routes/contact.ts:18)" in text


def test_entity_of_a_component_lists_entry_points(mcp):
    text, err = mcp.call("kb_entity", name="api", project="acme-shop")
    assert not err
    assert (
        "POST /api/jp/contact (src/routes/contact.ts:18) → contactController.sendContactEmailJp "
        "(src/controllers/contact.ts:40-70) | [1] rateLimit (src/routes/contact.ts:18) [2] validateContact"
    ) in text
    assert "exported functions (2):" in text


def test_status_reports_freshness_and_old_items(mcp):
    text, err = mcp.call("kb_status")
    assert not err
    assert "acme-shop/api fresh at" in text
    assert "ADRs proposed > 30 days: 1" in text and "docs verified > 90 days ago: 1" in text
    assert "validation: 0 errors, 1 warnings" in text


def test_context_with_an_empty_doc_index_says_so(mcp):
    text, err = mcp.call(
        "kb_context", task="how does the contact form reach zendesk", max_tokens=500
    )
    assert not err and "0 sections" in text
    text, err = mcp.call("kb_context", task="   ")
    assert err and "empty task" in text


def test_trace_from_a_leaf_is_an_honest_negative(mcp):
    text, err = mcp.call("kb_trace", start="dispatchEvent", project="acme-shop")
    assert not err
    assert "no edge per the static graph: no calls via" in text
    assert "handlers[name](payload)" in text  # the dynamic call that could hide one
