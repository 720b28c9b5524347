"""Scale-out bench: the same full build in process and on the celery executor.

Starts Debian's redis-server on a free loopback port and two dagster-celery workers
(bench/cluster.py), builds one KB twice from scratch — `kb refresh` in process, then
`KB_EXECUTOR=celery kb refresh` (each stale partition its own run, its steps on the
workers) — and compares the published nodes/edges byte for byte (sorted dump).

    uv run python bench/celery.py              # the bundled example (examples/kb)
    uv run python bench/celery.py --portfolio  # bench/portfolio.py's 46 components

Writes bench/results/celery.json (`--portfolio`: celery-portfolio.json).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.cluster import CeleryCluster, graph_dump, redis_available  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "celery.json"
KB_EXE = str(Path(sys.executable).with_name("kb"))


def refresh(kb: Path, data: Path, env: dict[str, str] | None = None) -> float:
    full_env = {**os.environ, **(env or {})}
    full_env.pop("DAGSTER_HOME", None)  # the instance lives in <data>/dagster
    start = time.perf_counter()
    proc = subprocess.run(
        [KB_EXE, "refresh", "--all", "--kb", str(kb), "--data-dir", str(data)],
        capture_output=True,
        text=True,
        env=full_env,
    )
    if proc.returncode != 0:
        raise SystemExit(f"kb refresh failed:\n{proc.stdout}\n{proc.stderr}")
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--portfolio", action="store_true", help="the 46-component scale portfolio")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    if why := redis_available():
        print(f"skipped: {why} (apt-get install -y redis-server)")
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-celery-"))
    try:
        if args.portfolio:
            from bench.portfolio import fetch, write_portfolio

            kb, label = write_portfolio(tmp / "portfolio", fetch()), "bench/portfolio.py (46)"
        else:
            from tests.support.portfolio import copy_example

            kb, label = copy_example(tmp / "example"), "examples/kb"
        os.environ.setdefault("KB_TODAY", "2026-11-29")
        local = refresh(kb, tmp / "data-local")
        print(f"in process: {local:.1f}s")
        with CeleryCluster(tmp / "data-celery" / "dagster", workers=args.workers) as cluster:
            distributed = refresh(kb, tmp / "data-celery", cluster.env())
            print(f"celery executor, {args.workers} workers: {distributed:.1f}s")
            worker_steps = sum(
                (cluster.work / f"worker{i}.log").read_text(errors="replace").count("succeeded")
                for i in range(1, args.workers + 1)
            )
        a, b = graph_dump(tmp / "data-local"), graph_dump(tmp / "data-celery")
        result = {
            "kb": label,
            "components": len(
                json.loads((tmp / "data-local" / "manifest.json").read_text())["components"]
            ),
            "in_process_s": round(local, 2),
            "celery_s": round(distributed, 2),
            "workers": args.workers,
            "steps_run_on_workers": worker_steps,
            "graph_dump_bytes": len(a),
            "identical": a == b,
            "loadavg_1m": round(os.getloadavg()[0], 2),
        }
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(result, indent=2))
    print(
        f"{'PASS' if result['identical'] else 'MISS'}: celery warehouse equals the in-process one"
    )
    out = RESULTS.with_name("celery-portfolio.json") if args.portfolio else RESULTS
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
