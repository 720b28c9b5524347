"""Proxy targets read from the environment: the bridge follows a dev-server proxy whose
target is an env var through that var's values, as it follows a call's env base. Real
repos written by the test, real extraction, real bridge."""

from __future__ import annotations

from textwrap import dedent

from bridgekit import calls_of, extracted

EXPRESS = '{"dependencies": {"express": "4.19.0"}}'


def _express(routes: str) -> str:
    return (
        "const express = require('express');\nconst app = express();\n"
        + routes
        + ("app.listen(3000);\n")
    )


def test_vite_proxy_target_from_load_env_reaches_the_api_its_value_names(tmp_path):
    project = {"shelter": {
        "web": {"role": "frontend"},
        "api": {"role": "api", "envs": {"dev": {"url": "http://localhost:4100"}}},
    }}  # fmt: skip
    files = {
        "shelter/web/package.json": '{"devDependencies": {"vite": "5.0.0"}}',
        "shelter/web/.env.development": "CATS_API=http://localhost:4100\n",
        "shelter/web/vite.config.ts": dedent("""\
            import { defineConfig, loadEnv } from 'vite';

            export default defineConfig(({ mode }) => {
              const env = loadEnv(mode, process.cwd(), '');
              return { server: { proxy: { '/cats': { target: env.CATS_API } } } };
            });
            """),
        "shelter/web/src/main.ts": "export const cats = () => fetch('/cats/7');\n",
        "shelter/api/package.json": EXPRESS,
        "shelter/api/server.js": _express("app.get('/cats/:id', (req, res) => res.json({}));\n"),
    }
    out = extracted(tmp_path, project, files, "shelter")
    [edge] = calls_of(out)
    assert edge["dst"] == "shelter/api:route:GET /cats/:id"
    a = edge["attrs"]
    assert a["resolution"] == "proxy"
    assert a["evidence"][1].startswith("vite.config.ts:5 vite proxy /cats → {CATS_API}")
    assert ".env.development CATS_API=http://localhost:4100" in a["evidence"]


def test_nginx_proxy_to_a_compose_service_built_from_another_repository(tmp_path):
    project = {"shelter": {"web": {"role": "frontend"}, "api": {"role": "api"}}}
    files = {
        "shelter/web/package.json": '{"dependencies": {"react": "18.2.0"}}',
        "shelter/web/docker-compose.yml": dedent("""\
            services:
              front:
                build: .
              kennel-api:
                build:
                  context: ../api
            """),
        "shelter/web/nginx/default.conf": dedent("""\
            server {
              listen 80;
              location /api/ {
                proxy_pass http://kennel-api:3000;
              }
            }
            """),
        "shelter/web/src/main.js": "export const cats = () => fetch('/api/cats');\n",
        "shelter/api/package.json": EXPRESS,
        "shelter/api/server.js": _express("app.get('/api/cats', (req, res) => res.json([]));\n"),
    }
    out = extracted(tmp_path, project, files, "shelter")
    [edge] = calls_of(out)
    assert edge["dst"] == "shelter/api:route:GET /api/cats"
    a = edge["attrs"]
    assert (a["resolution"], a["confidence"]) == ("proxy", "medium")
    assert "docker-compose.yml:5 compose service kennel-api builds api" in a["evidence"]
    assert any(ev.startswith("nginx/default.conf:3 nginx proxy /api/") for ev in a["evidence"])
