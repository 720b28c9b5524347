"""Re-check every ground-truth fact against the materialized checkouts.

Prints one line per problem and, when there are none, the counts and `ALL OK`.
Run `bash bench/corpus/materialize.sh` first.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPOS = HERE / "repos"
KIND_FIELDS = {
    "route": ["method", "path"],
    "handler": ["route", "name"],
    "middleware": ["route", "chain"],
    "service_call": ["caller", "callee", "callee_def"],
    "http_call": ["method", "url"],
    "calls": ["route", "target_component"],
    "env_read": ["name"],
    "env_declared": ["name"],
    "unresolved": ["reason"],
    "not_http_call": ["reason"],
    "package": ["name", "version"],
    "fact": ["subject", "value"],
}
CLASSES = {"trace", "impact", "negative", "cross_project", "inside", "single_fact"}
MIN_FACTS, MIN_QUESTIONS = 300, 60


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def check_location(where: str, project: str, component: str, loc: dict, lines_of) -> list[str]:
    for key in ("file", "line", "text"):
        if key not in loc:
            return [f"{where}: missing '{key}'"]
    lines = lines_of(project, component, loc["file"])
    if lines is None:
        return [f"{where}: no file {project}/{component}/{loc['file']}"]
    line = loc["line"]
    if not isinstance(line, int) or not 1 <= line <= len(lines):
        return [f"{where}: line {line} outside {loc['file']} ({len(lines)} lines)"]
    if fold(str(loc["text"])) not in fold(lines[line - 1]):
        return [f"{where}: {loc['file']}:{line} does not contain {loc['text']!r}"]
    return []


def main() -> int:
    cache: dict[Path, list[str] | None] = {}

    def lines_of(project: str, component: str, file: str):
        path = REPOS / project / component / file
        if path not in cache:
            cache[path] = path.read_text(errors="replace").splitlines() if path.is_file() else None
        return cache[path]

    problems: list[str] = []
    facts: dict[str, dict] = {}
    questions: list[dict] = []
    files = sorted((HERE / "truth").glob("*.yaml"))
    for truth_file in files:
        doc = yaml.safe_load(truth_file.read_text()) or {}
        for fact in doc.get("facts") or []:
            where = f"{truth_file.name}: fact {fact.get('id', '?')}"
            if fact.get("id") in facts:
                problems.append(f"{where}: duplicate id")
            facts[fact.get("id")] = fact
            kind = fact.get("kind")
            if kind not in KIND_FIELDS:
                problems.append(f"{where}: unknown kind {kind!r}")
                continue
            problems += [f"{where}: missing '{f}'" for f in KIND_FIELDS[kind] if f not in fact]
            project, component = fact.get("project"), fact.get("component")
            problems += check_location(where, project, component, fact, lines_of)
            nested = list(fact.get("chain") or []) + list(fact.get("hops") or [])
            if isinstance(fact.get("callee_def"), dict):
                nested.append(fact["callee_def"])
            for i, loc in enumerate(nested):
                problems += check_location(f"{where} [{i}]", project, component, loc, lines_of)
        for question in doc.get("questions") or []:
            questions.append(question)
            where = f"{truth_file.name}: question {question.get('id', '?')}"
            if question.get("class") not in CLASSES:
                problems.append(f"{where}: unknown class {question.get('class')!r}")
            if not question.get("calls"):
                problems.append(f"{where}: no tool calls")
            if not question.get("expect") and not question.get("expect_negative"):
                problems.append(f"{where}: expects nothing")
    ids = [q.get("id") for q in questions]
    problems += [f"duplicate question id {i}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    # Facts named by questions are checked after every file is read (cross-file references).
    for question in questions:
        for item in question.get("expect") or []:
            if "fact" in item and item["fact"] not in facts:
                problems.append(f"question {question.get('id')}: expects unknown fact {item['fact']}")
    by_kind: dict[str, int] = {}
    for fact in facts.values():
        by_kind[fact.get("kind")] = by_kind.get(fact.get("kind"), 0) + 1
    by_class: dict[str, int] = {}
    for question in questions:
        by_class[question.get("class")] = by_class.get(question.get("class"), 0) + 1
    print(f"{len(files)} truth files, {len(facts)} facts, {len(questions)} questions")
    print("facts by kind: " + ", ".join(f"{k}={v}" for k, v in sorted(by_kind.items())))
    print("questions by class: " + ", ".join(f"{k}={v}" for k, v in sorted(by_class.items())))
    if len(facts) < MIN_FACTS or len(questions) < MIN_QUESTIONS:
        problems.append(f"need at least {MIN_FACTS} facts and {MIN_QUESTIONS} questions")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problems")
        return 1
    print("ALL OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
