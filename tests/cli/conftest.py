"""The CLI tests share the foundation helpers (one-line failures, output) and the MCP
stdio client; both folders go on sys.path as the root conftest puts tests/ there."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
for folder in ("foundation", "mcp"):
    if str(TESTS / folder) not in sys.path:
        sys.path.insert(0, str(TESTS / folder))
