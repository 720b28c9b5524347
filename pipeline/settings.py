"""The scale-out settings `kb refresh` reads from the environment (docs/scale.md), read
without importing Dagster: a cold refresh decides with them what to start before it."""

from __future__ import annotations

import os

EXECUTORS = ("in_process", "multiprocess", "celery")


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
