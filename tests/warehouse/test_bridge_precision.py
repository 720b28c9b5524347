"""Precision of CALLS bridges: parameters, own API before pages, no cross-project join,
unresolved reasons naming the closest route, dead code flagged (low) on the edge."""

from __future__ import annotations

from textwrap import dedent

from bridgekit import Facts, bridged, calls_of, extracted, graph, reasons, write_kb

ONE = {"app": {"role": "frontend"}}


def test_every_route_parameter_syntax_matches(tmp_path):
    kb = write_kb(tmp_path, {"p": ONE})
    app = Facts("p", "app")
    routes = ["/a/:slug", "/b/{id}", "/c/<id>", "/d/<int:id>/", "/e/[pid]", "/f/[...rest]",
              "/g/:path*", "/h/[[...opt]]", "/i/:id?"]  # fmt: skip
    for i, route in enumerate(routes, start=1):
        app.route("GET", route, line=i)
    calls = [
        "/a/x",
        "/b/{n}",
        "/c/7",
        "/d/7",
        "/e/{pid}/",
        "/f/x/y/z",
        "/g/1/2",
        "/h/a",
        "/i/9?q=1",
    ]
    for i, url in enumerate(calls, start=1):
        app.call(f"c{i}", "GET", url, line=i)
    got = {site: route for site, route, _ in bridged(graph(kb, "p", app))}
    assert got == {f"call.ts:{i}": f"GET {r}" for i, r in enumerate(routes, start=1)}


def test_exact_segment_beats_parameter_and_method_must_agree(tmp_path):
    kb = write_kb(tmp_path, {"p": ONE})
    app = Facts("p", "app")
    app.route("GET", "/api/articles/feed")
    app.route("GET", "/api/articles/:slug")
    app.route("DELETE", "/api/articles/:slug")
    app.call("feed", "GET", "/api/articles/feed", line=1)
    app.call("del", "DELETE", "/api/articles/{slug}", line=2)
    assert bridged(graph(kb, "p", app)) == [
        ("call.ts:1", "GET /api/articles/feed", "same-origin"),
        ("call.ts:2", "DELETE /api/articles/:slug", "same-origin"),
    ]


def test_relative_url_joins_own_api_route_never_a_page(tmp_path):
    files = {
        "blog/web/package.json": '{"dependencies": {"next": "14", "axios": "1"}}',
        "blog/web/pages/article/[pid].js": "export default function A() { return null; }\n",
        "blog/web/pages/user.js": "export default function U() { return null; }\n",
        "blog/web/pages/api/session.js": "export default function h(req, res) { res.end(); }\n",
        "blog/web/lib/client.js": dedent("""\
            import axios from 'axios';

            export const me = () => axios.get('/user');
            export const session = () => axios.get('/api/session');
            """),
    }
    out = extracted(tmp_path, {"blog": {"web": {"role": "frontend"}}}, files, "blog")
    assert bridged(out) == [("lib/client.js:4", "ANY /api/session", "same-origin")]
    assert reasons(out)["lib/client.js:3"].startswith("no route GET /user in web")


def test_spa_without_api_routes_and_other_projects_same_path_never_join(tmp_path):
    kb = write_kb(tmp_path, {
        "alpha": {"web": {"role": "frontend", "envs": {"prod": {"url": "https://a.example"}}},
                  "api": {"role": "api"}},
        "beta": {"api": {"role": "api", "envs": {"prod": {"url": "https://a.example/user"}}}},
    })  # fmt: skip
    web, api, beta = Facts("alpha", "web"), Facts("alpha", "api"), Facts("beta", "api")
    web.call("c", "GET", "/user", file="src/agent.js", line=30)
    api.route("GET", "/user")  # same path in another component, no base says it is reached
    beta.route("GET", "/user")  # same host in another project's KB
    out = graph(kb, "alpha", web, api, beta)
    assert calls_of(out) == []
    assert reasons(out) == {
        "src/agent.js:30": "relative URL /user: web has no API routes of its own; web has no "
        "proxy or rewrite rule (dev server, hosting, gateway); no KB `calls: {path: …}` entry "
        "of web and no other component on its host"
    }


