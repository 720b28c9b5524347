"""Settings (config/deploy statements at file:line) in answers, kb_impact's target
resolution and plain "no", kb_sql rows to the budget — through a real MCP client over
stdio, on a small shipping portfolio (mcp_settings_fixture)."""

from __future__ import annotations

import mcp_settings_fixture as fixture
import pytest
from mcp_ask import asker, serve

T = fixture.T


@pytest.fixture(scope="module")
def ship(tmp_path_factory: pytest.TempPathFactory):
    yield from serve(fixture.build, tmp_path_factory.mktemp("settings"))


ask = asker(fixture.PLANT)


def test_component_view_lists_its_settings_after_its_relationships(ship):
    text = ask(ship, "kb_entity", name="api", project=T)
    node = "node = >=18.12 (tidewater/api package.json:5) — Node.js version"
    mount = "app.use = /v2 (tidewater/api src/app.js:12) — API version prefix (app mount)"
    assert node in text and mount in text
    assert "image = postgres:15.3 (tidewater/api docker-compose.yml:7)" in text
    assert text.index("routes of tidewater/api (1)") < text.index(node)
    tight = ask(ship, "kb_entity", name="api", project=T, budget=200)
    assert "node = >=18.12 (package.json:5)" in tight  # the fact and its line survive


def test_neighbors_of_a_component_and_the_file_view_show_settings(ship):
    text = ask(ship, "kb_neighbors", node="web", project=T)
    assert "API_URL = https://api.tidewater.example/v2 (tidewater/web src/api.js:3)" in text
    text = ask(ship, "kb_entity", name="package.json", project=T, component="api")
    assert "settings declared here (1)" in text and "node = >=18.12" in text


def test_entity_by_a_setting_name_finds_the_setting_not_a_test_fixture(ship):
    text = ask(ship, "kb_entity", name="region", project=T, component="infra")
    assert "europe-west1" in text and "terraform/variables.tf:8" in text
    assert "conftest" not in text
    text = ask(ship, "kb_entity", name="prefix", project=T, component="api")
    assert "app.use = /v2 (tidewater/api src/app.js:12) — API version prefix" in text


def test_route_view_shows_the_usage_as_written_and_the_mount_line(ship):
    text = ask(ship, "kb_entity", name="GET /v2/ships", project=T, component="api")
    assert "[1] validate(shipRules.list) (tidewater/api src/routes/ships.js:10" in text
    assert "path set by" in text and "app.use = /v2 (tidewater/api src/app.js:12)" in text


def test_symbol_view_shows_the_settings_in_its_body_and_a_plain_no_for_env_reads(ship):
    text = ask(ship, "kb_entity", name="apiClient", project=T, component="web")
    assert "settings in its body (1)" in text
    assert "API_URL = https://api.tidewater.example/v2 (tidewater/web src/api.js:3)" in text
    assert "env vars read: no edge per the static graph" in text


def test_env_var_and_handler_views_show_the_settings_that_name_them(ship):
    text = ask(ship, "kb_entity", name="SHIP_API", project=T)
    assert "__api_base__ = /api (tidewater/web rollup.config.mjs:44)" in text
    assert "settings naming those values" in text and "tidewater/web firebase.json:9" in text
    text = ask(ship, "kb_entity", name="listShips", project=T)
    assert "startup_probe.path = /v2/ships (tidewater/infra terraform/service.tf:37)" in text


def test_neighbors_show_the_usage_as_written_and_sdk_calls_for_a_no(ship):
    text = ask(
        ship, "kb_neighbors", node="GET /v2/ships", project=T, edge_types=["USES_MIDDLEWARE"]
    )
    assert "(as validate(shipRules.list))" in text
    text = ask(ship, "kb_neighbors", node="web", project=T, edge_types=["CALLS_HTTP", "CALLS"])
    assert "no edge per the static graph" in text
    assert "sdk_call Firestore getDoc ships (tidewater/web src/db.js:9)" in text


def test_find_runtime_and_integration_match_settings_across_projects(ship):
    text = ask(ship, "kb_find", kind="runtime", query="europe-west1")
    assert "tidewater/infra terraform/variables.tf:8" in text
    assert "skerry/ops main.tf:3" in text
    text = ask(ship, "kb_find", kind="integration", query="firebase")
    assert (
        "rewrites = /api/** -> run:harbor-api (europe-west1) (tidewater/web firebase.json:9)"
        in text
    )


def test_find_hosts_lists_written_hosts_and_sdk_hosts_apart(ship):
    text = ask(ship, "kb_find", kind="host", query="*")
    assert "tidewater/web src/api.js:3" in text  # the catalog row and the URL constant
    assert "API_URL = https://api.tidewater.example/v2" in text
    assert "reached by an SDK on its own" in text and "tidewater/api" not in text


def test_find_env_var_in_a_project_without_any_is_a_plain_no(ship):
    text = ask(ship, "kb_find", kind="env_var", query="*", project=T)
    assert "no — per the static graph: no env_var matching '*' in project tidewater" in text


def test_impact_resolves_cookies_values_and_terraform_addresses(ship):
    text = ask(ship, "kb_impact", target="__sid", project=T)
    assert "readSession" in text and "tidewater/api src/session.js:12" in text
    text = ask(ship, "kb_impact", target="europe-west1", project=T)
    assert "terraform/variables.tf:8" in text and "firebase.json:9" in text
    assert "skerry" not in text
    text = ask(ship, "kb_impact", target="google_cloud_run_v2_service.harbor-api", project=T)
    assert "settings that name it" in text
    assert "tidewater/infra terraform/variables.tf:20" in text
    assert "tidewater/web firebase.json:9" in text


def test_impact_of_an_unknown_target_is_a_plain_no_with_nearest_names(ship):
    text = ask(ship, "kb_impact", target="shipRegion", project=T)
    assert text.startswith("no — per the static graph: nothing named 'shipRegion'")
    assert "nearest names:" in text and "region" in text


def test_sql_names_ids_and_fills_the_budget(ship):
    text = ask(
        ship, "kb_sql", sql="SELECT src, dst FROM edges WHERE type = 'USES_MIDDLEWARE'", project=T
    )
    assert "GET /v2/ships [tidewater/api:route:src/routes/ships.js:10]" in text
    many = "SELECT range AS n, 'row number ' || range AS label FROM range(300)"
    text = ask(ship, "kb_sql", sql=many, project=T, budget=600)
    rows = [ln for ln in text.splitlines() if ln.split(" | ")[0].isdigit()]
    assert len(rows) > 20  # not cut at a fixed 20 rows
    assert text.splitlines()[-1].startswith(f"collapsed: {200 - len(rows)} more rows left out")


def test_sql_with_no_rows_says_no_with_the_nearest_names(ship):
    sql = "SELECT name FROM nodes WHERE kind = 'route' AND name LIKE '%/fleet/ships%'"
    text = ask(ship, "kb_sql", sql=sql, project=T)
    assert text.startswith("0 rows") and "no rows — per the static graph" in text
    assert "route GET /v2/ships (tidewater/api src/routes/ships.js:10)" in text
