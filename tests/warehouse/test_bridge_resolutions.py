"""Each way a call reaches its route (`resolution`), with the confidence and the evidence
chain on the CALLS edge; and the traps that must draw no edge. Facts in our own words,
shaped as the extractors write them, bridged by the real warehouse code."""

from __future__ import annotations

from bridgekit import Facts, calls_of, graph, reasons, write_kb

from extractors.facts import Edge

WEB = {"role": "frontend", "envs": {"prod": {"url": "https://kennel.example"}}}
API = {"role": "api", "envs": {"prod": {"url": "https://api.kennel.example/v2"}}}


def _one(out) -> dict:
    [edge] = calls_of(out)
    return edge


def test_env_var_value_names_a_kb_url(tmp_path):
    kb = write_kb(tmp_path, {"kennel": {"web": WEB, "api": API}})
    web, api = Facts("kennel", "web"), Facts("kennel", "api")
    web.node(
        "env_var",
        "DOGS_API",
        "DOGS_API",
        values={".env.production": "https://api.kennel.example/v2"},
    )
    web.call("c", "GET", "{DOGS_API}/dogs/{id}", env_var="DOGS_API", file="src/dogs.ts", line=4)
    route = api.route("GET", "/v2/dogs/:dogId", file="src/dogs.router.ts", line=12)
    e = _one(graph(kb, "kennel", web, api))
    assert e["dst"] == route
    a = e["attrs"]
    assert (a["resolution"], a["confidence"], a["modes"]) == ("env-var", "high", ["production"])
    assert a["evidence"][0] == "src/dogs.ts:4 call GET /v2/dogs/{id}"
    assert ".env.production DOGS_API=https://api.kennel.example/v2" in a["evidence"]
    assert a["evidence"][-1] == "api: src/dogs.router.ts:12 route GET /v2/dogs/:dogId"


def test_code_default_of_an_env_base_is_a_candidate_value(tmp_path):
    kb = write_kb(tmp_path, {"kennel": {"web": WEB, "api": API}})
    web, api = Facts("kennel", "web"), Facts("kennel", "api")
    web.call("c", "POST", "{DOGS_API}/dogs", env_var="DOGS_API", line=9,
             holes=[{"name": "DOGS_API", "source": "env", "default": "https://api.kennel.example/v2"}])  # fmt: skip
    api.route("POST", "/v2/dogs")
    a = _one(graph(kb, "kennel", web, api))["attrs"]
    assert a["resolution"] == "env-var" and a["confidence"] == "high"
    assert "code default DOGS_API=https://api.kennel.example/v2" in a["evidence"]


def test_kb_calls_env_var_without_any_value_is_medium(tmp_path):
    web_fm = {**WEB, "calls": [{"env_var": "DOGS_API", "component": "api"}]}
    kb = write_kb(tmp_path, {"kennel": {"web": web_fm, "api": API}})
    web, api = Facts("kennel", "web"), Facts("kennel", "api")
    web.call("c", "GET", "{DOGS_API}/dogs", env_var="DOGS_API", line=3)
    api.route("GET", "/v2/dogs")
    a = _one(graph(kb, "kennel", web, api))["attrs"]
    assert (a["resolution"], a["confidence"]) == ("kb-calls", "medium")
    assert any(ev.startswith("projects/kennel/web/component.md:") and "calls[0] env_var DOGS_API" in ev
               for ev in a["evidence"])  # fmt: skip


def test_kb_calls_path_sends_relative_urls_to_a_component(tmp_path):
    web_fm = {**WEB, "calls": [{"path": "/v2", "component": "api"}]}
    kb = write_kb(tmp_path, {"kennel": {"web": web_fm, "api": API}})
    web, api = Facts("kennel", "web"), Facts("kennel", "api")
    web.call("c", "DELETE", "/v2/dogs/{id}", line=5)
    web.call("other", "GET", "/health", line=6)
    route = api.route("DELETE", "/v2/dogs/<int:dog_id>")
    out = graph(kb, "kennel", web, api)
    e = _one(out)
    assert e["dst"] == route
    assert (e["attrs"]["resolution"], e["attrs"]["confidence"]) == ("kb-calls", "high")
    assert any("calls[0] path /v2" in ev for ev in e["attrs"]["evidence"])
    assert "no KB `calls: {path: …}` entry" in reasons(out)["call.ts:6"]  # /health is not under /v2


