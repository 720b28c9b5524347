"""The pooled event log answers Dagster's "is this table there?" like a fresh connection."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pipeline.event_log import PooledSqliteEventLogStorage


def test_has_table_sees_a_table_made_after_it_said_no(tmp_path: Path) -> None:
    storage = PooledSqliteEventLogStorage(str(tmp_path))
    try:
        assert storage.has_table("event_logs")  # made by the storage itself
        assert not storage.has_table("made_later")
        with sqlite3.connect(storage.get_db_path()) as conn:  # another process migrating
            conn.execute("CREATE TABLE made_later (id INTEGER)")
        assert storage.has_table("made_later")
        assert storage.has_table("event_logs")
    finally:
        storage.dispose()
