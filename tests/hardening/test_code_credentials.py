"""Credentials written in code never reach stored facts: node ids, names, edge ends,
attrs (`url_template`), unresolved expressions — one redaction pass at staging."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from leaks import files_containing

from extractors import extract_component
from tests.support.portfolio import copy_example, git, kb_cli
from warehouse.fact_guard import guard_facts

# Fabricated, built from pieces so no scanner flags this file.
SLACK = "xoxb-" + "2049583712-4820174629103-" + "Qx7Lm2Pz9Rk4Vn8Ws3Yt6Uj1"
BEARER = "eD4kPq9" + "ZmW2xLr7TbN5vYc8" + "HsJ3gFa6UoQi1Ek0"
DB_PASSWORD = "Vx9-" + "ledger-Q4p"
AWS_ID = "AKIA" + "W2X7K9M4N8P3R5T6"
API_KEY = "k3Y9" + "mQ2xL7vN4bR8tZ1w"
NPM = "npm_" + "Hx4Tq8Lm2Wv7Rk9Pz3Nb6Yc1Jd5Fg0Ks8Ua2"
VALUES = [SLACK, BEARER, DB_PASSWORD, AWS_ID, API_KEY, NPM]

CODE = {
    "src/notify.ts": (
        "export async function notify(msg: string) {\n"
        f"  await fetch(`https://slack.com/api/chat.postMessage?token={SLACK}&channel=C1`, {{\n"
        f'    method: "POST", headers: {{ Authorization: "Bearer {BEARER}" }}, body: msg,\n'
        "  });\n}\n"
        f'export const DB = "postgres://app:{DB_PASSWORD}@db.internal:5432/shop";\n'
    ),
    "src/hooks.ts": (
        'import express from "express";\n'
        "export const hooks = express.Router();\n"
        f'hooks.post("/publish/{NPM}", (req, res) => res.sendStatus(204));\n'
    ),
    "tools/report.py": (
        "import requests\n\n"
        f'AWS_KEY_ID = "{AWS_ID}"\n\n'
        "def fetch_items():\n"
        f'    return requests.get("https://api.example.com/v1/items?api_key={API_KEY}")\n'
    ),
}


def _write(root: Path) -> None:
    for rel, text in CODE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def _all_strings(facts) -> str:
    rows = [*facts.nodes, *facts.edges, *facts.unresolved, *facts.catalog, *facts.problems]
    return repr([dataclasses.astuple(r) for r in rows])


def test_extracted_facts_keep_no_credential_and_stay_connected(tmp_path: Path) -> None:
    _write(tmp_path)
    raw = extract_component("p", "c", tmp_path)
    assert any(v in _all_strings(raw) for v in VALUES)  # the extractors did see them
    facts = guard_facts(raw, tmp_path)
    text = _all_strings(facts)
    assert [v for v in VALUES if v in text] == []
    assert "[REDACTED slack-token sha256:" in text
    assert any(n.kind == "route" and "[REDACTED npm-token" in n.name for n in facts.nodes)
    ids = {n.id for n in facts.nodes}
    raw_ids = {n.id for n in raw.nodes}
    dangling = [e for e in facts.edges if e.src not in ids and e.dst not in ids]
    raw_dangling = [e for e in raw.edges if e.src not in raw_ids and e.dst not in raw_ids]
    assert len(dangling) == len(raw_dangling)


@pytest.mark.slow
def test_refresh_stores_no_credential_from_code(tmp_path: Path) -> None:
    kb = copy_example(tmp_path / "portfolio")
    _write(kb.parent / "repos/acme-shop/contact-api")
    git(kb.parent, "add", "-A")
    git(kb.parent, "commit", "-q", "-m", "leaky code")
    built = kb_cli("refresh", "--kb", str(kb), timeout=900)
    assert built.returncode == 0, (built.stdout + built.stderr)[-3000:]
    assert files_containing(kb / ".kb", VALUES) == {}
    answer = kb_cli(
        "sql", "--kb", str(kb), "select id, attrs from nodes where id like '%REDACTED%'"
    )
    assert answer.returncode == 0 and "REDACTED slack-token" in answer.stdout, answer.stdout
    assert not any(v in answer.stdout for v in VALUES)
