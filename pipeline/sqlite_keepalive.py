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
from contextlib import contextmanager, suppress
from pathlib import Path

_WAL = 2  # SQLite header bytes 18/19: the file format versions, 2 for a WAL database
_POLL_S = 0.02


def _is_wal(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            header = f.read(20)
    except OSError:
        return False
    return len(header) == 20 and header[18] == _WAL and header[19] == _WAL


class _Holder:
    def __init__(self, files: list[Path]) -> None:
        self.waiting = list(files)
        self.open: list[sqlite3.Connection] = []
        self.done = threading.Event()

    def take(self) -> None:
        """Open every waited-for file that exists and is a WAL database by now."""
        for path in list(self.waiting):
            if _is_wal(path):
                self.waiting.remove(path)
                with suppress(sqlite3.Error):  # a file being replaced: done without
                    conn = sqlite3.connect(path, check_same_thread=False)
                    self.open.append(conn)  # closed with the rest, whatever happens next
                    # one read maps the WAL index (a connection that never read does not
                    # count as open there); the read ends at once: idle, no lock held
                    conn.execute("select count(*) from sqlite_master").fetchall()

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
