"""Base URLs resolved per environment at the project level: each pattern reaches its route.

Facts the extractors already emit are produced by real extraction of a small repo written
here; facts the call-site/config extractors do not emit yet (compose values, Angular
environments, dev-server proxies, next rewrites) are written in the contract shape that
`warehouse/bases.py` documents.
"""

from __future__ import annotations

from textwrap import dedent

from bridgekit import Facts, bridged, calls_of, extracted, graph, reasons, write_kb

API = {
    "role": "api",
    "envs": {
        "local": {"url": "http://localhost:8000/api"},
        "prod": {"url": "https://api.pets.example/api"},
    },
}
PETS = {"web": {"role": "frontend"}, "api": API}


def test_env_file_per_mode_reaches_express_route(tmp_path):
    files = {
        "pets/web/package.json": '{"name": "web", "dependencies": {"vite": "5"}}',
        "pets/web/.env.development": "VITE_API_URL=http://localhost:8000/api\n",
        "pets/web/.env.production": "VITE_API_URL=https://api.pets.example/api\n",
        "pets/web/src/pets.ts": dedent("""\
            const base = import.meta.env.VITE_API_URL;

            export function loadPet(id: string) {
              return fetch(`${base}/pets/${id}`);
            }
            """),
        "pets/api/package.json": '{"name": "api", "dependencies": {"express": "4"}}',
        "pets/api/server.js": dedent("""\
            const express = require('express');
            const app = express();
            app.get('/api/pets/:petId', (req, res) => res.json({}));
            app.listen(8000);
            """),
    }
    out = extracted(tmp_path, {"pets": PETS}, files, "pets")
    assert bridged(out) == [("src/pets.ts:4", "GET /api/pets/:petId", "VITE_API_URL")]
    [edge] = calls_of(out)
    assert edge["attrs"]["envs"] == ["local", "prod"]
    assert edge["attrs"]["modes"] == ["development", "production"]
    assert edge["attrs"]["confidence"] == "high"  # a {id} value where the route has :petId
    assert edge["attrs"]["match"] == "param" and edge["attrs"]["resolution"] == "env-var"


def _web_api(tmp_path, web_fm=None, api_fm=None):
    kb = write_kb(tmp_path, {"pets": {"web": {"role": "frontend", **(web_fm or {})},
                                      "api": {**API, **(api_fm or {})}}})  # fmt: skip
    return kb, Facts("pets", "web"), Facts("pets", "api")


def test_compose_environment_value_names_the_service(tmp_path):
    kb, web, api = _web_api(tmp_path)
    # docker-compose.yml: services.web.environment.API_BASE = http://api:8000/api
    web.node(
        "env_var", "API_BASE", "API_BASE", values={"docker-compose.yml": "http://api:8000/api"}
    )
    web.call("c", "GET", "{API_BASE}/pets", env_var="API_BASE", file="src/list.js", line=3)
    api.route("GET", "/api/pets")
    out = graph(kb, "pets", web, api)
    assert bridged(out) == [("src/list.js:3", "GET /api/pets", "API_BASE")]
    assert "service name of component api" in calls_of(out)[0]["attrs"]["how"]


def test_bare_host_env_value_and_compose_override_file(tmp_path):
    kb, web, api = _web_api(tmp_path)
    web.node("env_var", "API_HOST", "API_HOST", values={
        ".env.production": "api.pets.example",
        "docker-compose.override.yml": "localhost:8000",
    })  # fmt: skip
    web.call("c", "GET", "{API_HOST}/api/pets", env_var="API_HOST", file="src/list.js", line=3)
    api.route("GET", "/api/pets")
    out = graph(kb, "pets", web, api)
    assert bridged(out) == [("src/list.js:3", "GET /api/pets", "API_HOST")]
    [edge] = calls_of(out)
    assert edge["attrs"]["envs"] == ["local", "prod"]
    assert edge["attrs"]["modes"] == ["*", "production"]


def test_angular_environment_per_configuration(tmp_path):
    kb, web, api = _web_api(tmp_path)
    web.node(
        "config_value",
        "environment.apiUrl",
        "environment.apiUrl",
        values={
            "src/environments/environment.ts": "http://localhost:8000/api",
            "src/environments/environment.prod.ts": "https://api.pets.example/api",
        },
    )
    web.call("c", "POST", "{environment.apiUrl}/pets", file="src/app/pets.service.ts", line=12)
    api.route("POST", "/api/pets")
    out = graph(kb, "pets", web, api)
    assert bridged(out) == [("src/app/pets.service.ts:12", "POST /api/pets", "environment.apiUrl")]
    [edge] = calls_of(out)
    assert edge["attrs"]["envs"] == ["local", "prod"]
    assert edge["attrs"]["modes"] == ["development", "production"]
    assert edge["attrs"]["confidence"] == "high"


