"""Accuracy of kb-graph on the real-code development portfolio (bench/corpus/).

    uv run python bench/accuracy.py [--no-build] [--only graph|mcp] [--data-dir DIR]
                                    [--project P] [--out FILE]

1. builds the portfolio KB (bench/corpus/kb) with `kb refresh --all` into bench/work/accuracy;
2. graph recall per metric, from the published Parquet tables alone (bench/accuracy_graph.py);
3. MCP answer recall per question class, through a real MCP client over stdio
   (bench/accuracy_mcp.py), every answer within 2,000 tokens;
4. prints both tables, writes bench/results/accuracy.json (every miss with its fact id) and
   ends with `graph_recall=… answer_recall=… violations=…`.
Ground truth: bench/corpus/truth/*.yaml, written from the source (see its README).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# bench/ holds a file named mcp.py: keep bench/ off the path so `import mcp` finds the SDK
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

CORPUS = ROOT / "bench" / "corpus"
KB = CORPUS / "kb"
REPOS = CORPUS / "repos"
TRUTH = CORPUS / "truth"
DEFAULT_DATA = ROOT / "bench" / "work" / "accuracy"
RESULTS = ROOT / "bench" / "results" / "accuracy.json"
LABELS = {  # metric → table label; indented ones are reported beside, not in graph_recall
    "routes": "routes (full path after mounts)",
    "route_line": "  route line agrees (±1)",
    "handlers": "handlers (ROUTES_TO)",
    "middleware": "middleware chain elements",
    "middleware_chain_exact": "  whole chain exact (order)",
    "service_calls": "service calls (CALLS_FN)",
    "http_calls": "frontend call sites (http_call)",
    "http_url_exact": "  URL template agrees",
    "http_url_path": "  URL path agrees",
    "calls": "CALLS bridges (site → route)",
    "calls_precision": "  CALLS precision (judged)",
    "env_reads": "env var read sites",
    "unresolved": "dynamic calls in unresolved",
}


def load_truth(project: str | None, truth: Path = TRUTH) -> tuple[list[dict], list[dict]]:
    facts, questions = [], []
    for path in sorted(truth.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        facts += [f for f in doc.get("facts") or [] if project in (None, f.get("project"))]
        questions += [q for q in doc.get("questions") or [] if project in (None, q.get("project"))]
    return facts, questions


def portfolio_components() -> dict[str, set[str]]:
    doc = yaml.safe_load((CORPUS / "manifest.yaml").read_text(encoding="utf-8"))
    out: dict[str, set[str]] = {}
    for c in doc.get("components") or []:
        out.setdefault(c["project"], set()).add(c["component"])
    return out


def build(kb: Path, data_dir: Path) -> float:
    t = time.perf_counter()
    kb_exe = str(Path(sys.executable).with_name("kb"))
    cmd = [kb_exe, "refresh", "--all", "--kb", str(kb), "--data-dir", str(data_dir)]
    print("build: " + " ".join(["kb", *cmd[1:]]), flush=True)
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
        print("\n".join(tail))
        raise SystemExit(
            f"bench/accuracy.py: the portfolio KB did not build (exit {done.returncode})"
        )
    return time.perf_counter() - t


def dump(result: dict[str, Any]) -> str:
    """Indented JSON with each miss on one line (thousands of them: diffable, not 5 MB)."""
    compact: list[str] = []

    def fold(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: fold(v) for k, v in node.items()}
        if isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
            compact.extend(json.dumps(x, ensure_ascii=False, default=str) for x in node)
            return [f"\0{i}" for i in range(len(compact) - len(node), len(compact))]
        return node

    text = json.dumps(fold(result), indent=1, ensure_ascii=False, default=str)
    return re.sub(r'"\\u0000(\d+)"', lambda m: compact[int(m.group(1))], text) + "\n"


def pct(hits: int, total: int) -> str:
    return f"{100 * hits / total:5.1f}%" if total else "    —"


def print_metrics(graph: dict[str, Any]) -> None:
    print(
        "\nwarehouse: " + ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in graph["graph"].items())
    )
    print(f"\n{'graph metric':36} {'hits/total':>11} {'recall':>7}")
    for name, label in LABELS.items():
        m = graph["metrics"][name]
        extra = (
            f"  (+{m['unknown']} CALLS edges at call sites not in the truth)"
            if "unknown" in m
            else ""
        )
        if m.get("if_route_found", m["hits"]) > m["hits"]:
            extra = f"  ({m['if_route_found']} if prefix-less routes counted)"
        print(f"{label:36} {m['hits']:>5}/{m['total']:<5} {pct(m['hits'], m['total'])}{extra}")
    for name, rows in graph["violations"].items():
        print(f"{'violations: ' + name:36} {len(rows):>5}")
    projects = sorted(
        {p for n in graph["recall_metrics"] for p in graph["metrics"][n]["by_project"]}
    )
    short = {"service_calls": "svc_calls", "middleware": "mw_elems", "unresolved": "unresolv"}
    cols = [(n, short.get(n, n)) for n in graph["recall_metrics"]]
    print(f"\n{'per project (hits/total)':24}" + "".join(f"{c:>11}" for _, c in cols))
    for p in projects:
        cells = [graph["metrics"][n]["by_project"].get(p, "-") for n, _ in cols]
        print(f"{p:24}" + "".join(f"{c:>11}" for c in cells))
    print("\nmisses by cause (details with fact ids in the JSON):")
    for name in graph["recall_metrics"]:
        causes = graph["metrics"][name]["causes"]
        if causes:
            print(f"  {name:14} " + ", ".join(f"{c} {n}" for c, n in list(causes.items())[:4]))


def print_classes(mcp: dict[str, Any]) -> None:
    print(f"\n{'question class':36} {'pass/total':>11} {'recall':>7}")
    for name, c in mcp["classes"].items():
        print(f"{name:36} {c['passed']:>5}/{c['total']:<5} {pct(c['passed'], c['total'])}")
    for name, rows in mcp["violations"].items():
        print(f"{'violations: ' + name:36} {len(rows):>5}")
    print(f"{'largest answer (tokens, budget 2000)':36} {mcp['answer_tokens_max']:>5}")
    print(f"{'tool errors (not violations)':36} {mcp['tool_errors']:>5}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-build", action="store_true", help="reuse the data dir as built")
    ap.add_argument("--only", choices=["graph", "mcp"], help="score one half only")
    ap.add_argument("--data-dir", type=Path, default=DEFAULT_DATA, help="warehouse folder")
    ap.add_argument("--project", help="score one project's facts and questions only")
    ap.add_argument("--out", type=Path, default=RESULTS, help="result JSON (default %(default)s)")
    ap.add_argument(
        "--show", action="append", default=[], metavar="QID", help="print a question's answers"
    )
    ap.add_argument("--kb", type=Path, default=KB, help="another KB (default: the portfolio's)")
    ap.add_argument("--truth", type=Path, default=TRUTH, help="another truth folder")
    args = ap.parse_args()
    if args.kb == KB and (not REPOS.is_dir() or not any(REPOS.iterdir())):
        print("bench/corpus/repos is missing: run bash bench/corpus/materialize.sh")
        return 1
    facts, questions = load_truth(args.project, args.truth)
    if not facts and not questions:
        print(
            f"no ground truth in {args.truth}/*.yaml"
            + (f" for {args.project}" if args.project else "")
        )
        return 1
    t0 = time.perf_counter()
    timing: dict[str, float] = {}
    if not args.no_build:
        timing["build_s"] = round(build(args.kb, args.data_dir), 1)
    elif not (args.data_dir / "manifest.json").exists():
        print(f"no warehouse at {args.data_dir}: run without --no-build")
        return 1
    result: dict[str, Any] = {
        "command": "uv run python bench/accuracy.py " + " ".join(sys.argv[1:]),
        "truth": {"facts": len(facts), "questions": len(questions), "project": args.project},
    }
    graph_recall = answer_recall = None
    violations = 0
    if args.only != "mcp":
        from bench.accuracy_graph import score_graph

        t = time.perf_counter()
        projects = {args.project} if args.project else None
        graph = score_graph(args.data_dir, facts, projects)
        timing["graph_s"] = round(time.perf_counter() - t, 1)
        print_metrics(graph)
        ms = [graph["metrics"][n] for n in graph["recall_metrics"]]
        total = sum(m["total"] for m in ms)
        graph_recall = sum(m["hits"] for m in ms) / total if total else None
        violations += sum(len(v) for v in graph["violations"].values())
        result |= graph
    if args.only != "graph":
        from bench.accuracy_mcp import score_mcp

        t = time.perf_counter()
        by_id = {f["id"]: f for f in load_truth(None, args.truth)[0]}  # cross-file references
        mcp = score_mcp(
            args.kb, args.data_dir, questions, by_id, portfolio_components(), set(args.show)
        )
        timing["mcp_s"] = round(time.perf_counter() - t, 1)
        print_classes(mcp)
        passed = sum(c["passed"] for c in mcp["classes"].values())
        answer_recall = passed / len(questions) if questions else None
        violations += sum(len(v) for v in mcp["violations"].values())
        result |= {k: v for k, v in mcp.items() if k != "violations"}
        result.setdefault("violations", {}).update(mcp["violations"])
    timing["total_s"] = round(time.perf_counter() - t0, 1)
    fmt = lambda x: "n/a" if x is None else f"{x:.3f}"  # noqa: E731
    last = f"graph_recall={fmt(graph_recall)} answer_recall={fmt(answer_recall)} violations={violations}"
    result |= {"timing": timing, "summary": last}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(dump(result), encoding="utf-8")
    print(
        f"\n{timing} · wrote {args.out.resolve().relative_to(ROOT) if args.out.resolve().is_relative_to(ROOT) else args.out}"
    )
    print(last)
    return 0


if __name__ == "__main__":
    sys.exit(main())
