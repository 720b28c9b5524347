"""A call open on a parameter is read again at its callers, and theirs: when a function is
called from everywhere the chains multiply (callers^levels). Past a budget per call the
rest are not followed — the route is still found through the first chains, and the cut is
named at the call as an `unresolved` row, instead of minutes of the same reading."""

from __future__ import annotations

import pytest
from jsrepo import extract

from extractors.engine.recognize import MAX_READINGS

FANOUT = 24  # callers per level: 24 × 24 chains two levels up, past the budget


def _registrations() -> str:
    lines = ["function ping(req, res) { res.send('pong'); }",
             "export function leaf(app) {\n  app.get('/ping', ping);\n}"]  # fmt: skip
    lines += [f"export function mid{i}(app) {{ leaf(app); }}" for i in range(FANOUT)]
    calls = "\n".join(f"  mid{i}(app);" for i in range(FANOUT))
    lines += [f"export function top{j}(app) {{\n{calls}\n}}" for j in range(FANOUT)]
    return "\n".join(lines) + "\n"


def test_a_call_reached_through_too_many_chains_keeps_its_route_and_names_the_cut(tmp_path):
    assert FANOUT * FANOUT > MAX_READINGS
    tops = "\n".join(f"top{j}(app);" for j in range(FANOUT))
    imports = ", ".join(f"top{j}" for j in range(FANOUT))
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "routes.js": _registrations(),
        "server.js": f"import express from 'express';\nimport {{ {imports} }} from './routes';\n"
                     f"const app = express();\n{tops}\napp.listen(3000);\n",
    })  # fmt: skip
    assert set(facts.kind("route")) == {"GET /ping"}
    [cut] = [u for u in facts.unresolved if u.kind == "call_chain"]
    assert (cut.file, cut.line) == ("routes.js", 3)
    assert f"more than {MAX_READINGS} chains" in cut.reason


def test_a_request_in_a_recursive_function_is_one_call_at_the_outside_caller(tmp_path):
    # `walk` calls itself with the client it was given: the recursive call hands on what
    # `start` gave it, and is not read as one more caller (which gave the request twice)
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"axios": "1"}}',
        "tree.js": """
            import axios from 'axios';
            const api = axios.create({ baseURL: '/api' });
            function walk(client, node) {
              client.get(`/nodes/${node.id}`);
              for (const child of node.children) walk(client, child);
            }
            export function start(tree) {
              walk(api, tree);
            }
            """,
    })  # fmt: skip
    calls = [(n.name, n.line) for n in facts.raw.nodes if n.kind == "http_call"]
    assert calls == [("GET /api/nodes/{id}", 8)]


def test_a_router_handed_down_is_followed_where_other_callers_hand_down_maps(tmp_path):
    # `remember(store, key)` is called from many places with a Map; one chain hands it an
    # Express router and a handler. The Map chains cannot register anything and are not
    # read again (engine/flows.py); the router's chain still gives its route
    callers = "\n".join(f"export function keep{i}(k) {{ remember(cache, k); }}" for i in range(30))
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "store.js": "const cache = new Map();\n"
                    "export function remember(store, key, fn) { store.get(key, fn); }\n"
                    f"{callers}\n",
        "server.js": "import express from 'express';\nimport { remember } from './store';\n"
                     "const app = express();\nfunction health(req, res) { res.send('ok'); }\n"
                     "function mount(router) { remember(router, '/health', health); }\n"
                     "mount(app);\napp.listen(3000);\n",
    })  # fmt: skip
    assert set(facts.kind("route")) == {"GET /health"}


def test_a_keyed_collection_read_with_a_path_is_no_request(tmp_path):
    # `new Map()` is known: its `get` / `delete` read the collection (a route table keyed by
    # path, in bundled framework code), they are no guess of the heuristic tier
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"tiny-http-client": "1"}}',
        "routes.js": "import client from 'tiny-http-client';\n"
                     "const loaded = new Map();\nconst seen = new WeakMap();\n"
                     "export function whenLoaded(route) { return loaded.get(route); }\n"
                     "export function forget(route) { loaded.delete(route); seen.delete(route); }\n"
                     "whenLoaded('/_app');\nforget('/_app');\n"
                     "export const users = () => client.get('/api/users');\n",
    })  # fmt: skip
    assert [n.name for n in facts.raw.nodes if n.kind == "http_call"] == ["GET /api/users"]


# `load(…)` on an unmodelled client, its URL a parameter: callers that pass no URL drop the
# guess there and are not read again (engine/flows.py); a URL passed, or the parameter's
# default where a caller passes nothing, keeps it
GUESSES = {
    "one caller passes a URL": (
        "export function load(path) { return client.get(path); }\n"
        "export function count(n) { return load(n * 2); }\n"
        "export function users() { return load('/api/users'); }\n",
        [("GET /api/users", "low")],
    ),
    "no caller passes a URL": (
        "export function load(key) { return client.get(key); }\n"
        "export function count(n) { return load(n * 2); }\n"
        "export function size() { return load(42); }\n",
        [],
    ),
    "the default URL, where a caller passes nothing": (
        "export function load(path = '/api/health') { return client.get(path); }\n"
        "export function count(n) { return load(n * 2); }\n"
        "export function health() { return load(); }\n",
        [("GET /api/health", "low")],
    ),
}


@pytest.mark.parametrize("case", list(GUESSES))
def test_a_guess_open_on_its_url_is_kept_only_where_a_caller_can_pass_one(tmp_path, case):
    source, expected = GUESSES[case]
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"tiny-http-client": "1"}}',
        "load.js": "import client from 'tiny-http-client';\n" + source,
    })  # fmt: skip
    found = [(n.name, n.attrs.get("confidence")) for n in facts.raw.nodes if n.kind == "http_call"]
    assert found == expected


# a router reached without a caller handing it down, beside a helper that other callers
# hand a Map: a parameter's default, or a router a class keeps on `this`
ROUTERS = {
    "a parameter's default": (
        "function mount(router = app) { router.get('/health', health); }\n"
        "function keep(k) { mount(cache); }\nmount();\n",
        {"GET /health"},
    ),
    "kept on this": (
        "function register(router) { router.get('/health', health); }\n"
        "class Api {\n  constructor() { this.router = express.Router(); }\n"
        "  start() { register(this.router); app.use('/api', this.router); }\n}\n"
        "function warm() { register(cache); }\nnew Api().start();\n",
        {"GET /api/health"},
    ),
}


@pytest.mark.parametrize("case", list(ROUTERS))
def test_a_router_not_handed_down_by_a_caller_still_gives_its_route(tmp_path, case):
    source, expected = ROUTERS[case]
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "server.js": "import express from 'express';\nconst app = express();\n"
                     "function health(req, res) { res.send('ok'); }\nconst cache = new Map();\n"
                     + source + "app.listen(3000);\n",
    })  # fmt: skip
    assert set(facts.kind("route")) == expected
