"""The hypothesis fuzz suite, run long: frontmatter, KB file trees, kb_sql inputs,
secret mixes, and MCP tool arguments over stdio. Counts outcomes instead of stopping
at the first failure. Writes bench/results/fuzz.json.

    uv run python bench/fuzz.py [--scale 1.0]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# bench/mcp.py would shadow the `mcp` SDK: drop this script's folder from the path
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests/hardening")]

from fuzz_props import PROPERTIES, Broken  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kb.tokens import estimate_tokens  # noqa: E402

RESULTS = ROOT / "bench" / "results"


def run(strategy, check, examples: int) -> dict:
    counts: Counter[str] = Counter()
    first: dict[str, str] = {}

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def prop(case) -> None:
        try:
            counts[check(case)] += 1
        except Broken as exc:
            counts[exc.kind] += 1
            first.setdefault(exc.kind, str(exc)[:200])

    started = time.perf_counter()
    prop()
    return {
        "cases": sum(counts.values()),
        "outcomes": dict(sorted(counts.items())),
        "crashes": counts["crash"],
        "unlocated": counts["unlocated"],
        "slow": counts["slow"],
        "leaks": counts["leak"],
        "first_failures": first,
        "seconds": round(time.perf_counter() - started, 1),
    }


_TOOLS = {
    "kb_trace": ["start", "project", "component", "direction", "to", "max_depth", "budget"],
    "kb_impact": ["target", "project", "component", "budget"],
    "kb_neighbors": ["node", "project", "component", "edge_types", "direction", "budget"],
    "kb_find": ["kind", "query", "project", "budget"],
    "kb_compare": ["kind", "name", "project", "budget"],
    "kb_entity": ["name", "project", "component", "budget"],
    "kb_sql": ["sql", "project", "budget"],
    "kb_status": ["project", "budget"],
}
_ARG = st.one_of(
    st.sampled_from(["acme-shop", "globex-portal", "*", "api", "web", "ContactForm", "package"]),
    st.text(max_size=40),
    st.text(min_size=1, max_size=1).map(lambda c: c * 60_000),
    st.integers(-(10**9), 10**9),
    st.booleans(),
    st.none(),
    st.lists(st.text(max_size=10), max_size=5),
)


@st.composite
def tool_call(draw):
    tool = draw(st.sampled_from(sorted(_TOOLS)))
    names = draw(st.lists(st.sampled_from(_TOOLS[tool]), unique=True, max_size=4))
    args = {name: draw(_ARG) for name in names}
    required = {"kb_trace": "start", "kb_impact": "target", "kb_neighbors": "node",
                "kb_find": "kind", "kb_compare": "kind", "kb_entity": "name", "kb_sql": "sql"}  # fmt: skip
    if tool in required and required[tool] not in args and draw(st.booleans()):
        args[required[tool]] = draw(_ARG)
    if tool == "kb_compare" and "name" not in args:
        args["name"] = "express"
    return tool, args


def mcp_fuzz(examples: int) -> dict:
    from mcp_fixtures import StdioClient, mcp_synthetic

    tmp = Path(tempfile.mkdtemp(prefix="kb-fuzz-"))
    synth = mcp_synthetic.build(tmp)
    client = StdioClient(synth["kb"], synth["data"])
    default_budget = 1200  # the synthetic KB's token_budget

    def check(call) -> str:
        tool, args = call
        try:
            text, err = client.call(tool, **args)
        except Exception as exc:  # noqa: BLE001
            raise Broken("crash", f"{tool}: {type(exc).__name__}: {str(exc)[:100]}") from None
        budget = args.get("budget")
        limit = (
            budget if isinstance(budget, int) and not isinstance(budget, bool) else default_budget
        )
        limit = max(150, min(limit, 50_000))
        if err and ("internal error" in text or "\n" in text):
            raise Broken("crash", f"{tool}: {text[:120]!r}")
        if estimate_tokens(text) > limit:
            raise Broken("over_budget", f"{tool}: {estimate_tokens(text)} tokens > {limit}")
        return "error" if err else "answer"

    try:
        result = run(tool_call(), check, examples)
    finally:
        client.close()
    result["over_budget"] = result["outcomes"].get("over_budget", 0)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every case count")
    args = parser.parse_args()

    def n(base: int) -> int:
        return max(1, int(base * args.scale))

    with tempfile.TemporaryDirectory() as tmp:
        results = {p.name: run(p.cases, p.check_in(Path(tmp)), n(p.long)) for p in PROPERTIES}
        results["mcp_arguments"] = mcp_fuzz(n(400))
    keys = ("cases", "crashes", "unlocated", "slow", "leaks")
    total = {k: sum(r.get(k, 0) for r in results.values()) for k in keys}
    total["over_budget"] = results["mcp_arguments"]["over_budget"]
    out = {"total": total, "properties": results}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "fuzz.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(total))


if __name__ == "__main__":
    main()
