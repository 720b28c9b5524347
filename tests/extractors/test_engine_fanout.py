"""A call open on a parameter is read again at its callers, and theirs: when a function is
called from everywhere the chains multiply (callers^levels). Past a budget per call the
rest are not followed — the route is still found through the first chains, and the cut is
named at the call as an `unresolved` row, instead of minutes of the same reading."""

from __future__ import annotations

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


def test_a_guess_is_kept_where_one_caller_passes_a_url_and_the_others_do_not(tmp_path):
    # `load(path)` on an unmodelled client: callers that pass no URL drop the guess there
    # and are not read again (engine/flows.py); the one that passes a path keeps it
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"tiny-http-client": "1"}}',
        "load.js": "import client from 'tiny-http-client';\n"
                   "export function load(path) { return client.get(path); }\n"
                   "export function count(n) { return load(n * 2); }\n"
                   "export function users() { return load('/api/users'); }\n",
    })  # fmt: skip
    assert [(n.name, n.attrs.get("confidence")) for n in facts.raw.nodes
            if n.kind == "http_call"] == [("GET /api/users", "low")]  # fmt: skip


def test_a_guess_no_caller_passes_a_url_to_is_no_request(tmp_path):
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"tiny-http-client": "1"}}',
        "load.js": "import client from 'tiny-http-client';\n"
                   "export function load(key) { return client.get(key); }\n"
                   "export function count(n) { return load(n * 2); }\n"
                   "export function size() { return load(42); }\n",
    })  # fmt: skip
    assert [n.name for n in facts.raw.nodes if n.kind == "http_call"] == []


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


def test_a_guess_on_a_default_url_is_kept_where_the_caller_passes_nothing(tmp_path):
    # `load()` passes no path: the parameter's default, a URL path, is what is requested
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"tiny-http-client": "1"}}',
        "load.js": "import client from 'tiny-http-client';\n"
                   "export function load(path = '/api/health') { return client.get(path); }\n"
                   "export function count(n) { return load(n * 2); }\n"
                   "export function health() { return load(); }\n",
    })  # fmt: skip
    assert [n.name for n in facts.raw.nodes if n.kind == "http_call"] == ["GET /api/health"]


def test_a_router_by_default_is_followed_where_the_caller_passes_nothing(tmp_path):
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "server.js": "import express from 'express';\nconst app = express();\n"
                     "function health(req, res) { res.send('ok'); }\n"
                     "function mount(router = app) { router.get('/health', health); }\n"
                     "const cache = new Map();\nfunction keep(k) { mount(cache); }\n"
                     "mount();\napp.listen(3000);\n",
    })  # fmt: skip
    assert set(facts.kind("route")) == {"GET /health"}


def test_a_router_kept_on_this_and_handed_to_a_helper_gives_its_route(tmp_path):
    facts = extract(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "server.js": "import express from 'express';\nconst app = express();\n"
                     "function health(req, res) { res.send('ok'); }\n"
                     "function register(router) { router.get('/health', health); }\n"
                     "class Api {\n  constructor() { this.router = express.Router(); }\n"
                     "  start() { register(this.router); app.use('/api', this.router); }\n}\n"
                     "const cache = new Map();\nfunction warm() { register(cache); }\n"
                     "new Api().start();\napp.listen(3000);\n",
    })  # fmt: skip
    assert set(facts.kind("route")) == {"GET /api/health"}
