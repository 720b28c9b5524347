"""Keep Dagster's SQLite files open while a refresh writes them, so each event is cheap.

Dagster's SQLite storage (the documented `storage: sqlite:` block) opens a connection for
every event it stores and closes it after. When that connection is the last one open on a
WAL database, SQLite checkpoints the WAL into the database and removes it on close (two
fsyncs), and the next open rebuilds the WAL index: about 20 ms an event here, a second or
two of a refresh's run. One idle connection held open by the refresh process makes every
other close a plain close (measured: 10 ms → 0.03 ms) — SQLite's own behaviour with any
second reader, such as the UI's webserver. Nothing of Dagster is changed or subclassed; the
held connections never read or write a row and hold no lock, so the webserver, the daemon
and other refreshes see the files exactly as before. The file layout is the one Dagster's
instance docs show (`history/runs.db`, `history/runs/<run id>.db`, `history/runs/index.db`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_POLL_S = 0.02


def _held_if_wal(path: Path) -> sqlite3.Connection | None:
    """An idle connection on `path` if it is a WAL database by now, else None.

    Only SQLite opens the file. A plain open() and close() of a database file drops every
    POSIX lock this process holds on it (SQLite's "How To Corrupt An SQLite Database File",
    §2.2): with the run's own connection mid-write on the shard, another process closing its
    connection would then find itself the last, checkpoint and delete the WAL under that
    write ("disk I/O error"). SQLite keeps one descriptor table per file and defers a close
    while a lock is held, so its connections never drop each other's locks.
    """
    if not path.exists():  # a stat, no descriptor
        return None
    try:  # mode=rw: never create the file before Dagster does; timeout 0: a busy file waits
        conn = sqlite3.connect(
            f"{path.as_uri()}?mode=rw", uri=True, timeout=0, check_same_thread=False
        )
    except sqlite3.Error:
        return None
    try:
        if conn.execute("pragma journal_mode").fetchone()[0] == "wal":
            # one read maps the WAL index (a connection that never read does not count as
            # open there); the read ends at once: idle, holding no read or write lock
            conn.execute("select count(*) from sqlite_master").fetchall()
            return conn
    except sqlite3.Error:  # Dagster still creating it: try again at the next poll
        pass
    conn.close()
    return None


class _Holder:
    def __init__(self, files: list[Path]) -> None:
        self.waiting = list(files)
        self.open: list[sqlite3.Connection] = []
        self.done = threading.Event()

    def take(self) -> None:
        """Hold every waited-for file that exists and is a WAL database by now."""
        for path in list(self.waiting):
            conn = _held_if_wal(path)
            if conn is not None:
                self.waiting.remove(path)
                self.open.append(conn)  # closed with the rest, whatever happens next

    def watch(self) -> None:
        while self.waiting and not self.done.wait(_POLL_S):
            self.take()

    def close(self) -> None:
        for conn in self.open:
            conn.close()


@contextmanager
def wal_kept_open(root: Path | None, run_id: str) -> Iterator[None]:
    """Within the block, keep one idle connection on the instance's run, index and
    schedule databases and on the shard of run `run_id` once Dagster has created it.
    `root` None (a PostgreSQL instance): nothing to do."""
    if root is None:
        yield
        return
    history = root / "history"
    holder = _Holder(
        [
            history / "runs.db",
            history / "runs" / "index.db",
            history / "runs" / f"{run_id}.db",
            root / "schedules" / "schedules.db",
        ]
    )
    holder.take()
    watcher = threading.Thread(target=holder.watch, name="kb-sqlite-keepalive", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        holder.done.set()
        watcher.join()  # it may be opening one more: closed with the rest
        holder.close()
