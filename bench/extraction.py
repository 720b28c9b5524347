"""Extraction cost as a multiple of tree-sitter's parse, on one synthetic JS component, and
against an older commit's code in the same run.

60 TypeScript modules × 40 async functions, each with an env-based URL and an axios call:
every registry extractor (the engine, Vue, TypeScript, Next.js, Firebase, env scan, …) runs
over trees parsed once. Goals: extraction CPU ≤ 3× the parse CPU (+0.3 s) — a guard against
an extractor turning quadratic — and, with `--baseline REF`, ≤ 1.2× the extraction CPU of
the code at REF (exported with `git archive`, measured by this same script in a subprocess
right after, so both see the same load). CPU time, median of `--repeats`; the cyclic
collector is paused as `extract_component` pauses it, and the collection after is counted.

    uv run python bench/extraction.py [--repeats 3] [--baseline main]

Writes bench/results/extraction.json; prints PASS/MISS.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from extractors.base import ComponentContext, collect_files  # noqa: E402
from extractors.registry import plan  # noqa: E402
from extractors.shared import Shared  # noqa: E402
from extractors.source import parser_for  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "extraction.json"
RATIO_GOAL = 1.2  # extraction CPU against the baseline's


def write_component(root: Path, files: int = 60, functions: int = 40) -> int:
    """Write the synthetic component; returns how many HTTP calls it makes."""
    src = root / "src"
    src.mkdir(parents=True)
    for i in range(files):
        nxt = (i + 1) % files
        out = [
            "import axios from 'axios';",
            f"import {{ f{nxt} }} from './m{nxt}';",
            f"const BASE = process.env.API_{i} ?? '';",
        ]
        for j in range(functions):
            out.append(
                f"export async function f{i}_{j}(id: string, body: unknown): Promise<number> {{\n"
                f"  const url = `${{BASE}}/items/${{encodeURIComponent(id)}}`;\n"
                "  const res = await axios.post(url, body, { headers: { 'X-Id': id } });\n"
                f"  const list = [1, 2, 3].map((n) => n * {j}).filter(Boolean);\n"
                f"  return list.length + res.status + f{nxt}();\n"
                "}"
            )
        out.append(f"export function f{i}() {{ return 1; }}")
        (src / f"m{i}.ts").write_text("\n".join(out) + "\n")
    return files * functions


def measure(root: Path) -> tuple[float, float, int]:
    """(parse CPU s, extraction CPU s, http_call nodes) for one fresh context."""
    ctx = ComponentContext("p", "c", root)
    collect_files(ctx)
    parser = parser_for("typescript")
    start = time.process_time()
    for sf in ctx.files.values():
        sf._tree = parser.parse(sf.data)
    parse = time.process_time() - start
    # As `extract_component` runs them: the cyclic collector paused meanwhile; the one
    # collection that frees what they leave in cycles is counted in.
    gc.disable()
    try:
        start = time.process_time()
        for _, module in plan():
            module.extract(ctx)
        ctx.shared = Shared()  # what extract_component drops before the collector resumes
        ctx.files.clear()
    finally:
        gc.enable()
    gc.collect()
    extraction = time.process_time() - start
    return parse, extraction, sum(1 for n in ctx.facts.nodes if n.kind == "http_call")


def baseline(ref: str, repeats: int) -> dict:
    """This script's measurement of the code at `ref`, in a subprocess over an export."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "archive", ref], cwd=ROOT, capture_output=True, check=True
        ).stdout
        tar = Path(tmp) / "tree.tar"
        tar.write_bytes(archive)
        tree = Path(tmp) / "tree"
        with tarfile.open(tar) as t:
            t.extractall(tree, filter="data")
        shutil.copy(Path(__file__), tree / "bench" / "extraction.py")
        done = subprocess.run(
            [sys.executable, str(tree / "bench" / "extraction.py"), "--repeats", str(repeats),
             "--json"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return json.loads(done.stdout.splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--baseline", help="a git ref whose code is measured too (e.g. main)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON only")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        expected = write_component(Path(tmp))
        runs = [measure(Path(tmp)) for _ in range(args.repeats)]
    parse = statistics.median(r[0] for r in runs)
    extraction = statistics.median(r[1] for r in runs)
    calls = runs[0][2]
    multiple_ok = extraction <= 3 * parse + 0.3 and calls == expected
    result: dict = {
        "parse_cpu_s": round(parse, 3),
        "extraction_cpu_s": round(extraction, 3),
        "ratio": round(extraction / parse, 2) if parse else None,
        "http_calls": calls,
        "expected_http_calls": expected,
        "goal": "extraction <= 3x parse + 0.3 s",
        "pass": multiple_ok,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    if args.baseline:
        old = baseline(args.baseline, args.repeats)
        against = extraction / old["extraction_cpu_s"] if old["extraction_cpu_s"] else None
        result["baseline"] = {"ref": args.baseline, **old}
        result["vs_baseline"] = round(against, 2) if against is not None else None
        result["baseline_pass"] = against is not None and against <= RATIO_GOAL
        result["pass"] = multiple_ok and result["baseline_pass"]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    versus = (
        f" · {result['vs_baseline']}× of {args.baseline} "
        f"({result['baseline']['extraction_cpu_s']:.2f} s): "
        f"{'PASS' if result['baseline_pass'] else 'MISS'} (goal ≤ {RATIO_GOAL}×)"
        if args.baseline
        else ""
    )
    print(
        f"parse {parse:.2f} s CPU · extraction {extraction:.2f} s CPU · "
        f"{result['ratio']}× · {calls}/{expected} calls: {'PASS' if multiple_ok else 'MISS'} "
        f"(goal ≤ 3× parse + 0.3 s){versus}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
