"""The RealWorld matrix: 12 projects (one Conduit frontend + one Conduit backend each, 24
repositories, every style and framework a different author's) with verified truth.

    uv run python bench/realworld.py [--bench DIR] [--no-build] [--no-answers]
                                     [--cross-check] [-v] [--out FILE]

1. materializes the pinned repositories from the fetched mirrors into `.realworld/repos/`
   (once; `--materialize` again), checks the truth against them, writes the KB
   `.realworld/kb/A` — all with the benchmark folder's own scripts;
2. builds it with `kb refresh`;
3. scores the graph from `kb sql --json` rows (bench/realworld_score/graph.py) and the
   answers through a real MCP client over stdio (bench/realworld_score/ask.py);
4. prints per project and per framework, writes bench/results/realworld.json, and ends with
   `realworld: routes=… calls=… bridges=… precision=… leaks=… trace_down=… trace_up=…`.
`--cross-check` also runs the benchmark's own score.py / answers.py on the same build and
says whether their last lines agree with ours.
The benchmark folder: --bench, else $KB_REALWORLD, else ../shared/realworld beside the checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.realworld_score.graph import score_graph  # noqa: E402
from bench.realworld_score.report import render, summary_line  # noqa: E402
from bench.realworld_score.truth import load_benchmark  # noqa: E402
from bench.realworld_score.warehouse import build, published_rows  # noqa: E402

WORK = ROOT / ".realworld"
RESULTS = ROOT / "bench" / "results" / "realworld.json"


def bench_folder(given: str | None) -> Path:
    folder = Path(given or os.environ.get("KB_REALWORLD") or ROOT.parent / "shared" / "realworld")
    if not (folder / "repos.yaml").is_file():
        raise SystemExit(f"{folder}: no RealWorld benchmark here (repos.yaml) — pass --bench DIR")
    return folder.resolve()


def run(cmd: list[str], what: str, **kw) -> str:
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-12:])
        raise SystemExit(f"bench/realworld.py: {what} failed (exit {done.returncode}):\n{tail}")
    return done.stdout


def prepare(folder: Path, materialize: bool) -> Path:
    repos = WORK / "repos"
    if materialize or not repos.is_dir() or not any(repos.iterdir()):
        print("materializing the RealWorld repositories from the mirrors …", flush=True)
        run(
            ["bash", str(folder / "materialize.sh"), str(repos)],
            "materialize.sh (fetch the mirrors first)",
        )
    run([sys.executable, str(folder / "verify_truth.py")], "verify_truth.py")
    run(
        [
            sys.executable,
            str(folder / "make_kb.py"),
            "--out",
            str(WORK / "kb"),
            "--repos-root",
            str(repos),
        ],
        "make_kb.py",
    )
    return WORK / "kb" / "A"


def cross_check(folder: Path, ours: str, answers: bool) -> list[str]:
    """The benchmark's own scorers on the same build: do their last lines agree with ours?"""
    env = dict(os.environ, KB_GRAPH=str(ROOT))
    theirs = run([sys.executable, str(folder / "score.py"), "--no-build"], "score.py", env=env)
    said = [theirs.strip().splitlines()[-1]]
    if answers:
        out = run([sys.executable, str(folder / "answers.py"), "--no-build"], "answers.py", env=env)
        said.append(out.strip().splitlines()[-1])
    mine = dict(kv.split("=", 1) for kv in ours.split()[1:])
    verdicts = []
    for line in said:
        pairs = dict(kv.split("=", 1) for kv in line.split() if "=" in kv)
        differ = {k: (v, mine.get(k)) for k, v in pairs.items() if mine.get(k) != v}
        verdicts.append(f"{line}  ->  " + ("agrees" if not differ else f"DIFFERS {differ}"))
    return verdicts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", help="the benchmark folder (repos.yaml, truth/, scripts)")
    ap.add_argument("--materialize", action="store_true", help="recreate .realworld/repos")
    ap.add_argument("--no-build", action="store_true", help="score the last build")
    ap.add_argument("--no-answers", action="store_true", help="graph score only")
    ap.add_argument("--cross-check", action="store_true", help="also run the benchmark's scorers")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every miss")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args()
    folder = bench_folder(args.bench)
    t0 = time.perf_counter()
    kb = prepare(folder, args.materialize)
    timing = {} if args.no_build else {"build_s": round(build(kb), 1)}
    bench = load_benchmark(folder)
    graph = score_graph(bench, published_rows(kb))
    answers = None
    if not args.no_answers:
        from bench.realworld_score.ask import ask_and_judge

        answers = ask_and_judge(bench, kb)
        timing["answers_s"] = answers["ask_seconds"]
    timing["total_s"] = round(time.perf_counter() - t0, 1)
    print(render(graph, answers))
    last = summary_line(graph, answers)
    if args.verbose:
        for kind, misses in graph["misses"].items():
            print(f"-- {kind} misses ({len(misses)})\n   " + "\n   ".join(misses))
        for m in (answers or {}).get("misses", []):
            print(f"-- {m['kind']} {m['project']} {m['endpoint']} from {m['start']}: {m['why']}")
    checks = cross_check(folder, last, answers is not None) if args.cross_check else []
    for line in checks:
        print("benchmark's scorer: " + line)
    rev = subprocess.run(
        ["git", "log", "-1", "--format=%h"], cwd=ROOT, capture_output=True, text=True
    )
    result = {
        "command": "uv run python bench/realworld.py " + " ".join(sys.argv[1:]),
        "kb_graph": rev.stdout.strip(),
        "benchmark": str(folder),
        "graph": graph,
        "answers": answers,
        "cross_check": checks,
        "timing": timing,
        "summary": last,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\n{timing} · wrote {args.out}")
    print(last)
    return 0


if __name__ == "__main__":
    sys.exit(main())
