"""Soak: the Dagster UI, the refresh service and the MCP server stay up under real use.

Starts the UI the way the README tells users to (`uv run kb ui`), installs the post-commit
hooks (`kb hook install`: each commit hands a refresh to the warm refresh service), then
for `--minutes` drives a real headless Chromium through the lineage, assets, a partitioned
asset's partitions, runs and automation pages — several loads a second over `--tabs` tabs
— while a commit lands in a component repo every `--commit-every` seconds, the daemon's
automation sensor launches its runs, MCP clients call the tools (`kb mcp`) and `kb sql`
queries run. At the end it checks and reports:

- the webserver, daemon, refresh service and MCP servers alive; no process ended by a
  signal (the UI's log names any child that "shut down unexpectedly"); the kernel log
  free of segfaults, where it can be read;
- no "Unexpected GraphQL error" on any page; every run SUCCESS or FAILURE once the last
  ones finished (none left STARTED/QUEUED); the warehouse published the last commit;
  every MCP call and SQL query answered;
- page load p50/p95, MCP p95 (and p95 of the calls that overlapped a republish), peak
  memory of each process.

`--sessions N` is the reproduction of issue 29 §1 instead: N UI sessions of
`--session-minutes` each (a fresh `kb ui` per session, the browser on the same pages, a
commit and a `kb refresh` every 20 s), counting sessions whose webserver crashed.

    uv run python bench/soak.py                                   # example KB, SQLite, 10 min
    uv run python bench/soak.py --kb portfolio --storage postgres # 46 components, PostgreSQL
    uv run python bench/soak.py --sessions 20 --session-minutes 2 # the §1 reproduction

Writes bench/results/soak-<kb>-<storage>.json (sessions: soak-sessions-…); exits 1 when
a check fails. Loopback only; every process it starts is stopped with its group.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# bench/ itself off the path: bench/mcp.py would shadow the MCP SDK's `mcp`
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.soak_parts import (  # noqa: E402
    Browser,
    Committer,
    McpLoad,
    SqlLoad,
    percentile,
    wait_until,
)
from bench.soak_watch import (  # noqa: E402
    Monitor,
    failed_runs,
    kernel_segfaults,
    run_statuses,
    ui_crashes,
    unfinished_runs,
)
from tests.support.dagster_dev import free_port, graphql, wait_for  # noqa: E402
from tests.support.processes import start, stop_group  # noqa: E402

RESULTS = ROOT / "bench" / "results"
KB_EXE = str(Path(sys.executable).with_name("kb"))
UNFINISHED = {"STARTED", "STARTING", "QUEUED", "NOT_STARTED", "CANCELING"}


def make_kb(kind: str, work: Path) -> Path:
    """The KB to soak: the bundled example (10 components) or bench/portfolio.py's 46."""
    if kind == "example":
        from tests.support.portfolio import copy_example

        return copy_example(work / "portfolio")
    from bench.portfolio import fetch, write_portfolio

    return write_portfolio(work / "portfolio", fetch())


