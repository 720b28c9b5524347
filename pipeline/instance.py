"""The Dagster instance of a warehouse: its home folder, its dagster.yaml, and the
storage shortcuts a refresh takes (one consolidated SQLite event log without fsync, no
compute-log capture, migration scripts read once per process, partitions read once per
automation tick)."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from pathlib import Path

import dagster as dg

OUR_CONFIG = "# written by kb-graph (kb refresh): edit freely, then remove this line\n"


def _instance_yaml(home: Path) -> str:
    """One SQLite file for the whole event log: Dagster's default shards it per run,
    creating and migrating a new database for every run (a second per refresh here);
    its connections pooled (`pipeline.event_log`).
    No stdout/stderr capture per step: it starts `tail` and a watcher process for each
    step's two streams; the assets report through `context.log` and metadata instead."""
    return (
        OUR_CONFIG + "telemetry:\n  enabled: false\n"
        "event_log_storage:\n"
        "  module: pipeline.event_log\n"
        "  class: PooledSqliteEventLogStorage\n"
        f"  config:\n    base_dir: {json.dumps(str(home / 'history'))}\n"
        "compute_logs:\n"
        "  module: dagster._core.storage.noop_compute_log_manager\n"
        "  class: NoOpComputeLogManager\n"
    )


def dagster_home(data_dir: Path) -> Path:
    """`$DAGSTER_HOME` when set (tests, `dagster dev`), else `<data_dir>/dagster`, whose
    dagster.yaml we write (and rewrite while it is still ours and the folder moved)."""
    if os.environ.get("DAGSTER_HOME"):
        home = Path(os.environ["DAGSTER_HOME"])
        home.mkdir(parents=True, exist_ok=True)
        config = home / "dagster.yaml"
        if not config.exists():
            config.write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
        return home
    home = Path(data_dir) / "dagster"
    home.mkdir(parents=True, exist_ok=True)
    config = home / "dagster.yaml"
    wanted = _instance_yaml(home.resolve())
    text = config.read_text(encoding="utf-8") if config.exists() else None
    if text != wanted and (text is None or text.startswith(OUR_CONFIG)):
        config.write_text(wanted, encoding="utf-8")
    return home


def _no_fsync(dbapi_connection, _record) -> None:
    """The instance's SQLite files are a cache of run history (`kb refresh --all` rebuilds
    from the KB and repos): no fsync per event. Dagster opens a connection per event, and
    the commit + checkpoint fsyncs were most of a small run's time on a busy disk."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.execute("PRAGMA synchronous=OFF")


def _migration_scripts_read_once() -> None:
    """Dagster's three SQLite storages each ask alembic for their migration scripts when
    they open, and again to stamp a new database: every ask reads and executes the same
    ~90 script files (~0.3 s of a first build). The scripts do not change while this
    process runs, so alembic's script directory is made once per configuration and reused."""
    from alembic.script import ScriptDirectory

    if getattr(ScriptDirectory.from_config, "kb_graph_memo", False):
        return
    made: dict[tuple, ScriptDirectory] = {}
    read = ScriptDirectory.from_config

    def from_config(config) -> ScriptDirectory:
        ini = config.config_file_name  # each storage has its own copy of the same file
        key = (
            Path(ini).read_bytes() if ini else None,
            config.get_alembic_option("script_location"),
            repr(config.messaging_opts),
        )
        if key not in made:
            made[key] = read(config)
        return made[key]

    from_config.kb_graph_memo = True  # type: ignore[attr-defined]
    ScriptDirectory.from_config = from_config  # type: ignore[method-assign]


def open_instance(data_dir: Path) -> dg.DagsterInstance:
    from dagster._core.instance.ref import InstanceRef
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    if not event.contains(Engine, "connect", _no_fsync):
        event.listen(Engine, "connect", _no_fsync)
    _migration_scripts_read_once()
    return dg.DagsterInstance.from_ref(InstanceRef.from_dir(str(dagster_home(data_dir))))


@contextlib.contextmanager
def partitions_read_once(instance: dg.DagsterInstance):
    """The component partitions, read from storage once for the length of a tick.

    Partitions do not change during a tick, but Dagster's evaluation asks storage for
    them about 4 times per asset and condition (~200 SQLite connections at 46
    components): that was two thirds of a tick's time.
    """
    cache: dict[str, list[str]] = {}
    read = instance.get_dynamic_partitions

    def cached(partitions_def_name: str) -> list[str]:
        if partitions_def_name not in cache:
            cache[partitions_def_name] = read(partitions_def_name)
        return list(cache[partitions_def_name])

    instance.get_dynamic_partitions = cached  # type: ignore[method-assign]
    try:
        yield
    finally:
        del instance.get_dynamic_partitions


def event_log_identity(instance: dg.DagsterInstance) -> str | None:
    """The event log database file's device and inode: another instance (or a replaced
    one) has another. None for a storage that is not one SQLite file."""
    get_db_path = getattr(instance.event_log_storage, "get_db_path", None)
    try:
        stat = os.stat(get_db_path()) if get_db_path else None
    except OSError:
        return None
    return f"{stat.st_dev}:{stat.st_ino}" if stat else None
