"""The refresh keeps Dagster's SQLite files open while its run writes them (one idle
connection each), so a writer's close does not checkpoint and drop the WAL every event."""

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from pipeline.sqlite_keepalive import wal_kept_open


def _wal_db(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute("pragma journal_mode=wal")
    conn.execute("create table events (n integer)")
    conn.commit()
    conn.close()


def _write_once(path: Path, n: int) -> None:
    """What Dagster's storage does per event: open, insert, commit, close."""
    conn = sqlite3.connect(path)
    conn.execute("insert into events values (?)", (n,))
    conn.commit()
    conn.close()


def test_a_writer_closing_keeps_the_wal_while_held_and_everything_closes_after(tmp_path):
    root = tmp_path / "dagster"
    index = root / "history" / "runs" / "index.db"
    _wal_db(index)
    wal = index.with_name("index.db-wal")
    _write_once(index, 0)
    assert not wal.exists()  # the last connection's close checkpointed and removed it
    with wal_kept_open(root, "run-1"):
        for n in range(1, 4):
            _write_once(index, n)
            assert wal.exists()  # a plain close: the held connection keeps the WAL
    assert not wal.exists()  # ours closed too: the last close checkpoints as before
    rows = sqlite3.connect(index).execute("select count(*) from events").fetchone()[0]
    assert rows == 4


def test_the_run_shard_is_held_once_dagster_creates_it(tmp_path):
    root = tmp_path / "dagster"
    shard = root / "history" / "runs" / "run-2.db"
    wal = shard.with_name("run-2.db-wal")
    with wal_kept_open(root, "run-2"):
        created = threading.Event()

        def create_later():
            time.sleep(0.1)  # after the block began: the run creates its shard
            _wal_db(shard)
            created.set()

        maker = threading.Thread(target=create_later)
        maker.start()
        maker.join()
        assert created.is_set()
        deadline = time.monotonic() + 10
        held = False
        while time.monotonic() < deadline and not held:
            _write_once(shard, 1)
            held = wal.exists()
            time.sleep(0.05)
        assert held
    assert not wal.exists()


def test_a_postgres_instance_has_nothing_to_hold(tmp_path):
    with wal_kept_open(None, "run-3"):
        pass  # no files, no thread
    assert list(tmp_path.iterdir()) == []


def test_watching_a_shard_being_created_never_drops_the_creators_locks(tmp_path):
    """A run's shard is still in rollback mode while Dagster creates its tables, and the
    run's own connection holds a lock on it. Watching for it must not cancel that lock
    (a plain open() and close() of the file would, for the whole process): another
    process must still find the database busy, or it could delete a WAL under a write."""
    shard = tmp_path / "dagster" / "history" / "runs" / "run-4.db"
    shard.parent.mkdir(parents=True)
    creator = sqlite3.connect(shard)
    creator.execute("create table events (n integer)")
    creator.commit()
    creator.execute("begin")
    creator.execute("select count(*) from events").fetchall()  # the creator's shared lock
    other = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=0); c.execute('begin exclusive')"
    with wal_kept_open(tmp_path / "dagster", "run-4"):
        time.sleep(20 * 0.02)  # the watcher looks at the shard many times meanwhile
        taken = subprocess.run(
            [sys.executable, "-c", other, str(shard)], capture_output=True, text=True
        )
    creator.rollback()
    creator.close()
    assert taken.returncode != 0 and "database is locked" in taken.stderr