def kb(*args: str, env: dict, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([KB_EXE, *args], capture_output=True, text=True, env=env, timeout=timeout)


def start_ui(kb_root: Path, data: Path, env: dict, log: Path) -> tuple[subprocess.Popen, int]:
    """`uv run kb ui` as the README says; (process, port) once GraphQL answers."""
    port = free_port()
    out = open(log, "ab")  # noqa: SIM115 — the process keeps its copy
    argv = ["uv", "run", "--frozen", "kb", "ui", "--kb", str(kb_root), "--data-dir", str(data)]
    proc = start([*argv, "--port", str(port)], cwd=ROOT, env=env, stdout=out, stderr=out)
    out.close()
    up = wait_for(lambda: graphql(port, "{ assetNodes { id } }")["assetNodes"], 300, 1)
    if not up:
        stop_group(proc)
        raise SystemExit(f"kb ui did not answer GraphQL (log: {log})")
    return proc, port


def soak(args, work: Path, env: dict, kb_root: Path, data: Path) -> dict:
    hook = kb("hook", "install", "--kb", str(kb_root), "--data-dir", str(data), env=env)
    assert hook.returncode == 0, hook.stdout + hook.stderr
    log = work / "ui.log"
    ui, port = start_ui(kb_root, data, env, log)
    started = time.time()
    monitor = Monitor(ui.pid, data)
    browser = Browser(port, tabs=args.tabs)
    committer = Committer(kb_root, every=args.commit_every)
    mcp = McpLoad(kb_root, data, clients=args.mcp_clients, env=env)
    sql = SqlLoad(kb_root, data, env=env)
    parts = [monitor, browser, committer, mcp, sql]
    try:
        for part in parts:
            part.start()
        deadline = time.monotonic() + args.minutes * 60
        while time.monotonic() < deadline and ui.poll() is None:
            time.sleep(1)
        alive = monitor.alive()  # at the end of the soak, before its load is stopped
        committer.stop()
        published = wait_until(lambda: committer.published(data, env), args.settle)
        for part in (browser, mcp, sql):
            part.stop()
        statuses = wait_until(
            lambda: _finished(run_statuses(data, env)), args.settle
        ) or run_statuses(data, env)
        monitor.stop()
        failures = failed_runs(data, env) if "FAILURE" in statuses else []
        stuck = unfinished_runs(data, env) if UNFINISHED & set(statuses) else []
    finally:
        for part in parts:
            part.stop()
        ui_exit = ui.poll()
        stop_group(ui, grace=30)
        kb("hook", "uninstall", "--kb", str(kb_root), env=env)
        service = monitor.service_pid()
        if service:
            _stop_pid(service)
    loads = browser.loads
    report = {
        "kb": args.kb,
        "storage": args.storage,
        "components": committer.components,
        "minutes": args.minutes,
        "page_loads": len(loads),
        "page_loads_per_s": round(len(loads) / max(1.0, args.minutes * 60), 2),
        "page_load_p50_s": percentile([s for _, s in loads], 50),
        "page_load_p95_s": percentile([s for _, s in loads], 95),
        "pages": browser.by_page(),
        "graphql_errors": browser.graphql_errors,
        "page_errors": browser.page_errors[:20],
        "commits": committer.commits,
        "commit_errors": committer.errors[:10],
        "warehouse_published_last_commit": bool(published),
        "runs": _count(statuses),
        "runs_unfinished": sum(1 for s in statuses if s in UNFINISHED),
        "failed_runs": failures,
        "unfinished_runs": stuck,
        "mcp_calls": mcp.calls,
        "mcp_failures": mcp.failures[:20],
        "mcp_p95_ms": percentile([ms for ms, _ in mcp.latencies], 95, 1000),
        "mcp_p95_during_republish_ms": percentile(
            [ms for ms, during in mcp.latencies if during], 95, 1000
        ),
        "mcp_calls_during_republish": sum(1 for _, during in mcp.latencies if during),
        "sql_queries": sql.queries,
        "sql_failures": sql.failures[:20],
        "alive_at_end": alive,
        "ui_exited_early": ui_exit,
        "ended_by_signal": ui_crashes(log),
        "kernel_segfaults": kernel_segfaults(started),
        "peak_rss_mb": monitor.peaks(),
        "loadavg_1m": round(os.getloadavg()[0], 2),
        "min_rate": args.min_rate,
    }
    report["checks"] = _checks(report)
    report["pass"] = all(report["checks"].values())
    return report


def _finished(statuses: list[str]) -> list[str] | None:
    return statuses if not UNFINISHED & set(statuses) else None


def _count(statuses: list[str]) -> dict[str, int]:
    return {s: statuses.count(s) for s in sorted(set(statuses))}


def _checks(r: dict) -> dict[str, bool]:
    return {
        "webserver, daemon, refresh service and MCP servers alive": all(r["alive_at_end"].values())
        and r["ui_exited_early"] is None,
        "0 processes ended by a signal": not r["ended_by_signal"],
        "kernel log free of segfaults (where readable)": not r["kernel_segfaults"],
        '0 "Unexpected GraphQL error"': r["graphql_errors"] == 0 and not r["page_errors"],
        "every run SUCCESS or FAILURE": r["runs_unfinished"] == 0 and bool(r["runs"]),
        "warehouse published the last commit": r["warehouse_published_last_commit"]
        and not r["commit_errors"],
        "every MCP call answered": r["mcp_calls"] > 0 and not r["mcp_failures"],
        "every SQL query answered": r["sql_queries"] > 0 and not r["sql_failures"],
        f"at least {r['min_rate']} page loads a second": r["page_loads_per_s"] >= r["min_rate"],
    }


def sessions(args, work: Path, env: dict, kb_root: Path, data: Path) -> dict:
    """The §1 reproduction: N fresh UI sessions, browsing while refreshes happen."""
    crashed, loads, errors = [], [], 0
    committer = Committer(kb_root, every=args.commit_every)
    for n in range(1, args.sessions + 1):
        log = work / f"ui-{n}.log"
        ui, port = start_ui(kb_root, data, env, log)
        browser = Browser(port, tabs=args.tabs)
        browser.start()
        deadline = time.monotonic() + args.session_minutes * 60
        try:
            while time.monotonic() < deadline and ui.poll() is None:
                committer.commit_one()
                kb("refresh", "--kb", str(kb_root), "--data-dir", str(data), env=env)
                time.sleep(max(0.0, min(args.commit_every, deadline - time.monotonic())))
        finally:
            browser.stop()
            early = ui.poll()
            stop_group(ui, grace=30)
        signals = ui_crashes(log)
        if early is not None or signals:
            crashed.append({"session": n, "exit": early, "signals": signals})
        loads += [s for _, s in browser.loads]
        errors += browser.graphql_errors
        print(
            f"session {n}: {len(browser.loads)} page loads, crashed: {bool(crashed and crashed[-1]['session'] == n)}",
            flush=True,
        )
    report = {
        "kb": args.kb,
        "storage": args.storage,
        "sessions": args.sessions,
        "session_minutes": args.session_minutes,
        "refresh_every_s": args.commit_every,
        "crashed_sessions": crashed,
        "page_loads": len(loads),
        "page_load_p50_s": percentile(loads, 50),
        "page_load_p95_s": percentile(loads, 95),
        "graphql_errors": errors,
        "kernel_segfaults": kernel_segfaults(0),
    }
    report["pass"] = not crashed and errors == 0 and not report["kernel_segfaults"]
    return report


def _stop_pid(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kb", default="example", choices=["example", "portfolio"])
    ap.add_argument("--storage", default="sqlite", choices=["sqlite", "postgres"])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--tabs", type=int, default=3, help="browser tabs loading pages at once")
    ap.add_argument("--commit-every", type=float, default=20.0, metavar="SECONDS")
    ap.add_argument("--mcp-clients", type=int, default=2)
    ap.add_argument(
        "--min-rate", type=float, default=1.0, help="page loads a second the soak must reach"
    )
    ap.add_argument(
        "--settle",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="wait at most this long, after the load, for the last commit and the last runs",
    )
    ap.add_argument("--sessions", type=int, default=0, help="the §1 reproduction instead")
    ap.add_argument("--session-minutes", type=float, default=2.0)
    ap.add_argument("--out", type=Path, default=None, help="report file (JSON)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder (KB, data, logs)")
    args = ap.parse_args()
    # `timeout`, a CI runner or a test's kill sends SIGTERM: unwind, so the `finally`
    # blocks stop the UI's group, the refresh service and the database server
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = Path(tempfile.mkdtemp(prefix="kb-soak-"))
    env = {**os.environ, "KB_TODAY": os.environ.get("KB_TODAY", "2026-11-29")}
    env.pop("DAGSTER_HOME", None)
    env.pop("KB_EXECUTOR", None)
    server = None
    try:
        if args.storage == "postgres":
            from bench.postgres import PostgresServer

            server = PostgresServer().__enter__()
            env["KB_POSTGRES_URL"] = server.url
        kb_root, data = make_kb(args.kb, work), work / "data"
        first = kb("refresh", "--kb", str(kb_root), "--data-dir", str(data), env=env)
        if first.returncode != 0:
            raise SystemExit(f"the first kb refresh failed:\n{first.stdout}\n{first.stderr}")
        run = sessions if args.sessions else soak
        report = run(args, work, env, kb_root, data)
    finally:
        if server is not None:
            server.close()
        if args.keep:
            print(f"work folder kept: {work}", flush=True)
        else:
            shutil.rmtree(work, ignore_errors=True)
    name = f"soak-{'sessions-' if args.sessions else ''}{args.kb}-{args.storage}.json"
    out = args.out or RESULTS / name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    for check, ok in report.get("checks", {}).items():
        print(f"{'PASS' if ok else 'FAIL'}: {check}")
    print(f"{'PASS' if report['pass'] else 'FAIL'}: soak ({out})")
    return 0 if report["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
