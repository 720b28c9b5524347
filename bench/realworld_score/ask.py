"""Ask every question through one `kb mcp` server over stdio (the official MCP SDK client)
and judge the answers: per kind, per project and per framework, with every miss."""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

from bench.realworld_score.answers import Question, judge, plan, tokens
from bench.realworld_score.truth import Benchmark

KINDS = ("trace_down", "trace_up", "negatives")


async def _ask_all(kb: Path, data_dir: Path | None, calls: list[dict]) -> dict[str, dict]:
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    kb_exe = str(Path(sys.executable).with_name("kb"))
    args = ["mcp", "--kb", str(kb)] + (["--data-dir", str(data_dir)] if data_dir else [])
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    params = StdioServerParameters(command=kb_exe, args=args, env=env)
    out: dict[str, dict] = {}
    async with (
        stdio_client(params, errlog=sys.stderr) as (read, write),
        ClientSession(read, write) as session,
    ):
        with anyio.fail_after(120):
            await session.initialize()
        for call in calls:
            key = json.dumps(call, sort_keys=True)
            if key not in out:
                out[key] = await _ask_one(session, call)
    return out


async def _ask_one(session, call: dict) -> dict:
    import anyio

    try:
        with anyio.fail_after(60):
            res = await session.call_tool("kb_trace", call)
    except Exception as exc:  # noqa: BLE001 - one failed call is a miss, not the end of the run
        return {"text": "", "error": True, "failure": f"{type(exc).__name__}: {exc}"}
    text = "\n".join(getattr(b, "text", "") or "" for b in res.content or [])
    return {"text": text, "error": bool(res.is_error)}


def ask_and_judge(
    bench: Benchmark, kb: Path, data_dir: Path | None = None, budget: int = 2000
) -> dict:
    import anyio

    questions = plan(bench)
    t0 = time.perf_counter()
    answers = anyio.run(_ask_all, kb, data_dir, [q.args for q in questions])
    seconds = time.perf_counter() - t0
    return summarize(questions, answers, budget, seconds)


def summarize(
    questions: list[Question], answers: dict[str, dict], budget: int, seconds: float = 0.0
) -> dict:
    def blank() -> dict[str, list[int]]:
        return {k: [0, 0] for k in KINDS}

    totals, resolved = blank(), blank()
    by: dict[str, dict[str, dict[str, list[int]]]] = {
        "project": defaultdict(blank),
        "web_framework": defaultdict(blank),
        "api_framework": defaultdict(blank),
    }
    misses = []
    for q in questions:
        ans = answers.get(json.dumps(q.args, sort_keys=True)) or {"text": "", "error": True}
        ok, why = judge(q, ans["text"])
        first = (ans["text"].splitlines() or [""])[0]
        start_hit = first.startswith("http_call " if q.kind == "trace_down" else "route ")
        for counts in (
            totals,
            by["project"][q.project],
            by["web_framework"][q.web_framework],
            by["api_framework"][q.api_framework],
        ):
            counts[q.kind][0] += ok
            counts[q.kind][1] += 1
        resolved[q.kind][0] += start_hit
        resolved[q.kind][1] += 1
        if not ok:
            misses.append(
                {
                    "kind": q.kind,
                    "project": q.project,
                    "endpoint": q.endpoint,
                    "start": q.start,
                    "expected": q.expected,
                    "why": why + (" (tool error)" if ans.get("error") else ""),
                    "answer": ans["text"][:600],
                }
            )
    sizes = [tokens(a["text"]) for a in answers.values()]
    return {
        "totals": totals,
        "starts_resolved": resolved,
        "calls": len(answers),
        "ask_seconds": round(seconds, 1),
        "max_tokens": max(sizes, default=0),
        "over_budget": sum(s > budget for s in sizes),
        **{f"by_{k}": dict(sorted(v.items())) for k, v in by.items()},
        "misses": misses,
    }
