"""A monorepo — one repository, a component per folder, plus a component on the repo root
for its compose file, `.env` and CI config — is counted once: every file belongs to the
component whose folder is nearest, so routes, calls and settings are not doubled. Two
components on the very same folder are a validation error with the fix
(docs/monorepos.md)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.checks import output
from tests.support.portfolio import build, git, kb_cli

COMPONENT = """---
kind: component
project: shop
id: {id}
title: {title}
role: {role}
repo: {repo}
{extra}---
# {title}
"""

FILES = {
    "compose.yaml": """services:
  web:
    image: shop-web:latest
    environment:
      VITE_API_URL: http://localhost:3000
  api:
    image: shop-api:latest
    ports: ["3000:3000"]
    environment:
      - PORT=3000
""",
    ".env": "LOG_LEVEL=info\n",
    ".github/workflows/ci.yml": "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
    "    steps:\n      - run: npm test\n",
    "api/package.json": '{"name": "api", "dependencies": {"express": "^4.19.0"}}\n',
    "api/src/server.js": """const express = require('express');
const app = express();
app.get('/api/orders', function listOrders(req, res) { res.json([]); });
app.post('/api/orders', function placeOrder(req, res) { res.status(201).end(); });
app.listen(process.env.PORT || 3000);
""",
    "web/package.json": '{"name": "web", "dependencies": {"react": "^18.3.0"}}\n',
    "web/src/orders.js": """const base = import.meta.env.VITE_API_URL;
export function loadOrders() {
  return fetch(`${base}/api/orders`).then((r) => r.json());
}
""",
}


def _portfolio(root: Path, components: list[tuple[str, str, str, str]]) -> Path:
    kb = root / "kb"
    (kb / "projects" / "shop").mkdir(parents=True)
    (kb / "kb.yaml").write_text("name: shop-portfolio\nrepos_root: ../repos\n", "utf-8")
    (kb / "projects/shop/project.md").write_text(
        "---\nkind: project\nid: shop\ntitle: Shop\n---\n# Shop\n", "utf-8"
    )
    _components(kb, components)
    for rel, text in FILES.items():
        path = root / "repos" / "shop" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "shop")
    return kb


def _components(kb: Path, components: list[tuple[str, str, str, str]]) -> None:
    for cid, role, repo, extra in components:
        folder = kb / "projects" / "shop" / cid
        folder.mkdir(exist_ok=True)
        text = COMPONENT.format(id=cid, title=cid.title(), role=role, repo=repo, extra=extra)
        (folder / "component.md").write_text(text, "utf-8")


ROOT_ONLY = [("stack", "infra", "shop", "")]
BY_FOLDER = [
    ("web", "frontend", "shop/web", "calls:\n  - {env_var: VITE_API_URL, component: api}\n"),
    ("api", "api", "shop/api", ""),
]


def _rows(kb: Path, sql: str) -> list[dict]:
    result = kb_cli("sql", "--kb", str(kb), "--json", sql)
    assert result.returncode == 0, output(result)
    return json.loads(result.stdout)


def _owners(kb: Path, kind: str) -> dict[str, int]:
    rows = _rows(kb, f"select component, count(*) as n from nodes where kind = '{kind}' group by 1")
    return {r["component"]: r["n"] for r in rows}


def test_a_root_component_and_folder_components_count_every_file_once(tmp_path: Path) -> None:
    kb = _portfolio(tmp_path / "p", ROOT_ONLY)
    build(kb)
    assert _owners(kb, "route") == {"stack": 2}  # alone, the root component reads everything

    _components(kb, BY_FOLDER)  # the layout of docs/monorepos.md: the root plus its folders
    git(kb.parent, "add", "-A")
    git(kb.parent, "commit", "-q", "-m", "a component per folder")
    validated = kb_cli("validate", "--kb", str(kb))
    assert validated.returncode == 0, output(validated)
    build(kb)

    assert _owners(kb, "route") == {"api": 2}
    assert _owners(kb, "http_call") == {"web": 1}
    compose = _rows(
        kb, "select distinct component, file from nodes where file in ('compose.yaml', '.env')"
    )
    assert compose and {r["component"] for r in compose} == {"stack"}
    files = _rows(kb, "select component, name from nodes where kind = 'code_file'")
    assert not [
        f for f in files if f["component"] == "stack" and f["name"].startswith(("api/", "web/"))
    ]
    calls = _rows(
        kb,
        "select e.src, e.dst from edges e join nodes d on d.id = e.dst "
        "where e.type = 'CALLS' and d.kind = 'route'",
    )
    assert len(calls) == 1 and calls[0]["dst"].endswith("GET /api/orders"), calls


def test_two_components_on_one_folder_is_an_error_with_the_fix(tmp_path: Path) -> None:
    kb = _portfolio(tmp_path / "p", [*ROOT_ONLY, ("platform", "infra", "shop", "")])
    result = kb_cli("validate", "--kb", str(kb))
    assert result.returncode == 1
    line = next(x for x in result.stdout.splitlines() if "[repo-shared]" in x)
    assert line.startswith(
        "projects/shop/stack/component.md:7: error: repo 'shop' is also the folder of shop/platform"
    )
    assert "docs/monorepos.md" in line and "doubling every route" in line
