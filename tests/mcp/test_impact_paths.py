"""kb_impact's paths through declarations, constants, base URLs and Terraform secret
payloads — through a real MCP client over stdio, on a small harbour portfolio
(mcp_impact_fixture)."""

from __future__ import annotations

import mcp_impact_fixture as fixture
import pytest
from mcp_ask import asker, serve

Q = fixture.Q


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory):
    yield from serve(fixture.build, tmp_path_factory.mktemp("impact"))


ask = asker(fixture.PLANT)


def test_env_var_declarations_are_listed_each_at_its_line(harbour):
    text = ask(harbour, "kb_impact", target="BERTH_DB_URL", project=Q, component="api")
    assert "docker-compose.yml:12 (service app, via docker-compose)" in text
    assert ".env.example:3" in text
    assert "quayside/api src/db.ts:3 — connect" in text


def test_a_constant_is_impacted_through_its_readers_to_the_routes_they_guard(harbour):
    text = ask(harbour, "kb_impact", target="TOKEN_KEY", project=Q, component="api")
    assert "no readers or callers" not in text
    assert "quayside/api src/guard.ts:14 — DockGuard.check" in text
    assert "quayside/api src/token.ts:30 — TokenService.sign" in text
    assert "GET /moorings (quayside/api src/moorings.ts:12) — via middleware DockGuard" in text


def test_a_host_reaches_the_call_sites_that_use_its_base_url_constant(harbour):
    text = ask(harbour, "kb_impact", target=fixture.HOST, project=Q)
    assert "HTTP call sites through it (2 production, +1 in tests left out)" in text
    assert "src/berths.ts:12 GET /berths" in text and "src/login.ts:20 POST /login" in text
    assert "berths.test.ts" not in text
    assert "API_BASE = https://api.quayside.example (quayside/web src/api/base.ts:4)" in text


def test_an_env_var_host_reaches_the_generated_client_call_sites(harbour):
    text = ask(harbour, "kb_impact", target="VITE_QUAY_HOST", project=Q)
    assert "src/pages/Dock.vue:40 PUT /docks/{id}" in text
    assert "src/berths.ts" not in text  # its calls go through the constant, not this env var


def test_terraform_secret_payload_lines_reach_env_vars_and_the_secret(harbour):
    text = ask(harbour, "kb_impact", target="TOKEN_SALT", project=Q)
    assert "secret_id quay_settings at terraform/secrets.tf:5" in text
    text = ask(harbour, "kb_impact", target="quay_settings", project=Q)
    assert "carries 2 env vars in its payload" in text
    assert "BERTH_DB_URL at quayside/infra terraform/secrets.tf:13" in text
    assert "TOKEN_SALT at quayside/infra terraform/secrets.tf:14" in text
    # the api uses that secret: its code reading a payload env var is affected
    assert "quayside/api src/db.ts:3 — connect" in text
    assert "no readers or callers" not in text
