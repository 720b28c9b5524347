"""The heuristic tier: a route-like registration on an object no model knows gives a route
that says it is a guess (`confidence: low`), which the coverage row counts; a call a model
reads is never guessed again."""

from __future__ import annotations

from pathlib import Path

from extractors.registry import extract_only

CASE = Path(__file__).resolve().parents[2] / "extractors/models/fixtures/heuristic/unknown-router"


def test_unknown_router_routes_are_low_confidence():
    facts = extract_only("fx", "c", CASE, {"engine.routes"})
    routes = {n.name: n for n in facts.nodes if n.kind == "route"}
    assert set(routes) == {"GET /lockers/:id", "POST /lockers", "GET /shelves/{shelf}"}
    assert all(n.attrs.get("confidence") == "low" for n in routes.values())
    assert all(n.attrs.get("framework") == "heuristic" for n in routes.values())


def test_a_modelled_router_is_not_guessed(tmp_path: Path):
    (tmp_path / "package.json").write_text('{"dependencies": {"express": "4"}}', encoding="utf-8")
    (tmp_path / "app.js").write_text(
        "const express = require('express')\nconst app = express()\n"
        "app.get('/known', (req, res) => res.end())\n",
        encoding="utf-8",
    )
    facts = extract_only("fx", "c", tmp_path, {"engine.routes"})
    routes = [n for n in facts.nodes if n.kind == "route"]
    assert [(n.name, n.attrs.get("framework"), n.attrs.get("confidence")) for n in routes] == [
        ("GET /known", "express", None)
    ]
