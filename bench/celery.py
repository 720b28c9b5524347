"""Scale-out bench: the same full build in process and on the celery executor.

Starts Debian's redis-server on a free loopback port and two dagster-celery workers
(bench/cluster.py), builds one KB twice from scratch — `kb refresh` in process, then
`KB_EXECUTOR=celery kb refresh` (each stale partition its own run, its steps on the
workers) — and compares the published nodes/edges byte for byte (sorted dump).

    uv run python bench/celery.py              # the bundled example (examples/kb)
    uv run python bench/celery.py --portfolio  # bench/portfolio.py's 46 components
    uv run python bench/celery.py --postgres --workers 1 2 4   # a team's setting, scaling

`--postgres` runs the instance on Debian's PostgreSQL (bench/postgres.py, one database per
worker count), as docs/team.md sets it up. Writes bench/results/celery.json
(`--portfolio`: celery-portfolio.json; `--postgres`: celery-postgres[-portfolio].json).
"""

from __future__ import annotations

import argparse
import contextlib
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
from bench.postgres import PostgresServer, postgres_available  # noqa: E402

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
    ap.add_argument("--workers", type=int, nargs="+", default=[2], help="worker counts to time")
    ap.add_argument("--postgres", action="store_true", help="the instance on PostgreSQL")
    args = ap.parse_args()
    if why := redis_available() or (args.postgres and postgres_available()):
        print(f"skipped: {why} (apt-get install -y redis-server postgresql)")
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
        with contextlib.ExitStack() as stack:
            server = stack.enter_context(PostgresServer()) if args.postgres else None
            timings, identical, worker_steps = {}, True, 0
            for n in args.workers:
                data = tmp / f"data-celery-{n}"
                url = server.new_database(f"kb_workers_{n}") if server else None
                with CeleryCluster(data / "dagster", workers=n, postgres_url=url) as cluster:
                    timings[n] = refresh(kb, data, cluster.env())
                    print(f"celery executor, {n} worker(s): {timings[n]:.1f}s")
                    worker_steps = sum(log.count("succeeded") for log in cluster.worker_logs())
                identical &= graph_dump(data) == graph_dump(tmp / "data-local")
        distributed = timings[args.workers[-1]]
        a = graph_dump(tmp / "data-local")
        b = a if identical else b""
        result = {
            "kb": label,
            "instance": "postgres" if args.postgres else "sqlite",
            "celery_s_by_workers": {str(n): round(t, 2) for n, t in timings.items()},
            "components": len(
                json.loads((tmp / "data-local" / "manifest.json").read_text())["components"]
            ),
            "in_process_s": round(local, 2),
            "celery_s": round(distributed, 2),
            "workers": args.workers[-1],
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
    name = (
        "celery" + ("-postgres" if args.postgres else "") + ("-portfolio" if args.portfolio else "")
    )
    out = RESULTS.with_name(f"{name}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if result["identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
