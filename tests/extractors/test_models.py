"""Every model's fixtures (extractors/models/fixtures/<model>/<case>/): the engine extracts
each case and every `expect` comment must hold — and nothing unexpected may appear.

A case is a tiny component in our own words; an expectation sits on the line that produces
it (extractors/models/README.md, "Fixtures"). Also: every model file loads, names its
documentation, and has at least one fixture case."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from extractors.models import HERE as MODELS
from extractors.models import all_models
from extractors.registry import extract_only

FIXTURES = MODELS / "fixtures"
EXPECT = re.compile(r"(?:#|//|<!--)\s*expect\s+(.+?)\s*(?:-->)?\s*$")
CASES = sorted(p for p in FIXTURES.glob("*/*") if p.is_dir())


@dataclass
class Expectation:
    kind: str  # route | call | no-route | no-call | unresolved
    file: str
    line: int
    words: list[str] = field(default_factory=list)
    options: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.file}:{self.line} expect {self.kind} {' '.join(self.words)}"


def expectations(case: Path) -> list[Expectation]:
    out = []
    for path in sorted(case.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue  # bytecode a Python run left beside a fixture is not a source
        rel = path.relative_to(case).as_posix()
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            m = EXPECT.search(text)
            if m is None:
                continue
            for clause in re.split(r"\s*;\s*expect\s+", m.group(1)):  # several on one line
                words = shlex.split(clause, posix=False)
                kind, rest = words[0], words[1:]
                options = dict(w.split("=", 1) for w in rest if _option(w))
                plain = [w for w in rest if not _option(w)]
                out.append(Expectation(kind, rel, number, plain, options))
    return out


def _option(word: str) -> bool:
    return "=" in word and word.split("=", 1)[0] in {"handler", "middleware", "hops", "confidence"}


def facts_of(case: Path):
    facts = extract_only("fx", case.name, case, {"engine.routes", "engine.requests"})
    by_id = {n.id: n for n in facts.nodes}
    out_edges: dict[str, list] = {}
    for edge in facts.edges:
        out_edges.setdefault(edge.src, []).append(edge)
    return facts, by_id, out_edges


def check(case: Path) -> list[str]:
    facts, by_id, edges = facts_of(case)
    wanted = expectations(case)
    problems: list[str] = []
    claimed: set[str] = set()
    for exp in wanted:
        kind = {
            "route": "route",
            "no-route": "route",
            "call": "http_call",
            "no-call": "http_call",
        }.get(exp.kind)
        if exp.kind == "unresolved":
            hit = [u for u in facts.unresolved if u.file == exp.file and u.line == exp.line
                   and (not exp.words or u.kind == exp.words[0])]  # fmt: skip
            if not hit:
                problems.append(f"missing: {exp}")
            continue
        here = [
            n for n in facts.nodes if n.kind == kind and n.file == exp.file and n.line == exp.line
        ]
        if exp.kind.startswith("no-"):
            if here:
                problems.append(f"unexpected at {exp.file}:{exp.line}: {[n.name for n in here]}")
            continue
        name = " ".join(exp.words)
        match = [n for n in here if n.name == name]
        if not match:
            problems.append(f"missing: {exp} (there: {[n.name for n in here] or 'nothing'})")
            continue
        node = match[0]
        claimed.add(node.id)
        problems += _options(exp, node, by_id, edges)
    for node in facts.nodes:
        if node.kind in ("route", "http_call") and node.id not in claimed:
            problems.append(f"not expected: {node.kind} {node.name} at {node.file}:{node.line}")
    return problems


def _options(exp: Expectation, node, by_id, edges) -> list[str]:
    problems = []
    out = edges.get(node.id, [])
    if "handler" in exp.options:
        handlers = [by_id[e.dst].name for e in out if e.type == "ROUTES_TO" and e.dst in by_id]
        want = exp.options["handler"]
        if not any(h == want or h.endswith("." + want) for h in handlers):
            problems.append(f"{exp}: handler {handlers}")
    if "middleware" in exp.options:
        chain = sorted(
            (e for e in out if e.type == "USES_MIDDLEWARE"), key=lambda e: e.attrs.get("order", 0)
        )
        names = [by_id[e.dst].name for e in chain if e.dst in by_id]
        want = [w for w in exp.options["middleware"].split(",") if w]
        if names != want:
            problems.append(f"{exp}: middleware {names}")
    if "hops" in exp.options and len(node.attrs.get("hops") or []) != int(exp.options["hops"]):
        problems.append(f"{exp}: hops {node.attrs.get('hops')}")
    if "confidence" in exp.options and node.attrs.get("confidence") != exp.options["confidence"]:
        problems.append(f"{exp}: confidence {node.attrs.get('confidence')}")
    return problems


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_model_fixture(case: Path):
    problems = check(case)
    assert not problems, "\n".join(problems)


def test_every_model_loads_cites_its_docs_and_has_a_fixture():
    with_fixtures = {c.parent.name for c in CASES}
    for model in all_models():
        assert model.docs.startswith("https://"), (
            f"{model.path}: `docs:` names the library's documentation"
        )
        if model.kind in ("server", "client"):
            assert model.id in with_fixtures, f"{model.path}: no fixture under fixtures/{model.id}/"


def test_the_runner_notices_a_wrong_expectation(tmp_path: Path):
    """A case whose comment names another path fails, and a fact nobody expected fails."""
    case = tmp_path / "wrong"
    case.mkdir()
    (case / "app.js").write_text(
        "const express = require('express')\n"
        "const app = express()\n"
        "app.get('/a', (req, res) => res.end())  // expect route GET /b\n"
        "app.post('/c', (req, res) => res.end())\n",
        encoding="utf-8",
    )
    problems = check(case)
    assert any(p.startswith("missing: app.js:3") for p in problems)
    assert any("not expected: route POST /c" in p for p in problems)