def test_absolute_url_on_a_kb_url_and_on_a_bare_kb_host(tmp_path):
    kb = write_kb(tmp_path, {"kennel": {"web": WEB, "api": API, "admin": {
        "role": "api", "envs": {"prod": {"url": "https://admin.kennel.example"}}}}})  # fmt: skip
    web, api, admin = Facts("kennel", "web"), Facts("kennel", "api"), Facts("kennel", "admin")
    web.call("u", "GET", "https://api.kennel.example/v2/dogs", line=1)
    web.call("h", "GET", "https://admin.kennel.example/users", line=2)
    api.route("GET", "/v2/dogs")
    admin.route("GET", "/users")
    got = {e["line"]: e["attrs"] for e in calls_of(graph(kb, "kennel", web, api, admin))}
    assert (got[1]["resolution"], got[1]["confidence"]) == ("url", "high")
    assert (got[2]["resolution"], got[2]["confidence"]) == ("host", "high")
    assert any("envs.prod.url" in ev for ev in got[2]["evidence"])


def test_dev_server_proxy_and_internal_rewrite(tmp_path):
    api_fm = {"role": "api", "envs": {"local": {"url": "http://localhost:7000"}}}
    kb = write_kb(tmp_path, {"kennel": {"web": {"role": "frontend"}, "api": api_fm}})
    web, api = Facts("kennel", "web"), Facts("kennel", "api")
    web.node("code_file", "vite.config.ts", "vite.config.ts", "vite.config.ts", proxies=[
        {"kind": "vite", "role": "proxy", "source": "/svc", "target": "http://localhost:7000",
         "strip": "/svc", "line": 6}])  # fmt: skip
    web.call("c", "PUT", "/svc/dogs/{id}", line=8)
    route = api.route("PUT", "/dogs/{dog_id}")
    e = _one(graph(kb, "kennel", web, api))
    assert e["dst"] == route
    a = e["attrs"]
    assert (a["resolution"], a["confidence"], a["path"]) == ("proxy", "high", "/dogs/{id}")
    assert "vite.config.ts:6 vite proxy /svc → http://localhost:7000" in a["evidence"]


def test_same_origin_route_of_the_caller_and_a_page_relative_url(tmp_path):
    kb = write_kb(tmp_path, {"kennel": {"app": {"role": "api"}}})
    app = Facts("kennel", "app")
    route = app.route("GET", "/api/dogs", route_kind="api")
    app.call("abs", "GET", "/api/dogs", line=1)
    app.call("rel", "GET", "api/dogs", line=2)
    got = {e["line"]: e for e in calls_of(graph(kb, "kennel", app))}
    assert got[1]["dst"] == got[2]["dst"] == route
    assert (got[1]["attrs"]["resolution"], got[1]["attrs"]["confidence"]) == ("same-origin", "high")
    assert got[2]["attrs"]["confidence"] == "medium"  # read against the site root
    assert "page-relative" in got[2]["attrs"]["how"]


def test_route_prefix_hole_is_a_wildcard_at_low_confidence(tmp_path):
    kb = write_kb(tmp_path, {"kennel": {"web": WEB, "api": API}})
    web, api = Facts("kennel", "web"), Facts("kennel", "api")
    web.call("c", "GET", "https://api.kennel.example/v2/dogs", line=3)
    route = api.node("route", "GET {API_PREFIX}/dogs", "GET {API_PREFIX}/dogs", "app.py", 9,
                     method="GET", path="{API_PREFIX}/dogs", segments=[
                         {"kind": "hole", "text": "API_PREFIX", "source": "env"},
                         {"kind": "lit", "text": "dogs"}])  # fmt: skip
    e = _one(graph(kb, "kennel", web, api))
    assert e["dst"] == route
    assert (e["attrs"]["match"], e["attrs"]["confidence"]) == ("wildcard", "low")


