"""Tool arguments checked before a tool runs; every error one short line.

The SDK's own validation error is four lines with a documentation URL, and a tool's
error may echo what it was given (`unknown project 'aaaa…'` at 100 KB). Here an
oversized argument is refused without echoing it, a pydantic error is condensed to
`kb_trace: max_depth must be >= 1 (got -1)`, and any error text is clipped to
`MAX_ERROR_CHARS` UTF-8 bytes (~130 tokens, inside the smallest budget).
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

MAX_ERROR_CHARS = 400
MAX_TEXT = 500  # characters of a name-like argument (project, node, kind, …), as resolve.py
LONG_TEXT = {"sql": 20_000, "task": 4_000, "query": 200}
MAX_LIST = 50


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def clip(text: str, limit: int = MAX_ERROR_CHARS) -> str:
    """One line of at most `limit` UTF-8 bytes (the token rule counts bytes: 400 bytes is
    ~130 tokens whether the text is ASCII or a CJK identifier echoed by DuckDB)."""
    line = " ".join(str(text).split())
    data = line.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return line
    return data[: limit - 3].decode("utf-8", "ignore") + "…"


def oversized(arguments: dict[str, Any]) -> str | None:
    """Why an argument is too big to even look at, or None."""
    for name, value in arguments.items():
        cap = LONG_TEXT.get(name, MAX_TEXT)
        if isinstance(value, str) and len(value) > cap:
            return f"{name} is {len(value)} characters (max {cap})"
        if isinstance(value, list):
            if len(value) > MAX_LIST:
                return f"{name} has {len(value)} items (max {MAX_LIST})"
            if any(isinstance(v, str) and len(v) > MAX_TEXT for v in value):
                return f"an item of {name} is over {MAX_TEXT} characters"
    return None


def condense(tool: str, exc: ValidationError) -> str:
    """One line per the first problem: which argument, what is wanted, what came."""
    errors = exc.errors(include_url=False)
    if not errors:
        return f"{tool}: invalid arguments"
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "function-after") or "arguments"
    message = str(first.get("msg", "invalid")).replace("Input should be", "must be")
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    if first.get("type") == "missing":
        return f"{tool}: {where} is required{more}"
    return clip(f"{tool}: {where} {message} (got {_show(first.get('input'))}){more}")
