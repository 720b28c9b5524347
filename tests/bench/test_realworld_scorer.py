"""The RealWorld scorer (bench/realworld_score/) on a tiny benchmark of our own: one project,
an Express API serving three of the 19 endpoints and a fetch frontend calling two of them,
built by the real `kb refresh` and asked over a real MCP client. It gives full marks to a
faithful graph and answers, and it notices each way a broken extraction or answer falls
short (a scorer that cannot fail measures nothing)."""

from __future__ import annotations

import copy
import json
import textwrap
from pathlib import Path

import pytest
import yaml

from bench.realworld_score.answers import Question, judge, plan
from bench.realworld_score.ask import ask_and_judge
from bench.realworld_score.graph import score_graph
from bench.realworld_score.report import framework_rows, render
from bench.realworld_score.truth import load_benchmark
from bench.realworld_score.warehouse import build, published_rows
from tests.support.portfolio import git

API = {
    "package.json": '{"name": "tiny-api", "dependencies": {"express": "^4.19.0"}}\n',
    "server.js": """\
        const express = require('express')
        const accounts = require('./accounts')
        const app = express()
        app.use('/api', accounts)
        app.listen(process.env.PORT || 4000)
    """,
    "accounts.js": """\
        const { Router } = require('express')
        const r = Router()
        r.post('/users/login', (req, res) => res.json({ user: req.body }))
        r.get('/user', (req, res) => res.json({ user: null }))
        r.get('/tags', (req, res) => res.json({ tags: [] }))
        module.exports = r
    """,
}
WEB = {
    "package.json": '{"name": "tiny-web", "dependencies": {"vite": "^5.0.0"}}\n',
    "src/client.js": """\
        const BASE = import.meta.env.VITE_API_ROOT
        export function signIn(body) {
          return fetch(`${BASE}/api/users/login`, { method: 'POST', body: JSON.stringify(body) })
        }
        export function me() {
          return fetch(`${BASE}/api/user`)
        }
    """,
}
TRUTH = {
    "be-tiny": {
        "routes": [
            {
                "endpoint": "login",
                "method": "POST",
                "path": "/api/users/login",
                "file": "accounts.js",
                "line": 3,
            },
            {
                "endpoint": "get_user",
                "method": "GET",
                "path": "/api/user",
                "file": "accounts.js",
                "line": 4,
            },
            {
                "endpoint": "tags",
                "method": "GET",
                "path": "/api/tags",
                "file": "accounts.js",
                "line": 5,
            },
        ]
    },
    "fe-tiny": {
        "calls": [
            {"endpoint": "login", "method": "POST", "file": "src/client.js", "line": 3},
            {"endpoint": "get_user", "method": "GET", "file": "src/client.js", "line": 6},
        ]
    },
}
VOCABULARY = {
    "role": ["frontend", "api"],
    "runtime": ["node"],
    "deploy": ["manual"],
    "access": ["public"],
    "stack": ["express", "vite", "javascript"],
    "integration": [],
    "secret_store": ["env-file"],
    "env": ["local", "prod"],
    "status": ["verified", "unverified", "stale", "disputed"],
    "adr_status": ["proposed", "rejected", "accepted", "deprecated", "superseded"],
    "doc_type": ["architecture", "runbook", "convention", "spec", "overview", "integration"],
    "tag": [],
}


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text), encoding="utf-8")


def component(cid: str, role: str, slug: str, extra: str) -> str:
    return (
        f"---\nkind: component\nproject: tiny\nid: {cid}\ntitle: tiny {cid}\nrole: {role}\n"
        f"repo: {slug}\n{extra}source: [code]\nverification: {{status: unverified}}\n---\n# tiny {cid}\n"
    )


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> tuple[Path, Path]:
    """(benchmark folder, built KB)."""
    top = tmp_path_factory.mktemp("tiny-realworld")
    bench = top / "bench"
    (bench / "truth").mkdir(parents=True)
    (bench / "repos.yaml").write_text(
        yaml.safe_dump(
            {
                "projects": [{"id": "tiny", "half": "A", "web": "fe-tiny", "api": "be-tiny"}],
                "repos": [
                    {"slug": "be-tiny", "framework": "express"},
                    {"slug": "fe-tiny", "framework": "vanilla"},
                ],
            }
        )
    )
    for slug, truth in TRUTH.items():
        (bench / "truth" / f"{slug}.yaml").write_text(yaml.safe_dump({"slug": slug, **truth}))
    for slug, files in (("be-tiny", API), ("fe-tiny", WEB)):
        write(top / "repos" / slug, files)
        git(top / "repos" / slug, "init", "-q", "-b", "main")
        git(top / "repos" / slug, "add", "-A")
        git(top / "repos" / slug, "commit", "-q", "-m", "tiny")
    kb = top / "kb"
    write(
        kb,
        {
            "kb.yaml": "name: tiny\nrepos_root: ../repos\ntoken_budget: 2000\n",
            "vocabulary.yaml": yaml.safe_dump(VOCABULARY),
            "projects/tiny/project.md": "---\nkind: project\nid: tiny\ntitle: tiny\n---\n# tiny\n",
            "projects/tiny/api/component.md": component(
                "api",
                "api",
                "be-tiny",
                "stack: [express, javascript]\nenvs:\n  local: {url: 'http://localhost:4000'}\n",
            ),
            "projects/tiny/web/component.md": component(
                "web",
                "frontend",
                "fe-tiny",
                "stack: [vite, javascript]\ncalls:\n  - {env_var: VITE_API_ROOT, component: api}\n",
            ),
        },
    )
    build(kb)
    return bench, kb


