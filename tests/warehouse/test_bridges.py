"""Bridge edges between a KB written for the test and code facts of its components."""

from __future__ import annotations

import polars as pl
from bridgekit import Facts, calls_of, graph, write_kb

from kb.loader import load_kb
from warehouse.bridges import build_project_graph
from warehouse.catalog import component_frames, cross_project_edges

SHOP = {
    "web": {
        "role": "frontend",
        "envs": {
            "dev": {"url": "https://dev.shop.example"},
            "prod": {"url": "https://shop.example"},
        },
        "calls": [{"env_var": "CONTACT_API_URL", "component": "contact-api"}],
        "secrets": [
            {
                "name": "revalidate-secret",
                "store": "secret-manager",
                "ref": "shop-prod/revalidate-secret",
                "env_var": "REVALIDATE_SECRET",
            }
        ],
    },
    "contact-api": {
        "role": "api",
        "envs": {
            "dev": {"url": "https://contact-api.dev.shop.example", "gcp_project": "shop-dev"},
            "prod": {"url": "https://contact-api.shop.example", "gcp_project": "shop-prod"},
        },
    },
    "infra": {"role": "infra"},
}


def test_env_value_resolves_base_path_to_exact_route(tmp_path):
    kb = write_kb(tmp_path, {"shop": SHOP})
    web, api = Facts("shop", "web"), Facts("shop", "contact-api")
    web.node(
        "env_var",
        "CONTACT_API_URL",
        "CONTACT_API_URL",
        values={".env.example": "https://contact-api.dev.shop.example/api/"},
    )
    call = web.call("c1", "POST", "{CONTACT_API_URL}jp/contact", env_var="CONTACT_API_URL")
    exact = api.route("POST", "/api/jp/contact")
    api.route("POST", "/api/:country/contact")
    api.route("GET", "/api/jp/contact")
    [edge] = calls_of(graph(kb, "shop", web, api))
    assert (edge["src"], edge["dst"]) == (call, exact)
    assert edge["attrs"]["via"] == "CONTACT_API_URL"
    assert edge["attrs"]["confidence"] == "high"
    assert edge["attrs"]["path"] == "/api/jp/contact"
    assert "dev" in edge["attrs"]["envs"]


def test_kb_calls_only_matches_route_suffix_with_medium_confidence(tmp_path):
    kb = write_kb(tmp_path, {"shop": SHOP})
    web, api = Facts("shop", "web"), Facts("shop", "contact-api")
    web.call("c1", "POST", "{CONTACT_API_URL}/jp/contact")
    route = api.route("POST", "/api/jp/contact")
    [edge] = calls_of(graph(kb, "shop", web, api))
    assert edge["dst"] == route
    assert edge["attrs"]["confidence"] == "medium"
    assert edge["attrs"]["envs"] == ["dev", "prod"]
    assert edge["attrs"]["resolution"] == "kb-calls"
    assert edge["attrs"]["how"] == "KB calls[0] env_var CONTACT_API_URL → contact-api"


def test_exact_route_is_preferred_over_parametrised(tmp_path):
    kb = write_kb(tmp_path, {"shop": SHOP})
    web, api = Facts("shop", "web"), Facts("shop", "contact-api")
    web.node(
        "env_var",
        "CONTACT_API_URL",
        "CONTACT_API_URL",
        values={".env.production": "https://contact-api.shop.example/v1"},
    )
    web.call("summary", "GET", "{CONTACT_API_URL}/orders/summary")
    web.call("one", "GET", "{CONTACT_API_URL}/orders/{id}")
    summary = api.route("GET", "/v1/orders/summary")
    param = api.route("GET", "/v1/orders/{order_id}")
    edges = {e["src"].rsplit(":", 1)[1]: e for e in calls_of(graph(kb, "shop", web, api))}
    assert edges["summary"]["dst"] == summary
    assert edges["summary"]["attrs"]["confidence"] == "high"
    # the value matched prod's URL; the KB `calls` entry extends it to every env of the target
    assert edges["summary"]["attrs"]["envs"] == ["dev", "prod"]
    assert "envs.prod.url" in edges["summary"]["attrs"]["how"]
    assert edges["summary"]["attrs"]["match"] == "exact"
    assert edges["one"]["dst"] == param
    assert edges["one"]["attrs"]["match"] == "param"