def test_operation_of_a_generated_client_by_unique_name(tmp_path):
    kb = write_kb(tmp_path, {"kennel": {"web": WEB, "api": API}})
    web, api = Facts("kennel", "web"), Facts("kennel", "api")
    web.node(
        "http_call",
        "op",
        "listKennelDogsV2DogsGet()",
        "src/page.tsx",
        14,
        operation="listKennelDogsV2DogsGet",
    )  # hey-api names FastAPI's default id so
    route = api.route("GET", "/v2/dogs", framework="fastapi", file="app/dogs.py", line=20)
    handler = api.node(
        "symbol", "app/dogs.py#list_kennel_dogs", "list_kennel_dogs", "app/dogs.py", 21
    )
    api.facts.edges.append(
        Edge(route, handler, "ROUTES_TO", "kennel", "api", "app/dogs.py", 20, {})
    )
    api.route("GET", "/v2/cats", framework="fastapi")
    out = graph(kb, "kennel", web, api)
    assert reasons(out) == {}
    e = _one(out)
    assert e["dst"] == route
    a = e["attrs"]
    assert (a["resolution"], a["confidence"]) == ("operation", "medium")  # a naming convention
    assert "api: app/dogs.py:20 fastapi operation id list_kennel_dogs_v2_dogs_get" in a["evidence"]


def test_unknown_host_whose_calls_fit_one_sibling_api_by_shape(tmp_path):
    kb = write_kb(tmp_path, {"kennel": {"web": {"role": "frontend"}, "api": {"role": "api"},
                                        "billing": {"role": "api"}}})  # fmt: skip
    web, api, billing = Facts("kennel", "web"), Facts("kennel", "api"), Facts("kennel", "billing")
    for i, (method, path) in enumerate([("GET", "/v2/dogs"), ("POST", "/v2/dogs"),
                                        ("GET", "/v2/dogs/{id}"), ("GET", "/v2/nope")]):  # fmt: skip
        web.call(f"c{i}", method, f"https://demo.kennel-hub.example{path}", line=10 + i)
    api.route("GET", "/v2/dogs")
    api.route("POST", "/v2/dogs")
    api.route("GET", "/v2/dogs/:id")
    billing.route("GET", "/v2/invoices")
    web.call("ext", "GET", "https://maps.example/tiles/{z}", line=30)
    out = graph(kb, "kennel", web, api, billing)
    edges = calls_of(out)
    assert sorted(e["line"] for e in edges) == [10, 11, 12]
    assert {(e["attrs"]["resolution"], e["attrs"]["confidence"]) for e in edges} == {
        ("route-shape", "low")
    }
    assert "3/4 calls to demo.kennel-hub.example fit api" in edges[0]["attrs"]["evidence"][1]
    assert reasons(out)["call.ts:13"].startswith("no route GET of api fits this call")
    assert "call.ts:30" not in reasons(out)  # a third-party host: no edge, no row


def test_alternatives_chosen_at_run_time_get_one_edge_each_with_the_condition(tmp_path):
    kb = write_kb(tmp_path, {"kennel": {"app": {"role": "api"}}})
    app = Facts("kennel", "app")
    put = app.route("PUT", "/api/dogs/:id")
    post = app.route("POST", "/api/dogs")
    app.call("a", "PUT", "/api/dogs/{id}", line=4, candidate=True, condition="dog.id")
    app.call("b", "POST", "/api/dogs", line=4, candidate=True, condition="not (dog.id)")
    got = {e["dst"]: e["attrs"]["condition"] for e in calls_of(graph(kb, "kennel", app))}
    assert got == {put: "dog.id", post: "not (dog.id)"}


def test_traps_draw_no_edge(tmp_path):
    """Same path in another app of the project, a page route, another project."""
    kb = write_kb(tmp_path, {
        "kennel": {"web": {"role": "frontend"}, "api": {"role": "api"}},
        "other": {"api": {"role": "api", "envs": {"prod": {"url": "https://api.other.example"}}}},
    })  # fmt: skip
    web, api, far = Facts("kennel", "web"), Facts("kennel", "api"), Facts("other", "api")
    web.route("GET", "/dogs", route_kind="page", file="app/dogs/page.tsx")
    web.call("page", "GET", "/dogs", line=1)  # the page's own URL, not an API
    web.call("same", "GET", "/health", line=2)
    api.route("GET", "/health")  # same path, but nothing says web's relative URLs go there
    web.call("far", "GET", "https://api.other.example/health", line=3)
    far.route("GET", "/health")
    out = graph(kb, "kennel", web, api, far)
    assert calls_of(out) == []
    why = reasons(out)
    assert why["call.ts:1"].startswith("relative URL /dogs: web has only 1 page routes (HTML)")
    assert "web has no proxy or rewrite rule" in why["call.ts:2"]
    assert "call.ts:3" not in why  # another project's host is external here