def test_relative_url_reaches_component_on_the_callers_own_host(tmp_path):
    kb = write_kb(tmp_path, {"shop": {
        "web": {"role": "frontend", "envs": {"prod": {"url": "https://shop.example"}}},
        "api": {"role": "api", "envs": {"prod": {"url": "https://shop.example/api"}}},
    }})  # fmt: skip
    web, api = Facts("shop", "web"), Facts("shop", "api")
    web.call("c", "POST", "/api/cart", file="src/cart.ts", line=11)
    api.route("POST", "/api/cart")
    out = graph(kb, "shop", web, api)
    assert bridged(out) == [("src/cart.ts:11", "POST /api/cart", "host shop.example")]


def test_unresolved_reason_names_the_closest_route(tmp_path):
    kb = write_kb(tmp_path, {"p": {"web": {"role": "frontend"}, "api": {
        "role": "api", "envs": {"prod": {"url": "https://api.p.example"}}}}})  # fmt: skip
    web, api = Facts("p", "web"), Facts("p", "api")
    web.node("env_var", "API", "API", values={".env": "https://api.p.example"})
    web.call("m", "POST", "{API}/tags", env_var="API", line=3)
    web.call("s", "GET", "{API}/articles/{slug}/comment", env_var="API", line=4)
    web.call("n", "GET", "{API}/nothing", env_var="API", line=5)
    web.call("b", "GET", "{NO_VALUE}/x", line=6)
    api.route("GET", "/tags")
    api.route("GET", "/articles/:slug/comments")
    why = reasons(graph(kb, "p", web, api))
    assert why["call.ts:3"].endswith("; closest: GET /tags (same path, other method)")
    assert why["call.ts:4"].endswith(
        "; closest: GET /articles/:slug/comments (segment 3 differs: 'comment')"
    )
    assert why["call.ts:5"].startswith("no route GET /nothing in api (API=https://api.p.example")
    assert "closest" not in why["call.ts:5"]
    assert why["call.ts:6"].startswith("no base URL: env var NO_VALUE")


def test_call_in_a_file_nothing_imports_is_dead_code(tmp_path):
    kb = write_kb(tmp_path, {"p": ONE})
    app = Facts("p", "app")
    used = app.node("code_file", "src/used.js", "src/used.js", "src/used.js")
    index = app.node("code_file", "src/index.js", "src/index.js", "src/index.js")
    app.node("code_file", "src/old.js", "src/old.js", "src/old.js")
    app.edge(index, used, "IMPORTS", "src/index.js", 1)
    app.route("GET", "/api/items")
    app.call("live", "GET", "/api/items", file="src/used.js", line=4)
    app.call("dead", "GET", "/api/items", file="src/old.js", line=9)
    app.call("entry", "GET", "/api/items", file="src/index.js", line=2)
    got = {e["file"]: e["attrs"] for e in calls_of(graph(kb, "p", app))}
    assert {f: a.get("dead_code", False) for f, a in got.items()} == {
        "src/used.js": False, "src/old.js": True, "src/index.js": False}  # fmt: skip
    assert got["src/old.js"]["confidence"] == "low" and got["src/used.js"]["confidence"] == "high"
    assert "dead code?" in got["src/old.js"]["how"]


def test_template_against_literal_segment_or_a_tie_is_never_joined(tmp_path):
    kb = write_kb(tmp_path, {"p": ONE})
    app = Facts("p", "app")
    app.route("GET", "/api/articles/feed")
    app.route("GET", "/api/items/:id", file="a.ts")
    app.route("GET", "/api/items/:slug", file="b.ts")
    app.call("loose", "GET", "/api/articles/{slug}", line=1)
    app.call("tie", "GET", "/api/items/5", line=2)
    out = graph(kb, "p", app)
    assert bridged(out) == []
    why = reasons(out)
    assert why["call.ts:1"] == (
        "no route GET /api/articles/{slug} in app (same-origin API route); closest: "
        "GET /api/articles/feed (a literal segment where the call has a value); relative URL "
        "/api/articles/{slug}: app has no proxy or rewrite rule (dev server, hosting, gateway); "
        "no KB `calls: {path: …}` entry of app and no other component on its host"
    )
    assert why["call.ts:2"].startswith(
        "GET /api/items/5 in app is ambiguous: 2 routes match (GET /api/items/:id, "
        "GET /api/items/:slug)"
    )