def test_hosting_rewrite_sends_relative_api_calls_to_functions(tmp_path):
    kb = write_kb(
        tmp_path,
        {
            "events": {
                "web": {"role": "frontend", "envs": {"prod": {"runtime": "firebase-hosting"}}},
                "functions": {
                    "role": "functions",
                    "envs": {"prod": {"runtime": "firebase-functions"}},
                },
            }
        },
    )
    web, fn = Facts("events", "web"), Facts("events", "functions")
    web.node(
        "code_file",
        "firebase.json",
        "firebase.json",
        "firebase.json",
        rewrites=[
            {"source": "/api/**", "function": "api"},
            {"source": "**", "destination": "/index.html"},
        ],
    )
    web.call("register", "POST", "/api/events/{id}/register")
    web.call("page", "GET", "/about")
    route = fn.route("POST", "/api/events/:id/register")
    out = graph(kb, "events", web, fn)
    [edge] = calls_of(out)
    assert edge["dst"] == route and edge["attrs"]["via"] == "rewrite /api/**"
    [miss] = out["unresolved"].to_dicts()
    assert miss["expr"] == "/about"
    assert miss["reason"] == (
        "relative URL /about: web has no API routes of its own; hosting rewrite ** is a static "
        "destination (an SPA fallback); no KB `calls: {path: …}` entry of web and no other "
        "component on its host"
    )


def test_same_component_id_in_two_projects_is_never_bridged(tmp_path):
    kb = write_kb(
        tmp_path,
        {
            "alpha": {
                "web": {"role": "frontend"},
                "api": {"envs": {"prod": {"url": "https://api.alpha.example"}}},
            },
            "beta": {
                "web": {"role": "frontend"},
                "api": {"envs": {"prod": {"url": "https://api.beta.example"}}},
            },
        },
    )
    web = Facts("alpha", "web")
    web.node("env_var", "API_URL", "API_URL", values={".env": "https://api.beta.example"})
    web.call("c", "GET", "{API_URL}/items")
    beta_api = Facts("beta", "api")
    beta_api.route("GET", "/items")
    alpha_api = Facts("alpha", "api")
    alpha_api.route("GET", "/items")
    out = graph(kb, "alpha", web, alpha_api, beta_api)
    assert calls_of(out) == []
    assert not out["nodes"].filter(pl.col("project") == "beta").height
    [miss] = out["unresolved"].to_dicts()
    assert miss["reason"] == (
        "no base URL: env var API_URL: API_URL=https://api.beta.example (.env): host "
        "api.beta.example not in the KB (no envs.*.url or calls entry names it)"
    )
    assert cross_project_edges(out["edges"]) == []


def test_unresolved_reasons_name_the_cause(tmp_path):
    kb = write_kb(tmp_path, {"shop": SHOP})
    web, api = Facts("shop", "web"), Facts("shop", "contact-api")
    web.call(
        "dyn",
        "GET",
        "{url}",
    )
    web.call("nomatch", "DELETE", "{CONTACT_API_URL}/nothing/here")
    web.call("ext", "POST", "https://api.stripe.example/v1/charges")
    api.route("GET", "/api/jp/contact")
    out = graph(kb, "shop", web, api)
    reasons = {r["expr"]: r["reason"] for r in out["unresolved"].to_dicts()}
    assert reasons["{CONTACT_API_URL}/nothing/here"] == (
        "no route DELETE /nothing/here in contact-api "
        "(KB calls[0] env_var CONTACT_API_URL → contact-api)"
    )
    assert reasons["{url}"] == "dynamic URL: the base is the run-time value {url}"
    assert "https://api.stripe.example/v1/charges" not in reasons  # external: catalog_hosts


def test_has_code_resolves_to_and_provisions(tmp_path):
    kb = write_kb(tmp_path, {"shop": SHOP})
    web, infra = Facts("shop", "web"), Facts("shop", "infra")
    f = web.node("code_file", "src/a.ts", "src/a.ts", "src/a.ts")
    env = web.node("env_var", "REVALIDATE_SECRET", "REVALIDATE_SECRET")
    run = infra.node(
        "tf_resource",
        "google_cloud_run_v2_service.web",
        "google_cloud_run_v2_service.web",
        "main.tf",
        type="google_cloud_run_v2_service",
        gcp_projects=["shop-dev", "shop-prod", "unknown-x"],
        gcp_projects_by_env={"dev": "shop-dev", "prod": "shop-prod"},
    )
    sec = infra.node(
        "tf_resource",
        "google_secret_manager_secret.r",
        "google_secret_manager_secret.r",
        "secrets.tf",
        type="google_secret_manager_secret",
        secret_id="revalidate-secret",
    )
    edges = graph(kb, "shop", web, infra)["edges"]
    got = {(e["src"], e["dst"], e["type"]) for e in edges.to_dicts()}
    assert ("shop:component:web", f, "HAS_CODE") in got
    assert (env, "shop:secret:revalidate-secret", "RESOLVES_TO") in got
    assert (run, "shop:gcp_project:shop-dev", "PROVISIONS") in got
    assert (run, "shop:gcp_project:shop-prod", "PROVISIONS") in got
    assert not any(d.endswith("unknown-x") for _, d, _ in got)
    assert (sec, "shop:secret:revalidate-secret", "PROVISIONS") in got


