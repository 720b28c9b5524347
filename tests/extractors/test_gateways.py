"""Dev-server proxies and rewrites a frontend's own config declares (the gateway models):
each rule lands on its config file's `proxies`, with the line it is written on, so the
bridge can send the frontend's relative URLs where the dev server or the host sends them."""

from __future__ import annotations

import json

from jsrepo import extract


def _rules(facts, rel: str) -> list[dict]:
    return facts.kind("code_file")[rel].attrs.get("proxies", [])


def test_vite_proxy_beside_a_define_table_in_one_config(tmp_path):
    """One `defineConfig` read by two models: its `define` table (bundler defines) and its
    `server.proxy` (the dev server) — neither hides the other."""
    facts = extract(tmp_path, {
        "package.json": json.dumps({"dependencies": {"vite": "^5.0.0"}}),
        "vite.config.ts": """
            import { defineConfig } from 'vite';

            export default defineConfig({
              define: { __GREENHOUSE__: JSON.stringify('https://greenhouse.example.test') },
              server: {
                proxy: {
                  '/seeds': 'http://localhost:4100',
                  '/pots': { target: 'http://localhost:4200', rewrite: (p) => p.replace(/^\\/pots/, '') },
                },
              },
            });
            """,
        "src/plants.ts": """
            export const listPlants = () => fetch(__GREENHOUSE__ + '/plants');
            export const listSeeds = () => fetch('/seeds/all');
            """,
    })  # fmt: skip
    rules = {r["source"]: r for r in _rules(facts, "vite.config.ts")}
    assert rules["/seeds"]["target"] == "http://localhost:4100" and rules["/seeds"]["line"] == 7
    assert rules["/pots"]["target"] == "http://localhost:4200"
    assert rules["/pots"]["strip"] == "/pots"
    assert "GET https://greenhouse.example.test/plants" in facts.kind("http_call")


def test_create_react_app_proxy_sends_every_path(tmp_path):
    facts = extract(tmp_path, {
        "package.json": json.dumps(
            {"dependencies": {"react-scripts": "5.0.1"}, "proxy": "http://localhost:5050"},
            indent=2,
        ),
        "src/index.js": "fetch('/api/kettles');\n",
    })  # fmt: skip
    [rule] = _rules(facts, "package.json")
    assert (rule["source"], rule["target"], rule["role"]) == ("/", "http://localhost:5050", "proxy")


def test_webpack_dev_server_proxy_with_a_path_rewrite(tmp_path):
    facts = extract(tmp_path, {
        "package.json": json.dumps({"devDependencies": {"webpack-dev-server": "^4.0.0"}}),
        "webpack.config.js": """
            module.exports = {
              devServer: {
                proxy: {
                  '/backend': { target: 'http://localhost:6060', pathRewrite: { '^/backend': '' } },
                },
              },
            };
            """,
    })  # fmt: skip
    [rule] = _rules(facts, "webpack.config.js")
    assert (rule["source"], rule["target"], rule["strip"]) == (
        "/backend",
        "http://localhost:6060",
        "/backend",
    )


def test_next_rewrites_and_base_path(tmp_path):
    facts = extract(tmp_path, {
        "package.json": json.dumps({"dependencies": {"next": "14.1.0"}}),
        "next.config.js": """
            module.exports = {
              basePath: '/shop',
              async rewrites() {
                return [{ source: '/api/:path*', destination: 'http://localhost:7070/:path*' }];
              },
            };
            """,
    })  # fmt: skip
    [rule] = _rules(facts, "next.config.js")
    assert rule["role"] == "rewrite" and rule["target"].startswith("http://localhost:7070")
    assert rule["source"].endswith("/api/:path*")


def test_nginx_location_proxy_pass(tmp_path):
    facts = extract(tmp_path, {
        "nginx/default.conf": """
            server {
              listen 80;
              location /api/ {
                proxy_pass http://orders:8000/;
              }
            }
            """,
        "src/main.js": "fetch('/api/orders');\n",
    })  # fmt: skip
    [rule] = _rules(facts, "nginx/default.conf")
    assert (rule["source"], rule["target"]) == ("/api/", "http://orders:8000/")


def test_webpack_dev_server_proxy_in_its_list_form(tmp_path):
    facts = extract(tmp_path, {
        "package.json": json.dumps({"devDependencies": {"webpack-dev-server": "^5.0.0"}}),
        "webpack.config.js": """
            module.exports = {
              devServer: {
                proxy: [
                  { context: ['/kettles', '/teapots'], target: 'http://localhost:7070' },
                  { context: '/cups', target: 'http://localhost:7171', pathRewrite: { '^/cups': '' } },
                ],
              },
            };
            """,
    })  # fmt: skip
    got = {r["source"]: (r["target"], r.get("strip")) for r in _rules(facts, "webpack.config.js")}
    assert got == {
        "/kettles": ("http://localhost:7070", None),
        "/teapots": ("http://localhost:7070", None),
        "/cups": ("http://localhost:7171", "/cups"),
    }


def test_vite_config_function_with_a_target_from_load_env(tmp_path):
    facts = extract(tmp_path, {
        "package.json": json.dumps({"devDependencies": {"vite": "^5.0.0"}}),
        "vite.config.ts": """
            import { defineConfig, loadEnv } from 'vite';

            export default defineConfig(({ mode }) => {
              const env = loadEnv(mode, process.cwd(), '');
              return {
                server: {
                  proxy: {
                    '/greenhouse': { target: env.GREENHOUSE_URL, changeOrigin: true },
                    '/sheds': 'http://localhost:4300',
                  },
                },
              };
            });
            """,
    })  # fmt: skip
    rules = {r["source"]: r for r in _rules(facts, "vite.config.ts")}
    assert rules["/sheds"]["target"] == "http://localhost:4300"
    env = rules["/greenhouse"]
    assert (env["target"], env["env_var"], env["line"]) == ("{GREENHOUSE_URL}", "GREENHOUSE_URL", 8)
