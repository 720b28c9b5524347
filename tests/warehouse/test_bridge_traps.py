"""Wrong-edge traps (issue 27): real repos written by the test, real extraction, real
bridge — the edge a careless matcher would draw is not drawn.

What a user expects, decided here:
- a call in commented-out code is no call (nothing is extracted);
- a call in a function nothing calls — a module-private function whose name is never used
  again in its file — is kept (it is code someone may wire back in) but said: the edge is
  `confidence: low` with `dead_code: true`, like a call in a file nothing imports;
- a redirect (a server answering with a redirect, a page navigating) is no HTTP call: no
  CALLS edge reaches the API route it names;
- the same path served by two apps of the project joins only the app the call's base
  names; a page route of the frontend itself is never a call's target."""

from __future__ import annotations

from textwrap import dedent

from bridgekit import calls_of, extracted, reasons

API_URL = "https://api.shelter.example"
PROJECT = {"shelter": {
    "web": {"role": "frontend"},
    "api": {"role": "api", "envs": {"prod": {"url": API_URL}}},
    "admin": {"role": "api", "envs": {"prod": {"url": "https://admin.shelter.example"}}},
}}  # fmt: skip
EXPRESS = {"package.json": '{"dependencies": {"express": "4.19.0"}}'}


def _express(routes: str) -> str:
    return (
        "const express = require('express');\nconst app = express();\n"
        + dedent(routes)
        + ("app.listen(3000);\n")
    )


def test_commented_and_uncalled_code(tmp_path):
    files = {
        "shelter/web/package.json": '{"dependencies": {"axios": "1.7.0"}}',
        "shelter/web/src/index.ts": "import { load } from './cats';\nload();\n",
        "shelter/web/src/cats.ts": dedent(f"""\
            import axios from 'axios';

            // export const old = () => axios.get('{API_URL}/cats/legacy');
            /* axios.delete('{API_URL}/cats/1'); */
            export const load = () => axios.get('{API_URL}/cats');

            function neverCalled() {{
              return axios.post('{API_URL}/cats');
            }}
            """),
        "shelter/api/package.json": EXPRESS["package.json"],
        "shelter/api/server.js": _express("""\
            app.get('/cats', (req, res) => res.json([]));
            app.post('/cats', (req, res) => res.json({}));
            app.get('/cats/legacy', (req, res) => res.json([]));
            app.delete('/cats/:id', (req, res) => res.json({}));
            """),
    }
    out = extracted(tmp_path, PROJECT, files, "shelter")
    got = {(e["line"], e["dst"].split(":route:")[1]): e["attrs"] for e in calls_of(out)}
    assert sorted(got) == [(5, "GET /cats"), (8, "POST /cats")]  # nothing from the comments
    assert got[(5, "GET /cats")]["confidence"] == "high"
    dead = got[(8, "POST /cats")]
    assert (dead["confidence"], dead.get("dead_code")) == ("low", True)
    assert "neverCalled" in dead["how"]


def test_redirects_are_no_calls(tmp_path):
    files = {
        "shelter/web/package.json": '{"dependencies": {"next": "14.2.0"}}',
        "shelter/web/app/adopt/page.tsx": dedent("""\
            import { redirect } from 'next/navigation';

            export default function Page() {
              redirect('/cats');
            }
            """),
        "shelter/web/app/components/Back.tsx": dedent("""\
            'use client';
            export function Back() {
              return <button onClick={() => { window.location.href = '/cats'; }}>back</button>;
            }
            """),
        "shelter/api/package.json": EXPRESS["package.json"],
        "shelter/api/server.js": _express("""\
            app.get('/old-cats', (req, res) => res.redirect(301, '/cats'));
            app.get('/cats', (req, res) => res.json([]));
            """),
    }
    out = extracted(tmp_path, PROJECT, files, "shelter")
    assert calls_of(out) == []
    assert reasons(out) == {}


def test_same_path_in_two_apps_and_a_page_route(tmp_path):
    files = {
        "shelter/web/package.json": '{"dependencies": {"next": "14.2.0"}}',
        "shelter/web/app/cats/page.tsx": dedent(f"""\
            export default async function Page() {{
              const cats = await fetch('{API_URL}/cats').then((r) => r.json());
              const self = await fetch('/cats');
              return <ul>{{cats.length}}{{self.ok}}</ul>;
            }}
            """),
        "shelter/api/package.json": EXPRESS["package.json"],
        "shelter/api/server.js": _express("app.get('/cats', (req, res) => res.json([]));\n"),
        "shelter/admin/package.json": EXPRESS["package.json"],
        "shelter/admin/server.js": _express("app.get('/cats', (req, res) => res.json([]));\n"),
    }
    out = extracted(tmp_path, PROJECT, files, "shelter")
    [edge] = calls_of(out)
    assert edge["line"] == 2 and edge["dst"] == "shelter/api:route:GET /cats"
    assert reasons(out)["app/cats/page.tsx:3"].startswith("relative URL /cats: web has only")
