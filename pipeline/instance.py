"""The Dagster instance of a warehouse: its home folder and the dagster.yaml we write there.

Every process that reads the instance — `kb refresh`, the refresh service, `dagster dev`
(webserver and daemon), the Celery workers — loads this same dagster.yaml, so it selects
only Dagster's documented storage: `storage: sqlite:` (the zero-setup default, one
person, one machine) or `storage: postgres:` (a team, workers on several machines), with
the PostgreSQL URL read from the environment by Dagster itself (`KB_POSTGRES_URL`,
never written to a file). Nothing here subclasses or patches Dagster, SQLAlchemy or
alembic (tests/architecture/test_dagster_usage.py checks it).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from pipeline.settings import POSTGRES_URL_ENV, postgres_url, without_password

if TYPE_CHECKING:
    import dagster as dg

OUR_CONFIG = "# written by kb-graph (kb refresh): edit freely, then remove this line\n"
# Documented in Dagster's API docs: no stdout/stderr capture per step. The default starts
# `tail` and a watcher process for each step's two streams; the assets report through
# `context.log` and metadata instead.
NO_COMPUTE_LOGS = (
    "compute_logs:\n"
    "  module: dagster._core.storage.noop_compute_log_manager\n"
    "  class: NoOpComputeLogManager\n"
)


def instance_yaml(home: Path, postgres: bool) -> str:
    """The dagster.yaml of `home`: SQLite files under it, or the PostgreSQL database whose
    URL Dagster reads from `$KB_POSTGRES_URL` in every process that loads the instance."""
    if postgres:
        storage = f"storage:\n  postgres:\n    postgres_url:\n      env: {POSTGRES_URL_ENV}\n"
    else:
        storage = f"storage:\n  sqlite:\n    base_dir: {json.dumps(str(home))}\n"
    return OUR_CONFIG + "telemetry:\n  enabled: false\n" + storage + NO_COMPUTE_LOGS


def dagster_home(data_dir: Path) -> Path:
    """`$DAGSTER_HOME` when set (tests, `dagster dev`), else `<data_dir>/dagster`, whose
    dagster.yaml we write (and rewrite while it is still ours and the storage setting or
    the folder changed)."""
    if os.environ.get("DAGSTER_HOME"):
        home = Path(os.environ["DAGSTER_HOME"])
        home.mkdir(parents=True, exist_ok=True)
        config = home / "dagster.yaml"
        if not config.exists():
            config.write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
        return home
    home = Path(data_dir) / "dagster"
    write_instance_yaml(home)
    return home


def write_instance_yaml(home: Path, postgres: bool | None = None) -> Path:
    """Write our dagster.yaml into `home` unless a person has made it theirs; `postgres`
    defaults to whether `$KB_POSTGRES_URL` is set."""
    home.mkdir(parents=True, exist_ok=True)
    config = home / "dagster.yaml"
    postgres = postgres_url() is not None if postgres is None else postgres
    wanted = instance_yaml(home.resolve(), postgres)
    text = config.read_text(encoding="utf-8") if config.exists() else None
    if text != wanted and (text is None or text.startswith(OUR_CONFIG)):
        config.write_text(wanted, encoding="utf-8")
    return config


def open_instance(data_dir: Path) -> dg.DagsterInstance:
    import dagster as dg  # here: `kb ui` writes the dagster.yaml without importing Dagster

    return dg.DagsterInstance.from_config(str(dagster_home(data_dir)))


def sqlite_root(instance: dg.DagsterInstance) -> Path | None:
    """The base folder of a SQLite instance's files (Dagster's documented layout), None for
    PostgreSQL."""
    if "postgres" in type(instance.run_storage).__module__:
        return None
    return Path(instance.root_directory)


def event_log_identity(instance: dg.DagsterInstance) -> str | None:
    """Which instance this is, for memos kept beside it: the SQLite run database's device
    and inode (another instance, or a replaced one, has another; the layout is Dagster's
    documented one, `<base_dir>/history/runs.db`). None for PostgreSQL: nothing is memoised
    against a database server."""
    root = sqlite_root(instance)
    if root is None:
        return None
    try:
        stat = os.stat(root / "history" / "runs.db")
    except OSError:
        return None
    return f"{stat.st_dev}:{stat.st_ino}"


@contextmanager
def failed_if_crashed(instance: dg.DagsterInstance, run_id: str) -> Iterator[None]:
    """A run whose process raised (its storage failing under it, say) cannot log its own end:
    Dagster would show it STARTED for ever and the UI's runs page would wait on it. Mark it
    FAILURE where the storage takes the event, then let the error go on to the caller."""
    try:
        yield
    except Exception:
        with suppress(Exception):  # the storage that failed the run may refuse this too
            run = instance.get_run_by_id(run_id)
            if run is not None and not run.is_finished:
                instance.report_run_failed(run, "the refresh process failed; see its log")
        raise


def storage_failure_line(exc: BaseException, data_dir: Path) -> str | None:
    """One line for an error of Dagster's own storage (its SQLite files or the team's
    PostgreSQL) that stopped a refresh — what failed, where, what to do — or None when the
    error came from something else."""
    failed = _storage_error_in(exc)
    if failed is None:
        return None
    what = str(failed).strip().splitlines()[0] if str(failed).strip() else type(failed).__name__
    what = without_password(what)[:200]
    url = postgres_url()
    if url is not None:
        host = urlsplit(url).hostname or "?"
        return (
            f"Dagster's PostgreSQL instance failed: {what} — the last published warehouse "
            f"stays readable; check that the server at {host} is up and reachable "
            f"({POSTGRES_URL_ENV}, docs/team.md), then refresh again"
        )
    home = dagster_home(data_dir)
    return (
        f"{home}: Dagster's instance storage failed: {what} — the last published warehouse "
        f"stays readable; refresh again, and if it fails the same way, move the instance aside "
        f"(mv {home} {home}.damaged): it holds Dagster's run history only, and the next "
        f"refresh starts a new one"
    )


def _storage_error_in(exc: BaseException) -> BaseException | None:
    """The SQLite, SQLAlchemy or PostgreSQL driver error an exception is or was raised
    from, if any."""
    import sqlite3

    kinds: list[type] = [sqlite3.Error]
    with suppress(ImportError):
        import sqlalchemy.exc

        kinds.append(sqlalchemy.exc.SQLAlchemyError)
    with suppress(ImportError):
        import psycopg2

        kinds.append(psycopg2.Error)
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, tuple(kinds)):
            return current
        current = current.__cause__ or current.__context__
    return None
