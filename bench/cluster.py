"""A throwaway Celery cluster on loopback: Debian's redis-server + N dagster-celery workers.

Used by the celery bench and the slow scale-out test. Every process is started in its
own session (process group) and stopped by that group, so nothing outlives `close()`.
With `postgres_url` the workers (and the refresh, through `env()`) use that PostgreSQL
instance — a team's setting (docs/team.md); without, the SQLite instance in the home.

    with CeleryCluster(dagster_home, workers=2) as cluster:
        env = cluster.env()   # KB_EXECUTOR=celery, KB_CELERY_BROKER=redis://127.0.0.1:<port>/0
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

CELERY_EXE = str(Path(sys.executable).with_name("dagster-celery"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_available() -> str | None:
    """Why Redis cannot be used here, or None when `redis-server` is on PATH."""
    return None if shutil.which("redis-server") else "redis-server not installed"


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class CeleryCluster:
    """Redis on a free loopback port and `workers` dagster-celery workers (one slot each)."""

    def __init__(
        self,
        dagster_home: Path,
        workers: int = 2,
        work: Path | None = None,
        postgres_url: str | None = None,
    ):
        self.home = Path(dagster_home)
        self.work = Path(work or self.home / "celery")
        self.workers = workers
        self.postgres_url = postgres_url
        self.port = free_port()
        self.procs: list[subprocess.Popen] = []
        self.worker_procs: list[subprocess.Popen] = []
        self.started_workers = 0

    @property
    def broker(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def env(self) -> dict[str, str]:
        env = {"KB_EXECUTOR": "celery", "KB_CELERY_BROKER": self.broker}
        if self.postgres_url:
            env["KB_POSTGRES_URL"] = self.postgres_url
        return env

    def __enter__(self) -> CeleryCluster:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self, timeout: float = 90.0) -> None:
        from pipeline.instance import write_instance_yaml

        self.work.mkdir(parents=True, exist_ok=True)
        # the same dagster.yaml `kb refresh` writes for this data dir
        write_instance_yaml(self.home, postgres=bool(self.postgres_url))
        _init_instance(self.home, self.env())  # workers racing to create the schema would fail
        self._spawn(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--dir", str(self.work)],
            "redis.log",
        )
        _wait(lambda: _ping(self.port), timeout, "redis-server did not answer PING")
        (self.work / "celery.yaml").write_text(celery_yaml(self.broker))
        self.start_workers(self.workers, timeout)

    def start_workers(self, count: int, timeout: float = 90.0) -> list[Path]:
        """Start `count` more workers (one slot each); their log files, once all are ready."""
        repo = str(Path(__file__).resolve().parents[1])
        env = {**os.environ, **self.env(), "DAGSTER_HOME": str(self.home), "PYTHONPATH": repo}
        logs = []
        for _ in range(count):
            self.started_workers += 1
            i = self.started_workers
            name = f"kbworker{i}-{self.port}"
            log = f"worker{i}.log"
            proc = self._spawn(
                [CELERY_EXE, "worker", "start", "-A", "dagster_celery.app"]
                + ["-y", str(self.work / "celery.yaml"), "-n", name, "--"]
                + ["--concurrency=1"]
                + ["--without-gossip", "--without-mingle"],
                log,
                env=env,
                cwd=repo,
            )
            self.worker_procs.append(proc)
            logs.append(self.work / log)
        _wait(
            lambda: all(p.exists() and " ready." in p.read_text(errors="replace") for p in logs),
            timeout,
            f"celery workers not ready (logs in {self.work})",
        )
        return logs

    def kill_workers(self) -> None:
        """SIGKILL every worker's process group at once: machines that died mid-task."""
        for proc in self.worker_procs:
            _signal_group(proc, signal.SIGKILL)
            proc.wait()
        self.worker_procs.clear()

    def worker_logs(self) -> list[str]:
        return [
            (self.work / f"worker{i}.log").read_text(errors="replace")
            for i in range(1, self.started_workers + 1)
        ]

    def _spawn(self, cmd: list[str], log: str, env=None, cwd=None) -> subprocess.Popen:
        out = open(self.work / log, "wb")  # noqa: SIM115 — closed with the process
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
        )
        out.close()
        self.procs.append(proc)
        if proc.poll() is not None:
            raise RuntimeError(f"{cmd[0]} exited at once (see {self.work / log})")
        return proc

    def close(self) -> None:
        """SIGTERM each process group, then SIGKILL what is left after 10 s."""
        for proc in reversed(self.procs):
            _signal_group(proc, signal.SIGTERM)
        deadline = time.monotonic() + 10
        for proc in self.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            _signal_group(proc, signal.SIGKILL)
            proc.wait()
        self.procs.clear()


def celery_yaml(broker: str) -> str:
    """The executor config a worker reads (`-y`): the broker and result backend, and
    `task_track_started`, so a task's record names the worker running it — how a refresh
    notices a worker that died mid-step (pipeline/distributed.py)."""
    return (
        f"execution:\n  config:\n    broker: {broker}\n    backend: {broker}\n"
        "    config_source:\n      task_track_started: true\n"
    )


def _init_instance(home: Path, env: dict[str, str]) -> None:
    import dagster as dg

    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        with dg.DagsterInstance.from_config(str(home)):
            pass
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def _wait(ready, timeout: float, message: str) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise RuntimeError(message)
        time.sleep(0.2)


def graph_dump(data_dir: Path) -> bytes:
    """Every published node and edge, sorted: two warehouses are equal iff their dumps are."""
    from warehouse.reader import Warehouse

    warehouse = Warehouse(Path(data_dir))
    con = warehouse.connect(warehouse.partitions())
    lines = []
    for table in ("nodes", "edges"):
        lines += [
            f"{table}\t{row!r}"
            for row in con.execute(f"select * from {table} order by all").fetchall()
        ]
    return "\n".join(lines).encode()
