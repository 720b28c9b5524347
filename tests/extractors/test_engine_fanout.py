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