def test_literal_in_a_parameter_place_the_caller_fills_with_values_elsewhere(tmp_path):
    """`/recipes/popular` next to `/recipes/{id}` in the same frontend names an endpoint of
    its own: when the API has only `/recipes/:id`, the literal call is no call of it (the
    API lacks the endpoint); a literal with no such sibling (`/chefs/me`) still joins."""
    kb = write_kb(tmp_path, {"p": {"web": {"role": "frontend"}, "api": {
        "role": "api", "envs": {"prod": {"url": "https://api.p.example"}}}}})  # fmt: skip
    web, api = Facts("p", "web"), Facts("p", "api")
    web.node("env_var", "API", "API", values={".env": "https://api.p.example"})
    web.call("pop", "GET", "{API}/recipes/popular", env_var="API", line=3)
    web.call("one", "GET", "{API}/recipes/{id}", env_var="API", line=4)
    web.call("me", "GET", "{API}/chefs/me", env_var="API", line=5)
    api.route("GET", "/recipes/:id")
    api.route("GET", "/chefs/:name")
    out = graph(kb, "p", web, api)
    assert [(s, r) for s, r, _ in bridged(out)] == [
        ("call.ts:4", "GET /recipes/:id"),
        ("call.ts:5", "GET /chefs/:name"),
    ]
    assert reasons(out)["call.ts:3"].endswith(
        "closest: GET /recipes/:id (its parameter would take the literal 'popular', but this "
        "component also calls GET /recipes/{id} with a value there: an endpoint the API lacks?)"
    )


def test_literal_route_by_one_value_beats_a_parameter_route_by_another(tmp_path):
    """The env var has two values (dev, prod); through one the call is `/user` (a literal
    route), through the other `/v1/user`, which only `/v1/{name}` fits: the literal wins."""
    kb = write_kb(tmp_path, {"p": {"web": {"role": "frontend"}, "api": {"role": "api", "envs": {
        "dev": {"url": "http://localhost:5000"}, "prod": {"url": "https://api.p.example"}}}}})  # fmt: skip
    web, api = Facts("p", "web"), Facts("p", "api")
    web.node("env_var", "API", "API", values={
        ".env.development": "http://localhost:5000", ".env.production": "https://api.p.example/v1"})  # fmt: skip
    web.call("me", "GET", "{API}/user", env_var="API", line=3)
    api.route("GET", "/user")
    api.route("GET", "/v1/:name")
    assert [(s, r) for s, r, _ in bridged(graph(kb, "p", web, api))] == [("call.ts:3", "GET /user")]


def test_a_tie_of_registrations_chosen_at_run_time_joins_each_with_its_condition(tmp_path):
    """Two registrations of one path, each under its own flag (a method chosen by a setting,
    a path chosen by another): the call reaches whichever the flag selects, so both edges
    are drawn — at medium, never high. A plain tie stays unjoined (the test above)."""
    kb = write_kb(tmp_path, {"p": ONE})
    app = Facts("p", "app")
    app.route("POST", "/api/likes/:id", file="a.py", condition="not LIKES_V2")
    name = "POST /api/likes/:id"  # a second registration of the same name: its own node
    app.node("route", f"{name}@b.py", name, "b.py", 1, method="POST", path="/api/likes/:id",
             condition="LIKES_V2")  # fmt: skip
    app.call("like", "POST", "/api/likes/7", line=1)
    out = graph(kb, "p", app)
    edges = calls_of(out)
    assert sorted(e["attrs"]["confidence"] for e in edges) == ["medium", "medium"]
    assert len({e["dst"] for e in edges}) == 2


def test_a_flag_that_adds_a_registration_in_front_of_a_plain_one_joins_both(tmp_path):
    """`POST /api/orders` is registered plainly, and a second time only under a flag (a
    method chosen by a setting): with the flag on, the earlier registration may take the
    call, so both edges are drawn at medium; two plain twins stay ambiguous."""
    kb = write_kb(tmp_path, {"p": ONE})
    app = Facts("p", "app")
    app.route("POST", "/api/orders", file="a.py")
    name = "POST /api/orders"
    app.node("route", f"{name}@b.py", name, "b.py", 1, method="POST", path="/api/orders",
             condition="BULK_MODE")  # fmt: skip
    app.call("order", "POST", "/api/orders", line=1)
    edges = calls_of(graph(kb, "p", app))
    assert sorted(e["attrs"]["confidence"] for e in edges) == ["medium", "medium"]
    assert len({e["dst"] for e in edges}) == 2

    twins = Facts("p", "app")
    twins.route("POST", "/api/orders", file="a.py")
    twins.node("route", f"{name}@b.py", name, "b.py", 1, method="POST", path="/api/orders")
    twins.call("order", "POST", "/api/orders", line=1)
    out = graph(kb, "p", twins)
    assert calls_of(out) == []
    assert "is ambiguous: 2 routes match" in reasons(out)["call.ts:1"]