def test_a_faithful_graph_scores_full_marks(tiny):
    bench_dir, kb = tiny
    graph = score_graph(load_benchmark(bench_dir), published_rows(kb))
    t = graph["totals"]
    assert (t["routes"], t["calls"], t["bridges"]) == ([3, 3], [2, 2], [2, 2])
    assert graph["precision"] == 1.0 and graph["leaks"] == 0
    assert graph["frameworks"]["routes:express"] == [3, 3]


def test_each_broken_extraction_lowers_its_own_score(tiny):
    bench_dir, kb = tiny
    bench, rows = load_benchmark(bench_dir), published_rows(kb)
    route = {n["id"]: n for n in rows.nodes if n["kind"] == "route"}
    login = next(i for i, n in route.items() if n["line"] == 3)
    tags = next(i for i, n in route.items() if n["line"] == 5)

    dropped = copy.deepcopy(rows)  # the mount prefix lost: /users/login instead of /api/...
    for n in dropped.nodes:
        if n["id"] == login:
            n["attrs"] = json.dumps({"method": "POST", "path": "/users/login"})
    t = score_graph(bench, dropped)["totals"]
    assert t["routes"] == [2, 3] and t["bridges"] == [2, 2]  # the edge still reaches its site

    moved = copy.deepcopy(rows)  # call sites reported far from where they are
    for n in moved.nodes:
        if n["kind"] == "http_call":
            n["line"] = 40
    t = score_graph(bench, moved)["totals"]
    assert t["calls"] == [0, 2] and t["bridges"] == [0, 2]

    wrong = copy.deepcopy(rows)  # the login call bridged to the wrong route
    for e in wrong.calls:
        if e["dst"] == login:
            e["dst"] = tags
    graph = score_graph(bench, wrong)
    assert graph["totals"]["bridges"] == [1, 2] and graph["precision"] == 0.5

    leaking = copy.deepcopy(rows)
    leaking.leaks = [{"src": "tiny/web:x", "dst": "other/api:y", "type": "CALLS"}]
    assert score_graph(bench, leaking)["leaks"] == 1


def test_answers_over_mcp_are_judged_as_an_agent_reads_them(tiny):
    bench_dir, kb = tiny
    result = ask_and_judge(load_benchmark(bench_dir), kb)
    assert result["totals"] == {"trace_down": [2, 2], "trace_up": [2, 2], "negatives": [1, 1]}, (
        result["misses"]
    )
    assert result["over_budget"] == 0


def test_a_wrong_answer_is_judged_wrong(tiny):
    bench_dir, _ = tiny
    questions = {(q.kind, q.endpoint): q for q in plan(load_benchmark(bench_dir))}
    down: Question = questions[("trace_down", "login")]
    good = "http_call POST {VITE_API_ROOT}/api/users/login\n→ route POST /api/users/login  tiny/api accounts.js:3"
    assert judge(down, good) == (True, "")
    assert not judge(down, good.replace("accounts.js:3", "accounts.js:9"))[0]  # registration off
    assert not judge(down, good.replace("tiny/api", "tiny/web"))[0]  # attributed to the caller
    assert not judge(down, good.replace("/users/login", "/users"))[0]  # another route
    hidden = "unresolved call GET /api/users/login tiny/api accounts.js:3"
    assert not judge(down, hidden)[0]  # a hint line neither finds nor claims
    negative = questions[("negatives", "tags")]
    assert judge(negative, "no callers per the static graph")[0]
    assert not judge(negative, "called by tiny/web src/client.js:3")[0]
    assert not judge(negative, "route GET /api/tags")[0]  # silent is not a "no"


def test_a_framework_at_zero_shows_in_its_own_row(tiny):
    bench_dir, kb = tiny
    rows = published_rows(kb)
    rows.nodes = [n for n in rows.nodes if n["kind"] != "route"]  # a backend that yields nothing
    graph = score_graph(load_benchmark(bench_dir), rows)
    table = {(name, role): cells for name, role, cells in framework_rows(graph, None)}
    assert table[("express", "backend")]["routes"] == "0/3"
    assert table[("vanilla", "frontend")]["calls"] == "2/2"
    assert "express        backend" in render(graph, None)