def test_vite_proxy_with_rewrite_sends_relative_call_to_api(tmp_path):
    kb, web, api = _web_api(tmp_path, api_fm={"envs": {"local": {"url": "http://localhost:8000"}}})
    web.node("code_file", "vite.config.ts", "vite.config.ts", "vite.config.ts",
             proxies=[{"source": "/backend", "target": "http://localhost:8000", "strip": "/backend",
                       "kind": "vite", "line": 9}])  # fmt: skip
    web.call("c", "DELETE", "/backend/pets/{id}", file="src/pet.vue", line=40)
    api.route("DELETE", "/pets/{pet_id}")
    out = graph(kb, "pets", web, api)
    via = "vite proxy /backend → http://localhost:8000"
    assert bridged(out) == [("src/pet.vue:40", "DELETE /pets/{pet_id}", via)]
    attrs = calls_of(out)[0]["attrs"]
    assert attrs["resolution"] == "proxy" and attrs["confidence"] == "high"
    assert "vite.config.ts:9 vite proxy /backend → http://localhost:8000" in attrs["evidence"]


def test_cra_package_json_proxy(tmp_path):
    kb, web, api = _web_api(
        tmp_path, api_fm={"envs": {"local": {"url": "http://localhost:8000/api"}}}
    )
    web.node("code_file", "package.json", "package.json", "package.json",
             proxies=[{"source": "/", "target": "http://localhost:8000", "kind": "cra", "line": 5}])  # fmt: skip
    web.call("c", "GET", "/api/pets?limit=5", file="src/agent.js", line=21)
    api.route("GET", "/api/pets/")
    out = graph(kb, "pets", web, api)
    assert bridged(out) == [
        ("src/agent.js:21", "GET /api/pets/", "cra proxy / → http://localhost:8000")
    ]
    assert calls_of(out)[0]["attrs"]["envs"] == ["local"]


def test_next_rewrite_pattern_after_own_api_routes(tmp_path):
    kb, web, api = _web_api(tmp_path)
    web.node("code_file", "next.config.js", "next.config.js", "next.config.js",
             proxies=[{"source": "/proxy/:path*", "target": "https://api.pets.example/api/:path*",
                       "kind": "next", "line": 4}])  # fmt: skip
    own = web.route("POST", "/api/revalidate", file="app/api/revalidate/route.ts", route_kind="api")
    web.call("own", "POST", "/api/revalidate", file="lib/cms.ts", line=8)
    web.call("far", "GET", "/proxy/pets/{id}/photos", file="lib/pets.ts", line=14)
    api.route("GET", "/api/pets/<int:pet_id>/photos")
    out = graph(kb, "pets", web, api)
    assert own.endswith("POST /api/revalidate")
    assert bridged(out) == [
        ("lib/cms.ts:8", "POST /api/revalidate", "same-origin"),
        ("lib/pets.ts:14", "GET /api/pets/<int:pet_id>/photos",
         "next proxy /proxy/:path* → https://api.pets.example/api/:path*"),
    ]  # fmt: skip
    far = next(e for e in calls_of(out) if e["file"] == "lib/pets.ts")
    assert far["attrs"]["envs"] == ["prod"] and far["attrs"]["path"] == "/api/pets/{id}/photos"


def test_firebase_rewrite_to_cloud_run_service_of_another_name(tmp_path):
    kb = write_kb(tmp_path, {"shop": {
        "web": {"role": "frontend", "envs": {"prod": {"runtime": "firebase-hosting"}}},
        "api": {"role": "api", "envs": {"prod": {"runtime": "cloud-run"}}},
    }})  # fmt: skip
    web, api = Facts("shop", "web"), Facts("shop", "api")
    web.node("code_file", "firebase.json", "firebase.json", "firebase.json",
             rewrites=[{"source": "/api/**", "run": {"serviceId": "server", "region": "eu"}}])  # fmt: skip
    web.call("c", "GET", "/api/products/{id}", file="src/fetch.js", line=73)
    api.route("GET", "/api/products/<pk>/")
    out = graph(kb, "shop", web, api)
    assert bridged(out) == [("src/fetch.js:73", "GET /api/products/<pk>/", "rewrite /api/**")]
    attrs = calls_of(out)[0]["attrs"]
    assert "Cloud Run service server (api)" in attrs["how"] and attrs["resolution"] == "rewrite"


