"""Dagster's consolidated SQLite event log, with its connections pooled.

`ConsolidatedSqliteEventLogStorage` makes a new SQLAlchemy engine and a new SQLite
connection for every read and write (NullPool): a one-component refresh stores ~100
events and reads the log ~200 more times, and opening those ~300 connections was a
third of its Dagster bookkeeping. Here one engine per storage keeps its connections
open (one per thread, SQLite's own rule); every transaction still begins and commits
as before, so other processes (the UI, `dagster dev`) see each event when it is stored.
The tables it has are remembered too (`has_table`).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from dagster._core.storage.event_log import ConsolidatedSqliteEventLogStorage
from dagster._core.storage.sqlite import SQLITE_BUSY_TIMEOUT_SECONDS
from sqlalchemy import create_engine
from sqlalchemy.pool import SingletonThreadPool


class PooledSqliteEventLogStorage(ConsolidatedSqliteEventLogStorage):
    """Selected by the dagster.yaml `kb refresh` writes (`pipeline.instance`)."""

    _lock = threading.Lock()

    @property
    def _engine(self):
        engine = self.__dict__.get("_pooled_engine")
        if engine is None:
            with self._lock:
                engine = self.__dict__.get("_pooled_engine")
                if engine is None:
                    engine = create_engine(
                        self._conn_string,
                        poolclass=SingletonThreadPool,
                        connect_args={
                            "timeout": SQLITE_BUSY_TIMEOUT_SECONDS,
                            "check_same_thread": False,
                        },
                    )
                    self.__dict__["_pooled_engine"] = engine
        return engine

    @contextmanager
    def _connect(self):
        with self._engine.connect() as conn, conn.begin():
            yield conn

    def has_table(self, table_name: str) -> bool:
        """Dagster asks before many reads (~40 times per refresh) and built a new engine and
        connection for each answer. A table, once there, stays (migrations only add), so a
        yes is remembered; a no is asked again."""
        seen = self.__dict__.setdefault("_tables_seen", set())
        if table_name in seen:
            return True
        with self._engine.connect() as conn:
            found = bool(self._engine.dialect.has_table(conn, table_name))
        if found:
            seen.add(table_name)
        return found

    def dispose(self):
        engine = self.__dict__.pop("_pooled_engine", None)
        if engine is not None:
            engine.dispose()
        super().dispose()
