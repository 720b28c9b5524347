"""Every model's fixtures (extractors/models/fixtures/<model>/<case>/): the engine extracts
each case and every `expect` comment must hold — and nothing unexpected may appear.

A case is a tiny component in our own words; an expectation sits on the line that produces
it, or, for a file that takes no comments (JSON), in the case's `EXPECT` file as
`FILE:LINE expect …` (extractors/models/README.md, "Fixtures"). Also: every model file
loads, names its documentation, and has at least one fixture case."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from extractors.models import HERE as MODELS
from extractors.models import all_models
from extractors.models.sdks import all_sdks
from extractors.registry import extract_only

FIXTURES = MODELS / "fixtures"
EXPECT = re.compile(r"(?:#|//|<!--)\s*expect\s+(.+?)\s*(?:-->)?\s*$")
SIDE = re.compile(r"^(\S+):(\d+)\s+expect\s+(.+?)\s*$")  # a line of a case's EXPECT file
SIDE_FILE = "EXPECT"
CASES = sorted(p for p in FIXTURES.glob("*/*") if p.is_dir())


@dataclass
class Expectation:
    kind: str  # route | call | env | proxy | sdk | calls (and no-…) | unresolved
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
            if rel == SIDE_FILE:
                side = SIDE.match(text)
                if side is not None:
                    out += _clauses(side.group(3), side.group(1), int(side.group(2)))
                continue
            m = EXPECT.search(text)
            if m is not None:
                out += _clauses(m.group(1), rel, number)
    return out


def _clauses(text: str, rel: str, line: int) -> list[Expectation]:
    out = []
    for clause in re.split(r"\s*;\s*expect\s+", text):  # several on one line
        words = shlex.split(clause, posix=False)
        kind, rest = words[0], words[1:]
        options = dict(w.split("=", 1) for w in rest if _option(w))
        plain = [w for w in rest if not _option(w)]
        out.append(Expectation(kind, rel, line, plain, options))
    return out


OPTIONS = {"handler", "middleware", "hops", "confidence", "via", "strip"}


def _option(word: str) -> bool:
    return "=" in word and word.split("=", 1)[0] in OPTIONS


def facts_of(case: Path):
    facts = extract_only(
        "fx",
        case.name,
        case,
        {
            "engine.routes",
            "engine.requests",
            "engine.env",
            "infra.gateways",
            "js.sdk_calls",
            "js.calls",
            "python.calls",
        },  # fmt: skip
    )
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
    problems += _env_reads(facts, [e for e in wanted if e.kind in ("env", "no-env")])
    problems += _proxies(facts, [e for e in wanted if e.kind == "proxy"])
    problems += _sdk_calls(facts, [e for e in wanted if e.kind in ("sdk", "no-sdk")])
    problems += _function_calls(facts, [e for e in wanted if e.kind in ("calls", "no-calls")])
    for exp in wanted:
        if exp.kind in ("env", "no-env", "proxy", "sdk", "no-sdk", "calls", "no-calls"):
            continue
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


def _env_reads(facts, wanted: list[Expectation]) -> list[str]:
    """`expect env NAME [via=LABEL]`: a READS_ENV edge to variable NAME at this line;
    `expect no-env`: none here."""
    reads = [e for e in facts.edges if e.type == "READS_ENV" and ":env_var:" in e.dst]

    def fits(exp: Expectation, edge) -> bool:
        named = edge.dst.rsplit(":", 1)[1] == (exp.words or [""])[0]
        return named and exp.options.get("via", edge.attrs.get("via")) == edge.attrs.get("via")

    return _at_lines(wanted, reads, lambda e: (e.file, e.line), fits,
                     lambda e: e.dst.rsplit(":", 1)[1], "env read")  # fmt: skip


def _proxies(facts, wanted: list[Expectation]) -> list[str]:
    """`expect proxy SOURCE TARGET [strip=PREFIX]`: a gateway rule written on this line of
    its config file (proxies land on the file's `proxies`, hosting rewrites to a function
    or a service on its `rewrites`, their target that name)."""
    rules = [{**r, "file": n.file, "target": r.get("target") if key == "proxies" else _rewritten_to(r)}
             for n in facts.nodes if n.kind == "code_file"
             for key in ("proxies", "rewrites") for r in n.attrs.get(key) or []]  # fmt: skip

    def fits(exp: Expectation, rule: dict) -> bool:
        source, target = (exp.words + ["", ""])[:2]
        same_strip = exp.options.get("strip", rule.get("strip")) == rule.get("strip")
        return (rule.get("source"), rule.get("target")) == (source, target) and same_strip

    return _at_lines(wanted, rules, lambda r: (r["file"], r.get("line")), fits,
                     lambda r: f"{r.get('source')} -> {r.get('target')}", "proxy")  # fmt: skip


def _at_lines(wanted: list[Expectation], facts: list, at, fits, shown, noun: str) -> list[str]:
    """Expectations against facts of one kind, each at a file:line: an `expect` must match a
    fact at its line, an `expect no-…` wants none there, and a case that expects any fact of
    the kind expects every one of them."""
    problems, claimed = [], set()
    for exp in wanted:
        here = [f for f in facts if at(f) == (exp.file, exp.line)]
        if exp.kind.startswith("no-"):
            problems += [f"unexpected {noun} at {exp.file}:{exp.line}: {shown(f)}" for f in here]
            continue
        match = [f for f in here if fits(exp, f)]
        if not match:
            problems.append(f"missing: {exp} (there: {[shown(f) for f in here] or 'nothing'})")
        claimed.update(id(f) for f in match)
    if any(not exp.kind.startswith("no-") for exp in wanted):
        problems += [f"not expected: {noun} {shown(f)} at {at(f)[0]}:{at(f)[1]}"
                     for f in facts if id(f) not in claimed]  # fmt: skip
    return problems


def _sdk_calls(facts, wanted: list[Expectation]) -> list[str]:
    """`expect sdk NAME`: a call to a managed backend's SDK named NAME (`Firestore getDoc
    beds/{bedId}`: the SDK's label, the function, the path) at this line."""
    calls = [n for n in facts.nodes if n.kind == "sdk_call"]
    return _at_lines(wanted, calls, lambda n: (n.file, n.line),
                     lambda exp, n: n.name == " ".join(exp.words), lambda n: n.name, "sdk call")  # fmt: skip


def _function_calls(facts, wanted: list[Expectation]) -> list[str]:
    """`expect calls NAME`: a CALLS_FN edge at this line to the component's symbol NAME
    (`Bed.water`: its name in its file), as an ORM model's rows and the evaluator give it."""
    calls = [e for e in facts.edges if e.type == "CALLS_FN" and ":symbol:" in e.dst]

    def callee(edge) -> str:
        return edge.dst.rsplit("#", 1)[-1]

    return _at_lines(wanted, calls, lambda e: (e.file, e.line),
                     lambda exp, e: callee(e) == (exp.words or [""])[0], callee, "call of")  # fmt: skip


def _rewritten_to(rule: dict) -> str:
    """The function or Cloud Run service a hosting rewrite sends to."""
    run = rule.get("run")
    return rule.get("function") or (run.get("serviceId") if isinstance(run, dict) else run) or ""


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
        assert model.id in with_fixtures, f"{model.path}: no fixture under fixtures/{model.id}/"
    for sdk in all_sdks():
        assert sdk.docs.startswith("https://"), f"{sdk.path}: `docs:` names the SDK's reference"
        assert sdk.id in with_fixtures, f"{sdk.path}: no fixture under fixtures/{sdk.id}/"


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


def test_the_runner_notices_a_wrong_env_read_or_proxy_rule(tmp_path: Path):
    """An env read named wrongly, one nobody expected, and a proxy rule with another target
    each fail the case; an expectation in the EXPECT file counts like a comment."""
    case = tmp_path / "wrong"
    case.mkdir()
    (case / "env.js").write_text(
        "const a = process.env.KETTLE_HOST  // expect env KETTLE_PORT\n"
        "const b = process.env.KETTLE_MODE\n"
        "const c = process.env.KETTLE_TEAM  // expect env KETTLE_TEAM via=config:nope\n",
        encoding="utf-8",
    )
    (case / "package.json").write_text('{"proxy": "http://localhost:6601"}\n', encoding="utf-8")
    (case / "EXPECT").write_text("package.json:1 expect proxy / http://localhost:9999\n")
    problems = check(case)
    assert any(p.startswith("missing: env.js:1 expect env KETTLE_PORT") for p in problems)
    assert any("not expected: env read KETTLE_MODE at env.js:2" in p for p in problems)
    assert any(p.startswith("missing: env.js:3 expect env KETTLE_TEAM") for p in problems)
    assert any(p.startswith("missing: package.json:1 expect proxy /") for p in problems)
    assert any("not expected: proxy / -> http://localhost:6601" in p for p in problems)


MALFORMED = [
    (  # an SDK model (models/sdk/) whose ref kind is unknown
        "sdk",
        "kvstore.yaml",
        "id: kvstore\ntitle: KV\nlabel: KV\ndocs: https://kv.example/docs\n"
        "modules: [kv]\nfunctions: {get: read}\nrefs: {key: glue}\n",
        "a ref is one of",
    ),
    (  # an ORM model whose class attributes are not {attribute: role}
        "model",
        "rowkit.yaml",
        "id: rowkit\nkind: orm\nlanguage: python\ndocs: https://rowkit.example/docs\n"
        "modules: [rowkit]\nclass_members: {'rowkit#Row': objects}\n",
        "`class_members` maps a base class to",
    ),
    (  # an ORM model whose base classes are a list, not {role: prop}
        "model",
        "rowkit.yaml",
        "id: rowkit\nkind: orm\nlanguage: python\ndocs: https://rowkit.example/docs\n"
        "modules: [rowkit]\nbase_classes: [db.Model]\n",
        "`base_classes` must be a mapping",
    ),
]


@pytest.mark.parametrize(
    "loader,name,text,said", MALFORMED, ids=["sdk", "class-members", "base-classes"]
)
def test_a_malformed_model_is_one_line_naming_the_file_and_the_fix(
    tmp_path: Path, loader: str, name: str, text: str, said: str
):
    from extractors.models.schema import ModelError, load_model
    from extractors.models.sdks import load_sdk

    bad = tmp_path / name
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ModelError) as refused:
        {"sdk": load_sdk, "model": load_model}[loader](bad)
    assert str(refused.value).startswith(f"{bad}: {said}")
    assert "\n" not in str(refused.value)