def test_hard_coded_host_matches_kb_env_url(tmp_path):
    kb, web, api = _web_api(tmp_path)
    web.call("c", "PUT", "https://api.pets.example/api/pets/{slug}", file="src/agent.js", line=6,
             base="https://api.pets.example/api", path="/pets/{slug}", resolved_via="constant")  # fmt: skip
    web.call("other-port", "GET", "http://localhost:9999/api/pets", file="src/agent.js", line=9)
    web.call("third-party", "GET", "https://maps.example.org/tiles", file="src/map.js", line=2)
    web.call("font", "GET", "../../assets/inter.ttf", file="app/og/route.tsx", line=7)
    api.route("PUT", "/api/pets/:slug")
    api.route("GET", "/api/pets")
    out = graph(kb, "pets", web, api)
    assert bridged(out) == [("src/agent.js:6", "PUT /api/pets/:slug", "constant")]
    [edge] = calls_of(out)
    assert edge["attrs"]["envs"] == ["prod"] and edge["attrs"]["path"] == "/api/pets/{slug}"
    assert reasons(out) == {
        "src/agent.js:9": "host localhost:9999 not in the KB (no envs.*.url or calls entry names it)"
    }  # a third-party host is external (catalog_hosts), a module-relative file is no HTTP call


def test_kb_url_path_is_never_stripped_to_force_a_match(tmp_path):
    kb = write_kb(tmp_path, {"pets": {"web": {"role": "frontend"}, "api": {
        "role": "api", "envs": {"prod": {"url": "https://gw.pets.example/pets-svc"}}}}})  # fmt: skip
    web, api = Facts("pets", "web"), Facts("pets", "api")
    web.call("c", "GET", "https://gw.pets.example/pets-svc/pets", file="src/a.ts", line=3)
    api.route("GET", "/pets")
    out = graph(kb, "pets", web, api)
    assert bridged(out) == []
    assert reasons(out)["src/a.ts:3"] == (
        "no route GET /pets-svc/pets in api (host gw.pets.example is KB envs.prod.url of api); "
        "closest: GET /pets (without the KB url path /pets-svc)"
    )


def test_kb_calls_url_and_host_entries(tmp_path):
    kb, web, api = _web_api(tmp_path, web_fm={"calls": [
        {"url": "https://legacy.pets.example/v2", "component": "api"},
        {"host": "pets-internal", "component": "api"},
    ]})  # fmt: skip
    web.call("u", "GET", "https://legacy.pets.example/v2/pets", file="src/old.ts", line=5)
    web.call("h", "POST", "http://pets-internal:8080/api/pets", file="src/job.py", line=9)
    api.route("GET", "/v2/pets")
    api.route("POST", "/api/pets")
    out = graph(kb, "pets", web, api)
    assert bridged(out) == [
        ("src/job.py:9", "POST /api/pets", "calls-entry host pets-internal"),
        ("src/old.ts:5", "GET /v2/pets", "calls-entry url https://legacy.pets.example/v2"),
    ]
    assert {e["attrs"]["resolution"] for e in calls_of(out)} == {"kb-calls"}
    by_file = {e["file"]: e["attrs"]["how"] for e in calls_of(out)}
    assert by_file["src/old.ts"].startswith("KB calls[0] url https://legacy.pets.example/v2")
    assert by_file["src/job.py"].startswith("KB calls[1] host pets-internal")


def test_kb_calls_env_var_without_value_uses_the_target_kb_path(tmp_path):
    kb, web, api = _web_api(
        tmp_path, web_fm={"calls": [{"env_var": "API_URL", "component": "api"}]}
    )
    web.call("c", "GET", "{API_URL}/testimonials/?product_id={id}", file="src/fetch.js", line=101)
    api.route("GET", "/api/testimonials/")
    out = graph(kb, "pets", web, api)
    assert bridged(out) == [("src/fetch.js:101", "GET /api/testimonials/", "API_URL")]
    assert calls_of(out)[0]["attrs"]["path"] == "/api/testimonials"
