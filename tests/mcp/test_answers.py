"""Answers that carry the facts: component and file views, up-traces, middleware-driven
impact, plain negatives, `*` refusals and kb_context isolation — through a real MCP
client over stdio, on a small invoicing portfolio (mcp_answers_fixture)."""

from __future__ import annotations

from pathlib import Path

import mcp_answers_fixture as fixture
import pytest
from mcp_ask import asker, serve

from tests.support.mcp_stdio import StdioClient

H = fixture.H


@pytest.fixture(scope="module")
def inv(tmp_path_factory: pytest.TempPathFactory):
    yield from serve(fixture.build, tmp_path_factory.mktemp("answers"))


ask = asker(fixture.PLANT, "quarry/")


def before(text: str, *parts: str) -> None:
    """Each part appears, in this order."""
    at = [text.index(p) for p in parts]
    assert at == sorted(at), text


def test_component_view_has_routes_inbound_calls_and_env_reads_before_packages(inv):
    text = ask(inv, "kb_entity", name="ledger", project=H)
    assert "every route first passes: [1] audit (src/app.ts:7)" in text
    assert (
        "POST /v2/invoices (src/routes/invoices.ts:12) → createInvoice "
        "(src/handlers/invoices.ts:20-35) | [2] requireSession (src/routes/invoices.ts:12)"
    ) in text
    assert "SESSION_SIGNING_KEY read at harbor/ledger src/guards/session.ts:6 (+1 in tests)" in text
    assert "→ secret session-key" in text
    assert (
        "← harbor/portal (1):\n    POST /v2/invoices ← POST {LEDGER_URL}/v2/invoices at harbor/portal "
        "src/forms/invoice.tsx:31 in InvoiceForm (via LEDGER_URL, envs dev+prod)"
    ) in text
    assert "prod: runtime=cloud-run" in text
    before(
        text,
        "routes of harbor/ledger (3)",
        "inbound calls (1 call site",
        "env vars read by",
        "secrets (1)",
        "packages: 3",
    )
    assert "naming its stack: express" in text and "lodash" not in text


def test_tight_budget_keeps_every_route_and_says_what_was_collapsed(inv):
    text = ask(inv, "kb_entity", name="ledger", project=H, budget=250)
    assert (
        "src/routes/invoices.ts (3): GET /v2/invoices:11, POST /v2/invoices:12, DELETE /v2/invoices/:id:13"
        in text
    )
    assert "env vars read (1): SESSION_SIGNING_KEY" in text
    assert "packages:" not in text and text.splitlines()[-1].startswith("collapsed: routes grouped")


def test_file_views_list_declarations_calls_and_importers(inv):
    text = ask(inv, "kb_entity", name="src/routes/invoices.ts", project=H, component="ledger")
    assert "routes of harbor/ledger src/routes/invoices.ts (3):" in text
    assert "DELETE /v2/invoices/:id (src/routes/invoices.ts:13) → voidInvoice" in text
    assert "createInvoice calls invoiceStore.insert (src/store/invoices.ts:30-44)" in text
    text = ask(inv, "kb_entity", name="src/forms/invoice.tsx", project=H, component="portal")
    assert (
        "→ harbor/ledger (1 call, 1 route):\n    POST /v2/invoices (src/routes/invoices.ts:12) → createInvoice "
        "(src/handlers/invoices.ts:20-35) ← harbor/portal src/forms/invoice.tsx:31 in InvoiceForm (via LEDGER_URL"
    ) in text
    assert "no route is declared" not in text  # the portal serves no route: nothing to say
    assert "imported by (1, +0 tests):" in text and "src/pages/billing.tsx:3" in text
    text = ask(inv, "kb_entity", name="src/lib/rates.ts", project=H, component="portal")
    assert (
        "→ external https://rates.example.net (1): GET https://rates.example.net/today at src/lib/rates.ts:5"
        in text
    )


def test_route_view_and_up_trace_reach_the_frontend_call_site(inv):
    text = ask(inv, "kb_entity", name="POST /v2/invoices", project=H, component="ledger")
    before(
        text,
        "[1] audit",
        "[2] requireSession",
        "handler: createInvoice",
        "calls invoiceStore.insert at harbor/ledger src/handlers/invoices.ts:27",
    )
    assert "called from (1 call site):" in text and "in InvoiceForm (via LEDGER_URL" in text
    for start in ("POST /v2/invoices", "createInvoice"):
        text = ask(inv, "kb_trace", start=start, project=H, direction="up")
        assert (
            "<--CALLS (via LEDGER_URL, envs dev+prod)-- http_call POST {LEDGER_URL}/v2/invoices (harbor/portal src/forms/invoice.tsx:31)"
            in text
        )
        assert (
            "<--CALLS_HTTP-- symbol InvoiceForm (harbor/portal src/forms/invoice.tsx:12-60)" in text
        )


