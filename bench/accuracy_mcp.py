"""MCP answer recall of the development portfolio, through a real MCP client over stdio.

One server process (`python -m mcp_server --kb ... --data-dir ...`, launched by the SDK's
`stdio_client`) answers every question's tool calls in order; a question passes when
each expected item appears in the concatenated answers (a fact as its `file:line`, a text
as a case-insensitive, whitespace-folded substring). Budget overruns and answers
that name another project's component are counted as violations.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from kb.tokens import estimate_tokens

ROOT = Path(__file__).resolve().parents[1]
BUDGET = 2000
CALL_TIMEOUT_S = 60.0
# What counts as a plain "no" in an answer to a negative question.
NEGATIVE_PHRASES = [
    "no path",
    "no edge",
    "no —",
    "not found",
    "no route",
    "no such",
    "no match",
    "no caller",
    "no reader",
    "no http call",
    "0 rows",
    "does not reach",
    "not reachable",
    "unknown name",  # the server's one-line "unknown name 'X' … nearest: …" for a node that
    "unknown node",  # does not exist: a plain no to "is there a route X?"
    "unknown start node",
    "unknown to node",
    "unknown target",
]


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def fact_locations(fact: dict) -> list[tuple[str, int]]:
    """Where an answer may show a fact: its own `file:line`. The same tolerances as the graph
    metrics: a handler ±1 line (decorators); a service call also at its callee's definition,
    which is what a CALLS_FN hop renders (the contract's kb_trace example); a route's
    middleware chain also at the usage line of each element written in the route's own file
    (a decorator under the route line is where that route gets it)."""
    out = [(fact["file"], fact["line"])]
    if fact.get("kind") == "middleware":  # the route-level elements: where the route gets them
        out += [
            (m["file"], m["line"])
            for m in fact.get("chain") or []
            if isinstance(m, dict) and m.get("file") == fact["file"] and m.get("line")
        ]
    if fact.get("kind") == "handler":
        out += [(fact["file"], fact["line"] - 1), (fact["file"], fact["line"] + 1)]
    if fact.get("kind") == "service_call" and isinstance(fact.get("callee_def"), dict):
        d = fact["callee_def"]
        out += [(d["file"], d["line"] + k) for k in (0, -1, 1)]
    return out


def fact_in(file: str, line: int, text: str) -> bool:
    """`file:line` as a whole location, or as adjacent `file | line` cells of a kb_sql row."""
    f, n = re.escape(fold(file)), re.escape(str(line))
    return re.search(rf"(?<![\w/.-]){f}(:| \| ){n}(?!\d)", text) is not None


def leaks(answer: str, project: str, components: dict[str, set[str]]) -> list[str]:
    """`other-project/component` names (as code locations or node ids, not KB doc paths)."""
    found = []
    for other, comps in components.items():
        if other == project:
            continue
        for comp in comps:
            pat = rf"(?<![\w/.-]){re.escape(other)}/{re.escape(comp)}(?![\w-])"
            if re.search(pat, answer):
                found.append(f"{other}/{comp}")
    return found


def judge(
    q: dict, answer: str, facts: dict[str, dict], components: dict[str, set[str]]
) -> dict[str, Any]:
    text = fold(answer)
    missing = []
    for item in q.get("expect") or []:
        if "fact" in item:
            fact = facts.get(item["fact"])
            if fact is None or not any(fact_in(f, n, text) for f, n in fact_locations(fact)):
                missing.append(item["fact"])
        elif fold(str(item.get("text", ""))) not in text:
            missing.append(str(item.get("text")))
    if q.get("expect_negative") and not any(
        re.search(rf"(?<!\w){re.escape(p)}", text)
        for p in NEGATIVE_PHRASES  # not "20 rows"
    ):
        missing.append("a plain negative (" + " | ".join(NEGATIVE_PHRASES[:4]) + " …)")
    present = [s for s in q.get("expect_absent") or [] if fold(str(s)) in text]
    leaked = [] if q.get("project") in (None, "*") else leaks(answer, q["project"], components)
    return {
        "ok": not missing and not present,
        "missing": missing,
        "present": present,
        "leaks": leaked,
    }


async def _ask_all(kb: Path, data_dir: Path, questions: list[dict]) -> list[list[dict]]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_server", "--kb", str(kb), "--data-dir", str(data_dir)],
        cwd=str(ROOT),
    )
    out: list[list[dict]] = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for q in questions:
            answers = []
            for call in q.get("calls") or []:
                tool, args = call.get("tool"), dict(call.get("args") or {})
                try:
                    res = await asyncio.wait_for(session.call_tool(tool, args), CALL_TIMEOUT_S)
                    text = "\n".join(
                        c.text for c in res.content if getattr(c, "type", "") == "text"
                    )
                    answers.append(
                        {
                            "tool": tool,
                            "text": text,
                            "error": bool(
                                getattr(res, "is_error", None) or getattr(res, "isError", False)
                            ),
                        }
                    )
                except Exception as exc:  # noqa: BLE001 — one failed call fails its question only
                    answers.append({"tool": tool, "text": "", "error": True, "exc": repr(exc)})
            out.append(answers)
    return out


def score_mcp(
    kb: Path,
    data_dir: Path,
    questions: list[dict],
    facts: dict[str, dict],
    components: dict[str, set[str]],
    show: set[str] = frozenset(),
) -> dict[str, Any]:
    """Per-class pass counts, every failed question with what was missing, violations.
    `show`: question ids whose calls and answers are printed (for whoever fixes a miss)."""
    answers = asyncio.run(_ask_all(kb, data_dir, questions))
    classes: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"passed": 0, "total": 0, "misses": []}
    )
    over_budget, leaked, errors, tokens = [], [], 0, []
    for q, calls in zip(questions, answers, strict=True):
        answer = "\n".join(a["text"] for a in calls)
        verdict = judge(q, answer, facts, components)
        if q["id"] in show:
            for call, a in zip(q.get("calls") or [], calls, strict=False):
                print(f"--- {q['id']}: {call.get('tool')} {call.get('args')}\n{a['text']}")
            print(f"--- {q['id']}: {'PASS' if verdict['ok'] else 'FAIL'} {verdict}")
        c = classes[q.get("class", "?")]
        c["total"] += 1
        c["passed"] += verdict["ok"]
        errors += sum(a["error"] for a in calls)
        for a in calls:
            t = estimate_tokens(a["text"])
            tokens.append(t)
            if t > BUDGET:
                over_budget.append({"fact": q["id"], "why": f"{a['tool']} answer {t} tokens"})
        if verdict["leaks"]:
            leaked.append({"fact": q["id"], "why": "names " + ", ".join(verdict["leaks"])})
        if not verdict["ok"]:
            c["misses"].append(
                {
                    "question": q["id"],
                    "missing": verdict["missing"],
                    "present_but_absent_expected": verdict["present"],
                    "errors": [a["text"][:200] for a in calls if a["error"]],
                }
            )
    for c in classes.values():
        c["recall"] = round(c["passed"] / c["total"], 4) if c["total"] else None
    return {
        "classes": dict(sorted(classes.items())),
        "tool_errors": errors,
        "answer_tokens_max": max(tokens, default=0),
        "violations": {"over_budget": over_budget, "leaks": leaked},
    }
