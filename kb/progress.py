"""A process-wide progress sink: long loops (extraction, imports) report, the `kb` command
line shows it (with `rich`, on a terminal only). Nothing reports anywhere unless a sink
is set, so Dagster runs, tests and the MCP server are untouched.

Events: `("extract", {"total": N})` before a batch of components, then
`("extracted", {"key": "project/component", "reused": bool})` per component;
`("page", {"source": "confluence:98000", "name": slug, "fetched": bool})` per import page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Sink = Callable[[str, dict[str, Any]], None]
_sink: Sink | None = None


def set_sink(sink: Sink | None) -> Sink | None:
    """Install `sink` (None removes it); returns the previous one to restore."""
    global _sink
    previous, _sink = _sink, sink
    return previous


def report(event: str, **fields: Any) -> None:
    if _sink is not None:
        _sink(event, fields)
