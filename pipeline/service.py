"""The refresh service: one warm process per warehouse that runs `kb refresh` requests.

`kb serve-refresh` (started on demand by `kb refresh --service`, which the post-commit
hook runs) binds `pipeline.handoff.socket_path` first, so callers can queue at once,
then imports Dagster and builds a `Refresher` (instance, definitions, asset job) that
every request reuses; the staging IO manager keeps the staged tables of unchanged
partitions in memory between runs. The work per request is what a cold refresh does,
through the same automation conditions, under the same build lock:

- single writer: one service per data dir (`refresh-service.lock`), requests served one
  at a time, each under `build_lock` (a cold `kb refresh` elsewhere waits its turn);
- it exits when idle for `idle_timeout`, and answers `restart` (the caller refreshes in
  process) when kb-graph's own code changed since it started or a request names
  another KB: it never builds with stale code;
- after answering, it takes in the build it just made (one automation tick), off the
  caller's clock.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import signal
import socket
import sys
import time
import traceback
from pathlib import Path

from pipeline.handoff import SERVICE_LOCK, socket_path
from vocab.memory import imports_without_gc, peak_rss_mb, reset_peak_rss

LOCK = SERVICE_LOCK
PACKAGES = (
    "assets",
    "doc_context",
    "extractors",
    "kb",
    "pipeline",
    "verification",
    "vocab",
    "warehouse",
)


def code_fingerprint() -> tuple:
    """(path, mtime, size) of kb-graph's own Python files: a change means stale modules."""
    root = Path(__file__).resolve().parents[1]
    entries = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            with contextlib.suppress(OSError):
                st = path.stat()
                entries.append((str(path), st.st_mtime_ns, st.st_size))
    return tuple(entries)


class _Conn:
    def __init__(self, conn: socket.socket) -> None:
        self.conn = conn

    def send(self, message: dict) -> None:
        with contextlib.suppress(OSError):  # a caller that went away still gets its build
            self.conn.sendall((json.dumps(message) + "\n").encode("utf-8"))

    def request(self) -> dict:
        with self.conn.makefile("r", encoding="utf-8") as reader:
            return json.loads(reader.readline() or "{}")


def _stop(_signum, _frame) -> None:
    sys.exit(0)


class StopSignals:
    """`kill <pid>` noticed wherever it lands.

    Two ways it was lost: Dagster's `capture_interrupts` swaps in its own SIGINT/SIGTERM
    handler for a run and drops what it caught when the run ends; and once Dagster has
    started its threads, the kernel may hand the signal to one of them, which does not
    wake the main thread from its idle wait (so the handler ran only when a request came).
    The interpreter writes every caught signal's number to the wakeup fd whoever catches
    it: the idle wait selects on it, and it is checked after each piece of Dagster work."""

    def __init__(self) -> None:
        self._read, write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(write, False)
        signal.set_wakeup_fd(write)

    def fileno(self) -> int:
        """Readable when a signal came: the idle wait selects on it beside the socket (a
        signal handled by one of Dagster's threads would not wake the main thread)."""
        return self._read

    def received(self) -> bool:
        try:
            numbers = os.read(self._read, 512)
        except BlockingIOError:
            return False
        return any(n in (signal.SIGINT, signal.SIGTERM) for n in numbers)


def serve(kb_root: Path, data_dir: Path, idle_timeout: float = 1800.0, log=print) -> int:
    data_dir = Path(data_dir).resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    lock = open(data_dir / LOCK, "a+")  # noqa: SIM115 - held for the service's life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        log(f"a refresh service already serves {data_dir}")
        return 0
    lock.seek(0)  # opened without truncating: a second service must not erase the pid
    lock.truncate()
    lock.write(f"{os.getpid()}\n")  # who to `kill` (docs/cli.md#kb-serve-refresh)
    lock.flush()
    path = socket_path(data_dir)
    path.unlink(missing_ok=True)  # a dead service's socket (we hold the lock)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    os.chmod(path, 0o600)
    server.listen(16)
    # A hook's background shell starts us with SIGINT ignored, and Dagster maps SIGTERM
    # to SIGINT's handler: set both, so `kill <pid>` stops the service and removes the socket.
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _stop)
    stops = StopSignals()
    try:
        return _loop(server, Path(kb_root).resolve(), data_dir, idle_timeout, log, stops)
    finally:
        server.close()
        path.unlink(missing_ok=True)
        lock.close()