def test_a_name_shared_by_two_functions_is_traced_from_each(inv):
    text = ask(inv, "kb_trace", start="formatAmount", project=H, component="portal")
    assert text.startswith("'formatAmount' matches 2 symbols — each traced")
    assert (
        "(harbor/portal src/lib/money.ts:2-6)" in text
        and "(harbor/portal src/forms/total.tsx:4-9)" in text
    )


def test_impact_of_a_secret_reaches_every_route_behind_the_guard_tests_apart(inv):
    text = ask(inv, "kb_impact", target="session-key", project=H)
    assert "harbor/ledger src/guards/session.ts:6 — requireSession" in text
    for method, path, *_ in fixture.ROUTES:
        assert f"{method} {path} (harbor/ledger src/routes/invoices.ts:" in text
    assert "via middleware requireSession at harbor/ledger src/routes/invoices.ts:13" in text
    assert (
        "POST {LEDGER_URL}/v2/invoices at harbor/portal src/forms/invoice.tsx:31 in InvoiceForm"
        in text
    )
    before(
        text,
        "read at (1, production code)",
        "routes affected (3)",
        "call sites",
        "tests (kept apart, 1)",
    )
    prod, tests = text.split("tests (kept apart")
    assert "tests/session.test.ts" not in prod and "tests/session.test.ts:7" in tests


def test_plain_no_with_the_nearest_routes_and_what_could_hide_an_edge(inv):
    text = ask(inv, "kb_entity", name="GET /v2/invoices/:id", project=H)
    assert text.startswith("no — per the static graph: no route 'GET /v2/invoices/:id' in harbor.")
    before(
        text, "DELETE /v2/invoices/:id (harbor/ledger", "unresolved http_call fetch(urlFor(kind))"
    )
    text = ask(inv, "kb_trace", start="InvoiceForm", project=H, to="PUT /v2/invoices")
    assert "no — per the static graph" in text and "POST /v2/invoices (harbor/ledger" in text
    text = ask(
        inv,
        "kb_neighbors",
        node="DELETE /v2/invoices/:id",
        project=H,
        edge_types=["CALLS"],
        direction="in",
    )
    assert "no edge per the static graph" in text


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("kb_entity", {"name": "ledger"}),
        ("kb_trace", {"start": "requireSession"}),
        ("kb_neighbors", {"node": "requireSession"}),
        ("kb_impact", {"target": "requireSession"}),
        ("kb_sql", {"sql": "SELECT 1"}),
    ],
)
def test_star_is_refused_outside_the_catalog_tools(inv, tool, args):
    text, err = inv.call(tool, project="*", **args)
    assert err and len(text.splitlines()) == 1
    assert "kb_find or kb_compare" in text and fixture.PLANT not in text


def test_kb_context_keeps_to_the_project_and_global_docs(built_example: Path):
    client = StdioClient(built_example)
    try:
        task = "contact form zendesk decisions architecture handbook"
        text, err = client.call("kb_context", task=task, project="initech-events", max_tokens=4000)
    finally:
        client.close()
    assert not err, text
    heads = [ln for ln in text.splitlines() if ln.startswith("--- [")]
    assert heads and any("initech-events" in h for h in heads)
    for foreign in ("acme-shop", "globex-portal", "confluence-98765", "frontend-handbook"):
        assert foreign not in text, foreign


def test_route_view_says_which_middleware_guards_it_or_a_plain_no(inv):
    text = ask(inv, "kb_entity", name="POST /v2/invoices", project=H, component="ledger")
    assert "auth guard: [2] requireSession" in text
    text, err = inv.call("kb_entity", name="GET /v2/invoices/:id", project=fixture.Q)
    assert not err, text
    assert "auth guard: no — per the static graph, none of its 0 middleware" in text


def test_a_route_without_middleware_names_what_its_siblings_get(inv):
    text, err = inv.call(
        "kb_neighbors",
        node="GET /v2/invoices/:id",
        project=fixture.Q,
        edge_types=["USES_MIDDLEWARE"],
        direction="out",
    )
    assert not err, text
    assert "no edge per the static graph (USES_MIDDLEWARE, direction out)" in text
    assert "rateLimit — 1 routes, usage at quarry/ledger src/batch.ts:5" in text


def test_a_file_without_routes_names_the_route_serving_its_folder_path(inv):
    text, err = inv.call("kb_entity", name=fixture.BATCH_UTIL, project=fixture.Q)
    assert not err, text
    assert "no route is declared in this file" in text
    assert (
        "route serving this folder's URL path: POST /v2/batches (quarry/ledger src/batch.ts:6)"
        in text
    )


def test_route_view_shows_the_exported_settings_of_its_file(inv):
    text, err = inv.call("kb_entity", name="POST /v2/batches", project=fixture.Q)
    assert not err, text
    assert "its file also exports: maxBatch (quarry/ledger src/batch.ts:1)" in text
