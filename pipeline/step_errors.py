"""One line for a failed step: the error our code raised, where, not Dagster's wrapper.

Dagster wraps an asset's exception in `DagsterExecutionStepExecutionError` ("Error
occurred while executing op …"), which tells a person nothing; the cause chain of its
`SerializableErrorInfo` holds what went wrong and the stack says where."""

from __future__ import annotations

import re
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
_FRAME = re.compile(r'File "([^"]+)", line (\d+)')


def _innermost(error):
    while getattr(error, "cause", None) is not None:
        error = error.cause
    return error


def _where(error) -> str:
    """`path:line` of the last frame in kb-graph's own code, or ''."""
    for frame in reversed(error.stack or []):
        hit = _FRAME.search(frame)
        if hit and Path(hit[1]).is_relative_to(_ROOT) and ".venv" not in hit[1]:
            return f"{Path(hit[1]).relative_to(_ROOT).as_posix()}:{hit[2]}"
    return ""


def step_error_line(error) -> str:
    """`ValueError: max() arg is an empty sequence (at warehouse/segmatch.py:86)`."""
    inner = _innermost(error)
    first = (inner.message or "").strip().splitlines()[0] if inner.message else inner.cls_name
    if inner.cls_name and not first.startswith(inner.cls_name):
        first = f"{inner.cls_name}: {first}"
    where = _where(inner)
    return f"{first} (at {where})" if where else first