def _loop(
    server, kb_root: Path, data_dir: Path, idle_timeout: float, log, stops: StopSignals
) -> int:
    with imports_without_gc():
        from pipeline.refresh import Refresher  # Dagster: after the socket is up
    from warehouse.staging import keep_in_memory

    keep_in_memory()
    started = time.perf_counter()
    code = code_fingerprint()
    refresher = Refresher(kb_root, data_dir)
    log(
        f"refresh service for {kb_root} -> {data_dir}: warm in {time.perf_counter() - started:.1f}s"
    )
    while True:
        ready, _, _ = select.select([server, stops], [], [], idle_timeout)
        if not ready:
            log(f"idle for {idle_timeout:.0f}s: exiting")
            return 0
        if stops in ready and stops.received():
            log("stopped by a signal")
            return 0
        if server not in ready:
            continue
        conn, _ = server.accept()
        conn.settimeout(None)
        with conn:
            keep = _serve_one(_Conn(conn), refresher, code, log)
        if keep is None or stops.received():
            return 0
        refresher = keep
        try:
            refresher.take_in()
        except Exception:  # noqa: BLE001 - the next request re-runs it on its own
            log(traceback.format_exc())
        if stops.received():
            log("stopped by a signal received during the last request")
            return 0


def _serve_one(conn: _Conn, refresher, code: tuple, log):
    """Serve one request; the refresher to keep, or None to exit."""
    from kb.loader import KbNotFound, load_kb
    from pipeline.fastpath import build_lock, missing_checkouts
    from pipeline.phases import Phases
    from pipeline.prevalidate import errors_before_build
    from pipeline.refresh import Refresher

    phases = Phases()
    try:
        request = conn.request()
    except (OSError, ValueError):
        return refresher
    if not request:  # a caller that only checked the service listens
        return refresher
    if Path(request.get("kb", "")).resolve() != refresher.kb_root:
        conn.send({"restart": f"this service serves {refresher.kb_root}"})
        return refresher
    if code_fingerprint() != code:
        conn.send({"restart": "kb-graph's code changed since the service started"})
        log("code changed: exiting")
        return None
    reset_peak_rss()
    data_dir = refresher.data_dir
    try:
        with build_lock(data_dir):
            if not refresher.current():
                refresher = Refresher(refresher.kb_root, data_dir, phases)
            kb = load_kb(refresher.kb_root, data_dir)
            phases.lap("load KB")
            say = lambda m: conn.send({"say": m})  # noqa: E731
            for line in missing_checkouts({c.key: c.repo_path for c in kb.components()}):
                say(line)
            errors = errors_before_build(kb, data_dir)  # no run for a KB that cannot pass
            phases.lap("validate")
            if errors:
                conn.send(_stopped_by_validation(errors, phases))
                return refresher
            outcome = refresher.refresh(kb, bool(request.get("all")), say, phases)
    except KbNotFound as exc:
        conn.send({"rc": 1, "errors": [str(exc)]})
        return refresher
    except Exception as exc:  # noqa: BLE001 - the caller gets one line; the service restarts
        log(traceback.format_exc())
        conn.send({"restart": f"failed ({type(exc).__name__}: {exc})"})
        return None
    conn.send(
        {
            "rc": 0 if outcome.ok else 1,
            "errors": outcome.errors,
            "failed_checks": outcome.failed_checks,
            "validation": [p.render() for p in outcome.validation_errors],
            "phases": phases.as_dict(),
            "peak_mb": round(peak_rss_mb()),
        }
    )
    log(f"refreshed in {phases.total():.2f}s: {phases.render()}")
    return refresher


def _stopped_by_validation(errors, phases) -> dict:
    """The answer for a KB with validation errors: what a run's failed check would say."""
    return {
        "rc": 1,
        "errors": [],
        "failed_checks": ["kb_validation"],
        "validation": [p.render() for p in errors],
        "phases": phases.as_dict(),
        "peak_mb": round(peak_rss_mb()),
    }
