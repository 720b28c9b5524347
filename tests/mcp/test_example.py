"""End to end on the bundled example portfolio, built by the real `kb refresh`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.tokens import estimate_tokens
from tests.support.mcp_stdio import StdioClient


@pytest.fixture(scope="module")
def ex(built_example: Path):
    client = StdioClient(built_example)  # data dir: the KB's default (.kb)
    yield client
    client.close()


def test_contact_form_trace_down_to_the_zendesk_service(ex):
    text, err = ex.call("kb_trace", start="ContactForm", project="acme-shop")
    assert not err, text
    hops = [
        r"^symbol ContactForm \(acme-shop/web src/components/contact-form\.tsx:\d+(-\d+)?\)$",
        r"--CALLS_HTTP--> http_call POST \{NEXT_PUBLIC_CONTACT_API_URL\}jp/contact \(acme-shop/web src/lib/api\.ts:\d+(-\d+)?\)",
        r"--CALLS \(via NEXT_PUBLIC_CONTACT_API_URL, envs dev\+prod, env-var by [^)]*component\.md:\d+ envs\.dev\.url\)--> route POST /api/jp/contact \(acme-shop/contact-api src/routes/contact\.ts:\d+\)",
        r"--USES_MIDDLEWARE--> .*\[\d\] rateLimit \(acme-shop/contact-api src/[^)]*rate-limit\.ts:\d+(-\d+)?\) \[\d\] validateContact",
        r"--ROUTES_TO--> symbol contactController\.sendContactEmailJp \(acme-shop/contact-api src/controllers/contact\.ts:\d+(-\d+)?\)",
        r"--CALLS_FN--> symbol zendeskService\.createTicket \(acme-shop/contact-api src/services/zendesk\.ts:\d+\)",
    ]
    lines = text.splitlines()
    at = [next(i for i, ln in enumerate(lines) if re.search(h, ln.strip())) for h in hops]
    assert at == sorted(at), text
    assert lines[-1].startswith("caveats: static trace") or "caveats: static trace" in text


def test_trace_to_and_up(ex):
    text, err = ex.call(
        "kb_trace", start="ContactForm", project="acme-shop", to="zendeskService.createTicket"
    )
    assert not err and text.startswith("yes — per the static graph: symbol ContactForm")
    assert "POST /api/jp/contact (acme-shop/contact-api src/routes/contact.ts:" in text
    assert "--CALLS_FN--> symbol zendeskService.createTicket" in text  # on from the route
    text, err = ex.call(
        "kb_trace", start="POST /api/jp/contact", project="acme-shop", direction="up"
    )
    assert not err and "<--CALLS" in text and "acme-shop/web src/lib/api.ts" in text


def test_rotating_the_zendesk_secret(ex):
    text, err = ex.call("kb_impact", target="zendesk-api-token", project="acme-shop")
    assert not err
    assert re.search(
        r"env_var ZENDESK_API_TOKEN \(acme-shop/contact-api src/services/zendesk\.ts:\d+\)", text
    )
    assert "contact-api prod runtime=cloud-run" in text
    assert "google_secret_manager_secret.zendesk_api_token (acme-shop/infra" in text


def test_cross_project_catalog(ex):
    text, err = ex.call("kb_find", kind="package", query="express", project="*")
    assert not err
    assert re.search(r"acme-shop/contact-api package\.json:\d+ 4\.\d+\.\d+", text)
    assert re.search(r"package\.json:\d+ 4\.\d+\.\d+ \(declared \^4\.19\.2\)", text) or (
        "(declared" not in text and re.search(r"package\.json:\d+ 4\.19\.2", text)
    )
    assert "initech-events/functions" in text
    # a plain no for the matched projects' components that do not declare it
    assert re.search(
        r"no — per the static graph: no package matching 'express' in project acme-shop components [^;\n]*infra",
        text,
    )
    text, err = ex.call("kb_compare", kind="package", name="express")
    assert not err and re.search(r"versions \S+: 1; \S+: 1", text)
    text, err = ex.call("kb_find", kind="runtime", query="cloud-run")
    assert not err and "acme-shop" in text


def test_component_entity_lists_routes_with_middleware(ex):
    text, err = ex.call("kb_entity", name="contact-api", project="acme-shop")
    assert not err
    assert re.search(
        r"POST /api/jp/contact \(src/routes/contact\.ts:\d+\) → contactController\.sendContactEmailJp \([^)]*\) \| .*\] rateLimit \(.*\] validateContact \(",
        text,
    )


def test_context_pack_for_a_task(ex):
    text, err = ex.call(
        "kb_context", task="contact form zendesk ticket", project="acme-shop", max_tokens=1500
    )
    assert not err and estimate_tokens(text) <= 1500
    assert "create-zendesk-tickets-for-contact-form" in text


def test_status_and_sql(ex):
    text, err = ex.call("kb_status", project="acme-shop")
    assert not err and "partition acme-shop" in text and "acme-shop/contact-api fresh at" in text
    text, err = ex.call(
        "kb_sql",
        sql="select name from nodes where kind = 'route' and component = 'contact-api' order by 1",
        project="acme-shop",
    )
    assert not err and "POST /api/jp/contact" in text


def test_no_other_project_code_in_acme_answers(ex):
    calls = [
        ("kb_trace", {"start": "ContactForm", "project": "acme-shop"}),
        ("kb_impact", {"target": "express", "project": "acme-shop"}),
        ("kb_neighbors", {"node": "_global:package:express", "project": "acme-shop"}),
        ("kb_entity", {"name": "contact-api", "project": "acme-shop"}),
        (
            "kb_sql",
            {"sql": "select id from nodes union all select src from edges", "project": "acme-shop"},
        ),
    ]
    for tool, args in calls:
        text, err = ex.call(tool, budget=50_000, **args)
        assert not err, text
        assert not re.search(r"(globex-portal|initech-events)/[\w-]+[: ]", text), (tool, text)


def test_functions_component_lists_its_triggers(ex):
    text, err = ex.call(
        "kb_entity", name="initech-events:component:functions", project="initech-events"
    )
    assert not err, text
    assert re.search(r"triggers \(\d+\):", text)
    assert re.search(
        r"\[onDocumentCreated on registrations/\{id\}\] onRegistrationCreated \(initech-events/functions \S+:\d+(-\d+)?\)",
        text,
    )


def test_impact_of_an_env_var_resolves_in_project_and_finds_docs_by_their_text(ex):
    # the env var name also exists as a _global catalog node: the project's own node wins
    text, err = ex.call("kb_impact", target="ZENDESK_API_TOKEN", project="acme-shop")
    assert not err, text
    # read in contact-api; declared in infra by the Cloud Run service's env block (a secret ref)
    assert text.startswith("impact of 2 nodes named ZENDESK_API_TOKEN in project acme-shop\n")
    assert "ZENDESK_API_TOKEN in contact-api" in text, text
    assert re.search(r"acme-shop/contact-api src/services/zendesk\.ts:\d+", text), text
    assert "ZENDESK_API_TOKEN in infra: acme-shop/infra cloud_run.tf:26" in text, text
    # the runbook names the variable only in its body, not in its frontmatter
    assert re.search(
        r"doc projects/acme-shop/contact-api/runbook-rotate-zendesk-token\.md:\d+ § ", text
    )
    assert "google_secret_manager_secret.zendesk_api_token" in text
    assert "globex" not in text and "initech" not in text
