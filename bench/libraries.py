"""Extraction over real code nobody here tuned on: every library installed in this
project's virtual environment (or the folders given), each extracted as one component.

Library code is the hardest input the extractors meet — metaprogramming, modules that
import themselves, recursive validators, parameters named like the modules their types
come from — and it is on every machine that ran `uv sync`, identical by the lock file. Two
checks:

- **no extractor fails** on any library (a failure loses that extractor's facts for the
  whole component; the registry reports it as an `extractor-*` problem): goal 0;
- **no outlier in cost**: CPU seconds per MB of source, per library, against the median of
  the run (a ratio, so the machine's speed cancels out): goal every library ≤ 8× the median.

    uv run python bench/libraries.py                       # the venv's site-packages
    uv run python bench/libraries.py --dirs PATH [PATH …]   # e.g. a node_modules' packages

Writes bench/results/libraries.json; prints each library over the goal and PASS/MISS.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from extractors.registry import extract_component  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "libraries.json"
SOURCE = (".py", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx")
MIN_BYTES = 20_000  # smaller packages time as noise
OUTLIER = 8.0  # × the median CPU per MB


def source_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.suffix in SOURCE and p.is_file())


def installed_packages() -> list[Path]:
    site = Path(sysconfig.get_paths()["purelib"])
    return sorted(
        p for p in site.iterdir()
        if p.is_dir() and not p.name.endswith((".dist-info", ".egg-info", ".data"))
        and p.name != "__pycache__"
    )  # fmt: skip


def measure(folder: Path) -> dict:
    gc.collect()
    gc.disable()  # as extract_component runs in a build
    try:
        start = time.process_time()
        facts = extract_component("libraries", folder.name, folder)
        cpu = time.process_time() - start
    finally:
        gc.enable()
    failures = [p.message for p in facts.problems if p.rule.startswith("extractor-")]
    return {
        "library": folder.name,
        "megabytes": round(source_bytes(folder) / 1e6, 3),
        "cpu_s": round(cpu, 3),
        "routes": sum(n.kind == "route" for n in facts.nodes),
        "http_calls": sum(n.kind == "http_call" for n in facts.nodes),
        "unresolved": len(facts.unresolved),
        "failures": failures,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dirs", nargs="+", type=Path, help="folders to extract, one component each")
    args = ap.parse_args()
    folders = [d for d in (args.dirs or installed_packages()) if source_bytes(d) >= MIN_BYTES]
    rows = []
    for folder in folders:
        row = measure(folder)
        rows.append(row)
        flag = "  FAILED: " + "; ".join(row["failures"]) if row["failures"] else ""
        print(
            f"{row['library']:32} {row['megabytes']:7.2f} MB {row['cpu_s']:7.2f}s{flag}", flush=True
        )
    per_mb = {r["library"]: r["cpu_s"] / r["megabytes"] for r in rows if r["megabytes"]}
    median = statistics.median(per_mb.values()) if per_mb else 0.0
    for row in rows:
        row["over_median"] = round(per_mb.get(row["library"], 0.0) / median, 2) if median else 0.0
    outliers = sorted(
        (r for r in rows if r["over_median"] > OUTLIER), key=lambda r: -r["over_median"]
    )
    failed = [r for r in rows if r["failures"]]
    total_mb = sum(r["megabytes"] for r in rows)
    total_cpu = sum(r["cpu_s"] for r in rows)
    print(f"\n{len(rows)} libraries, {total_mb:.1f} MB, {total_cpu:.1f}s CPU, "
          f"median {median:.2f}s/MB")  # fmt: skip
    for row in outliers:
        print(f"  outlier {row['library']}: {row['over_median']}x the median CPU per MB")
    print(f"extractor failures: {len(failed)} (goal 0) {'PASS' if not failed else 'MISS'}")
    print(f"libraries over {OUTLIER:g}x the median CPU/MB: {len(outliers)} (goal 0) "
          f"{'PASS' if not outliers else 'MISS'}")  # fmt: skip
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    summary = {
        "libraries": len(rows), "megabytes": round(total_mb, 1), "cpu_s": round(total_cpu, 1),
        "median_s_per_mb": round(median, 3), "failures": len(failed), "outliers": len(outliers),
    }  # fmt: skip
    RESULTS.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1) + "\n")
    return 0 if not failed and not outliers else 1


if __name__ == "__main__":
    raise SystemExit(main())
