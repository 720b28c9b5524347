"""The synthetic two-project warehouse of tests/mcp, and process helpers."""

from __future__ import annotations

from pathlib import Path

import mcp_synthetic  # noqa: E402

from tests.support.mcp_stdio import StdioClient  # noqa: E402

__all__ = ["StdioClient", "mcp_synthetic", "tree_rss_mb"]


def tree_rss_mb(pid: int) -> int:
    """Resident memory of a process and all its descendants, in MB."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += int(status.split("VmRSS:")[1].split()[0]) // 1024
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except (OSError, IndexError):
            continue
        todo.extend(int(c) for c in children)
    return total
