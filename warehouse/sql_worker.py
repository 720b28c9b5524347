"""Ad-hoc SQL (`kb_sql`, `kb sql`) runs in a worker process that can really be stopped.

DuckDB's `interrupt()` is honoured between vectors, not inside one scalar call:
`select length(list_sort(range(20000000)))` runs to the end (many seconds, gigabytes)
whatever the timer says. So the query runs in a child process with a DuckDB
`memory_limit`, no spilling to disk, and the same sandbox as every connection
(`query_guard.sandbox`: only the Parquet files of the partitions in scope). The
parent waits for the time cap, then kills the child: the answer comes on time and
the operating system takes all its memory back. A child that grew past
`RECYCLE_RSS_MB` is replaced after its answer, so memory is released after a query.

Protocol: one JSON object per line on stdin/stdout.
"""

from __future__ import annotations

import json
import selectors
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from warehouse.query_guard import ROW_CAP, TIME_CAP_S, MemoryCapReached, QueryRejected, check_sql

MEMORY_LIMIT = "1GB"
THREADS = 2
RECYCLE_RSS_MB = 400
HEADROOM_MB = 1280  # address space past the idle worker's: DuckDB's 1 GB and the answer
GRACE_S = 0.5  # the child's own interrupt gets this long before the kill


def partition_files(build_dir: Path, partitions: list[str]) -> dict[str, list[str]]:
    """table -> Parquet files of the given partitions (the only files a query may open)."""
    tables: dict[str, list[str]] = {}
    for partition in partitions:
        for path in sorted((Path(build_dir) / f"partition={partition}").glob("*.parquet")):
            tables.setdefault(path.stem, []).append(path.as_posix())
    return tables


class SqlWorker:
    """One child process; `run` is thread-safe (one query at a time)."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "warehouse.sql_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                cwd=Path(__file__).resolve().parents[1],
                start_new_session=True,  # a terminal's Ctrl-C goes to the parent only
            )
        return self._proc

    def start(self) -> None:
        """Start the child now (it imports DuckDB before its first query arrives)."""
        with self._lock:
            self._start()

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()

    def run(
        self,
        build_dir: Path,
        partitions: list[str],
        sql: str,
        row_cap: int = ROW_CAP,
        time_cap_s: float = TIME_CAP_S,
    ) -> tuple[list[str], list[tuple[Any, ...]], bool]:
        """(columns, rows, truncated) or QueryRejected("one line")."""
        statement = check_sql(sql)
        request = {
            "build_dir": str(build_dir),
            "partitions": partitions,
            "sql": statement,
            "row_cap": row_cap,
            "time_cap_s": time_cap_s,
        }
        with self._lock:
            proc = self._start()
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(json.dumps(request) + "\n")
                proc.stdin.flush()
            except OSError:
                self.stop()
                raise QueryRejected("the SQL worker stopped — try again") from None
            reply = _read_line(proc, time_cap_s + GRACE_S)
            if reply is None:
                self.stop()
                raise QueryRejected(f"query stopped after the {time_cap_s:g} s time cap")
            if reply == "":
                self.stop()
                raise QueryRejected(f"query needed more than the {MEMORY_LIMIT} memory cap")
            answer = json.loads(reply)
            if answer.get("recycle") or answer.get("rss_mb", 0) > RECYCLE_RSS_MB:
                self.stop()  # give the memory back now, not at the next query
        if "error" in answer:
            raise QueryRejected(answer["error"])
        return answer["columns"], [tuple(r) for r in answer["rows"]], answer["truncated"]


def _read_line(proc: subprocess.Popen[str], timeout: float) -> str | None:
    """The child's next line; "" when it died; None when `timeout` passed first."""
    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            return None
    return proc.stdout.readline()


_SHARED: SqlWorker | None = None


def shared_worker() -> SqlWorker:
    global _SHARED
    if _SHARED is None:
        _SHARED = SqlWorker()
    return _SHARED


# -- the child ------------------------------------------------------------------------


KEEP_CONNECTIONS = 16  # one per project scope in use: switching projects reopens nothing


def _connect(build_dir: str, partitions: list[str]):
    import duckdb

    from warehouse.query_guard import sandbox
    from warehouse.reader import parquet_view

    con = duckdb.connect(":memory:")
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    con.execute(f"SET threads = {THREADS}")
    con.execute("SET max_temp_directory_size = '0KB'")
    tables = partition_files(Path(build_dir), partitions)
    for table, paths in sorted(tables.items()):
        parquet_view(con, table, paths)
    sandbox(con, [p for paths in tables.values() for p in paths])
    return con


def _rss_mb() -> int:
    return _status_kb("VmRSS") // 1024


def _serve() -> None:
    from warehouse.query_guard import run_readonly

    cons: dict[tuple[str, tuple[str, ...]], Any] = {}
    for line in sys.stdin:
        request = json.loads(line)
        key = (request["build_dir"], tuple(request["partitions"]))
        try:
            con = cons.pop(key, None)
            if con is None:
                if len(cons) >= KEEP_CONNECTIONS or any(k[0] != key[0] for k in cons):
                    for old in cons.values():  # another build, or too many: start afresh
                        old.close()
                    cons = {}
                con = _connect(request["build_dir"], request["partitions"])
            cons[key] = con  # most recently used last
            columns, rows, truncated = run_readonly(
                con, request["sql"], request["row_cap"], request["time_cap_s"]
            )
            answer: dict[str, Any] = {"columns": columns, "rows": rows, "truncated": truncated}
        except MemoryCapReached as exc:  # DuckDB keeps what it took: replace this worker
            answer = {"error": str(exc), "recycle": True}
        except QueryRejected as exc:
            answer = {"error": str(exc)}
        except MemoryError:
            answer = {
                "error": f"query needed more than the {MEMORY_LIMIT} memory cap",
                "recycle": True,
            }
        except Exception as exc:  # noqa: BLE001 — a damaged file must not kill the worker
            cons = {}
            reason = " ".join(str(exc).split())[:200]
            answer = {"error": f"warehouse unreadable ({reason}) — `kb status` names damaged files"}
        answer["rss_mb"] = _rss_mb()
        sys.stdout.write(json.dumps(answer, default=str) + "\n")
        sys.stdout.flush()


def _bound_address_space() -> None:
    """DuckDB's `memory_limit` does not hold one huge scalar (`repeat('x', 900000000)`
    took the worker to 1.9 GB): an address-space limit makes such an allocation fail
    inside DuckDB, which answers "out of memory" and keeps serving. Measured from what
    the warmed-up worker has already reserved (~1.4 GB of address space, little of it
    memory), plus `HEADROOM_MB`."""
    import resource

    import duckdb

    duckdb.connect(":memory:").execute("select 1").fetchall()
    limit = (_status_kb("VmSize") + HEADROOM_MB * 1024) * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _status_kb(field: str) -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    # imported now, while the parent is still idle, not at the first query
    _bound_address_space()

    import warehouse.query_guard  # noqa: F401
    import warehouse.reader  # noqa: F401

    _serve()