def test_cross_project_edge_is_reported():
    df = pl.DataFrame(
        {
            "src": ["a/web:symbol:x", "a:component:web"],
            "dst": ["b/api:route:GET /", "_global:package:express"],
            "type": ["CALLS", "USES_PACKAGE"],
            "file": ["x.ts", None],
            "line": [3, None],
        }
    )
    [msg] = cross_project_edges(df)
    assert "joins projects a and b" in msg and "x.ts:3" in msg


def test_real_extraction_env_file_one_folder_up_to_fastapi_route(tmp_path):
    """`.env` at the repo root, the call in `src/lib/`, the route behind an include prefix."""
    kb_root = write_kb(tmp_path / "kb", {"p": {
        "web": {"role": "frontend"},
        "api": {"role": "api", "envs": {"dev": {"url": "https://api.dev.p.example"}}},
    }})  # fmt: skip
    repos = tmp_path / "kb" / "repos" / "p"
    (repos / "web" / "src" / "lib").mkdir(parents=True)
    (repos / "web" / ".env").write_text("API_BASE=https://api.dev.p.example/v2\n")
    (repos / "web" / "src" / "lib" / "items.ts").write_text(
        "export async function loadItem(id: string) {\n"
        "  return fetch(`${process.env.API_BASE}/items/${id}`);\n}\n"
    )
    (repos / "api" / "app" / "routers").mkdir(parents=True)
    (repos / "api" / "app" / "__init__.py").write_text("")
    (repos / "api" / "app" / "routers" / "__init__.py").write_text("")
    (repos / "api" / "app" / "main.py").write_text(
        "from fastapi import FastAPI\nfrom app.routers import items\n\n"
        "app = FastAPI()\napp.include_router(items.router, prefix='/v2')\n"
    )
    (repos / "api" / "app" / "routers" / "items.py").write_text(
        "from fastapi import APIRouter\nrouter = APIRouter(prefix='/items')\n\n"
        "@router.get('/{item_id}')\ndef get_item(item_id: str):\n    return {}\n\n"
        "@router.get('/featured')\ndef featured():\n    return []\n"
    )
    from extractors.registry import extract_component

    kb = load_kb(kb_root)
    tables = {
        c.key: component_frames(extract_component(c.project, c.id, c.repo_path))
        for c in kb.components()
    }
    out = build_project_graph(kb, "p", tables)
    [edge] = calls_of(out)
    assert edge["dst"] == "p/api:route:GET /v2/items/{item_id}"
    assert edge["attrs"]["via"] == "API_BASE" and edge["attrs"]["envs"] == ["dev"]
    assert edge["attrs"]["path"] == "/v2/items/{id}"
    assert edge["src"].startswith("p/web:http_call:")


def test_literal_base_url_and_same_origin_relative_call(tmp_path):
    kb = write_kb(tmp_path, {"shop": SHOP})
    web, api = Facts("shop", "web"), Facts("shop", "contact-api")
    web.call("lit", "POST", "https://contact-api.shop.example/api/jp/contact",
             base="https://contact-api.shop.example", path="/api/jp/contact",
             resolved_via="constant")  # fmt: skip
    web.call("rel", "POST", "/api/revalidate")
    own = web.route("POST", "/api/revalidate")
    target = api.route("POST", "/api/jp/contact")
    edges = {e["src"].rsplit(":", 1)[1]: e for e in calls_of(graph(kb, "shop", web, api))}
    assert edges["lit"]["dst"] == target
    assert edges["lit"]["attrs"]["envs"] == ["prod"] and edges["lit"]["attrs"]["via"] == "constant"
    assert edges["rel"]["dst"] == own and edges["rel"]["attrs"]["via"] == "same-origin"


def test_problem_paths_name_their_component(tmp_path):
    from extractors.facts import ExtractProblem

    kb = write_kb(tmp_path, {"shop": SHOP})
    web = Facts("shop", "web")
    web.facts.problems.append(ExtractProblem("warning", "package.json", None, "manifest", "bad"))
    [row] = graph(kb, "shop", web)["problems"].to_dicts()
    assert row["path"] == "shop/web/package.json"
