"""The settings `kb refresh`, the refresh service, the UI and the workers read from the
environment (docs/scale.md, docs/team.md), read without importing Dagster: a cold refresh
decides with them what to start before it."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from urllib.parse import urlsplit

EXECUTORS = ("in_process", "multiprocess", "celery")
# The team instance: a PostgreSQL URL (postgresql+psycopg2://user:password@host:5432/db).
# Set, every process's dagster.yaml selects Dagster's PostgreSQL storage; unset, SQLite.
# The driver is named: SQLAlchemy 2.1 maps a bare postgresql:// to psycopg 3, and
# dagster-postgres speaks psycopg2 (its statements fail under psycopg 3).
POSTGRES_SCHEME = "postgresql+psycopg2://"
POSTGRES_URL_ENV = "KB_POSTGRES_URL"
_CREDENTIALS = re.compile(r"(://[^:/@\s]+):[^@\s]+@")  # `://user:password@` in a URL


def postgres_url() -> str | None:
    """The team instance's PostgreSQL URL, or None for the SQLite default."""
    return os.environ.get(POSTGRES_URL_ENV, "").strip() or None


def storage_error() -> str | None:
    """One line saying what is wrong with the instance setting, or None."""
    url = postgres_url()
    if url is None or url.startswith(POSTGRES_SCHEME):
        return None
    scheme = url.split("://", 1)[0] + "://" if "://" in url else "no scheme"
    return (
        f"{POSTGRES_URL_ENV} starts with {scheme} — "
        f"use {POSTGRES_SCHEME}USER:PASSWORD@HOST:5432/DATABASE (docs/team.md)"
    )


def postgres_unreachable(timeout_s: int = 5) -> str | None:
    """One line when the team instance's PostgreSQL server does not take a connection, or
    None (also for the SQLite default): said before Dagster loads, instead of Dagster's
    retries of a refused connection and its error after them."""
    url = postgres_url()
    if url is None or not url.startswith(POSTGRES_SCHEME):  # none, or storage_error()'s to say
        return None
    import psycopg2

    plain = "postgresql://" + url[len(POSTGRES_SCHEME) :]
    try:
        psycopg2.connect(plain, connect_timeout=timeout_s).close()
    except psycopg2.Error as exc:
        what = without_password((str(exc).strip().splitlines() or [type(exc).__name__])[0])
        host = urlsplit(plain).hostname or "?"
        return (
            f"{POSTGRES_URL_ENV}: cannot connect to PostgreSQL at {host}: {what} — start the "
            f"server or fix the URL (docs/team.md)"
        )
    return None


def without_password(text: str) -> str:
    """Text (an error message) with the password of any URL in it masked."""
    return _CREDENTIALS.sub(r"\1:***@", text)


def selected_executor() -> str | None:
    """The executor `KB_EXECUTOR` names, or None for the plain in-process refresh."""
    name = os.environ.get("KB_EXECUTOR", "in_process").strip() or "in_process"
    return None if name == "in_process" else name


def setting_error(executor: str) -> str | None:
    """One line saying what is wrong with the scale-out settings, or None."""
    if executor not in EXECUTORS:
        return f"KB_EXECUTOR={executor}: unknown executor — use one of {', '.join(EXECUTORS)}"
    if executor == "celery" and not os.environ.get("KB_CELERY_BROKER"):
        return "KB_EXECUTOR=celery needs KB_CELERY_BROKER — e.g. redis://127.0.0.1:6379/0"
    return None


# Whether the daemon of `kb ui` / `dagster dev` materializes stale assets by itself (the
# `kb_automation` sensor running by default), besides `kb refresh`: on or off.
UI_AUTOMATION_ENV = "KB_UI_AUTOMATION"


_OFF = ("off", "0", "false", "no")


def ui_automation(env: Mapping[str, str] | None = None) -> bool:
    """True unless KB_UI_AUTOMATION (in `env`, default this process's) says off."""
    value = (os.environ if env is None else env).get(UI_AUTOMATION_ENV, "on")
    return value.strip().lower() not in _OFF


def ui_automation_error() -> str | None:
    """One line when KB_UI_AUTOMATION is neither on nor off (`kb ui` refuses to start)."""
    value = os.environ.get(UI_AUTOMATION_ENV, "on").strip().lower()
    if value in ("on", "1", "true", "yes", "", *_OFF):
        return None
    return f"{UI_AUTOMATION_ENV}={value}: use on or off (or `kb ui --automation on|off`)"
