"""Coverage: each web framework or HTTP client a component declares, against the routes
and calls extraction found — a declared framework with nothing found, or one no model
reads, is a row with a warning, never a silent zero."""

from __future__ import annotations

import json

from jsrepo import extract

MANIFEST = {
    "dependencies": {
        "express": "4",
        "fastify": "4",
        "0http": "3",
        "axios": "1",
        "lodash": "4",
    },
    "devDependencies": {"superagent": "8"},
}


def rows(f) -> dict[str, dict]:
    return {r.name: r.attrs for r in f.catalog if r.table == "coverage"}


def test_declared_frameworks_and_clients_are_counted_against_their_facts(tmp_path):
    f = extract(tmp_path, {
        "package.json": json.dumps(MANIFEST, indent=2),
        "src/app.js": """
            const express = require('express');
            const axios = require('axios');
            const app = express();
            app.get('/stock', async (req, res) => res.json(await axios.get('https://inv.example/items')));
            app.listen(3000);
            """,
    })  # fmt: skip
    found = rows(f)
    assert set(found) == {"express", "fastify", "0http", "axios"}  # no lodash, no devDependency
    express = found["express"]
    assert (express["model"], express["routes"], express["status"], express["warning"]) == (
        "express", 1, "ok", None,
    )  # fmt: skip
    assert (found["axios"]["calls"], found["axios"]["status"]) == (1, "ok")
    # fastify is declared and modelled, but nothing registers a route through it, and the
    # express routes do not count for it: it is quiet, not a warning
    assert (found["fastify"]["routes"], found["fastify"]["status"]) == (0, "quiet")
    unread = found["0http"]  # named in models/unmodeled.yaml: no model reads it yet
    assert unread["model"] is None and unread["status"] == "no_model"
    assert "p/c declares 0http (package.json:5)" in unread["warning"]
    assert "docs/frameworks.md" in unread["warning"]


def test_a_declared_framework_that_yields_nothing_is_a_warning_with_its_manifest_line(tmp_path):
    f = extract(tmp_path, {
        "package.json": json.dumps({"dependencies": {"koa": "2", "axios": "1"}}, indent=2),
        "src/server.js": """
            const Koa = require('koa');
            const app = new Koa();
            const table = loadRoutesFromSomewhere();
            table.forEach((r) => app.use(r));
            app.listen(3000);
            """,
    })  # fmt: skip
    koa = rows(f)["koa"]
    assert (koa["routes"], koa["status"]) == (0, "no_facts")
    assert koa["warning"].startswith(
        "p/c declares koa (package.json:3); the koa model found no route"
    )
    axios = rows(f)["axios"]
    assert (axios["calls"], axios["status"]) == (0, "no_facts")
    assert "found no call" in axios["warning"]


def test_python_requirements_match_whatever_the_separator_and_case(tmp_path):
    f = extract(tmp_path, {
        "requirements.txt": "Flask==3.0\nDjango_Ninja==1.1\n",
        "app.py": """
            from flask import Flask

            app = Flask(__name__)

            @app.get("/health")
            def health():
                return "ok"
            """,
    })  # fmt: skip
    found = rows(f)
    assert (found["flask"]["model"], found["flask"]["routes"], found["flask"]["status"]) == (
        "flask", 1, "ok",
    )  # fmt: skip
    ninja = found["django-ninja"]  # `Django_Ninja` is PyPI's django-ninja: its model's row
    assert (ninja["model"], ninja["routes"], ninja["status"]) == ("django-ninja", 0, "quiet")


def test_a_frontend_meta_framework_without_server_routes_is_quiet_not_a_warning(tmp_path):
    """Nuxt declares Nitro, which can serve routes from server/; an app of pages alone serves
    none (and need not call $fetch either): no miss. Nitro itself declared with nothing found
    still warns."""
    page = "<template><p>hello</p></template>\n"
    nuxt = extract(tmp_path / "site", {
        "package.json": json.dumps({"dependencies": {"nuxt": "3"}}, indent=2),
        "pages/index.vue": page,
    })  # fmt: skip
    row = rows(nuxt)["nuxt"]
    assert (row["model"], row["routes"], row["status"], row["warning"]) == (
        "nitro, nuxt-fetch", 0, "quiet", None,
    )  # fmt: skip
    bare = extract(tmp_path / "server", {
        "package.json": json.dumps({"dependencies": {"nitropack": "2"}}, indent=2),
        "nitro.config.ts": "export default {};\n",
    })  # fmt: skip
    row = rows(bare)["nitropack"]
    assert (row["status"], row["warning"].split(";")[0]) == (
        "no_facts", "p/c declares nitropack (package.json:3)",
    )  # fmt: skip


def test_code_in_a_language_nothing_extracts_is_a_coverage_warning(tmp_path):
    f = extract(tmp_path, {
        "web/app.js": "fetch('/api/ping');\n",
        "svc/go.mod": "module example.test/svc\n\ngo 1.22\n",
        "svc/main.go": "package main\n\nfunc main() {}\n",
        "svc/handlers/orders.go": "package handlers\n",
        "jobs/Report.java": "class Report {}\n",
    })  # fmt: skip
    found = rows(f)
    assert set(found) == {"Go", "Java"}
    go = found["Go"]
    assert (go["kind"], go["status"], go["model"]) == ("language", "unsupported_language", None)
    assert "has 2 Go file(s)" in go["warning"]
    assert "svc/handlers/orders.go, svc/main.go" in go["warning"]
    assert "not in the graph" in found["Java"]["warning"]
    assert [r.file for r in f.catalog if r.name == "Go"] == ["svc/handlers/orders.go"]
