"""The soak, shortened: bench/soak.py for a minute on the example, on SQLite.

The real UI (`uv run kb ui`), Debian's Chromium through Playwright on the lineage, assets,
partitions, runs and automation pages, commits handed to the refresh service by the
post-commit hook, the daemon's automation runs, MCP clients over stdio and `kb sql`, all
at once; the soak's own checks (no crash, no GraphQL error, no run left STARTED, the last
commit published, every answer answered) must all pass. The long runs (10 minutes, 46
components, 20 sessions, and PostgreSQL: `--storage postgres`) are
`uv run python bench/soak.py …` (docs/benchmarks.md); the PostgreSQL instance with the UI
and Celery workers is tests/pipeline/test_scale_out.py's, which keeps the suite within its
12 minutes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


def test_a_minute_of_real_use_keeps_every_process_up(tmp_path: Path) -> None:
    storage = "sqlite"
    out = tmp_path / "soak.json"
    argv = [sys.executable, "bench/soak.py", "--minutes", "1", "--storage", storage]
    argv += ["--commit-every", "15", "--tabs", "2", "--mcp-clients", "1", "--min-rate", "0"]
    # the waits for the last commit and runs bounded well inside the test's 600 s, so a
    # stuck run fails a named check with the soak's report instead of a bare timeout
    argv += ["--settle", "150", "--out", str(out)]
    run = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=570)
    report = json.loads(out.read_text())
    failed = [check for check, ok in report["checks"].items() if not ok]
    assert run.returncode == 0 and not failed, f"{failed}\n{run.stdout[-3000:]}{run.stderr[-2000:]}"
    assert report["page_loads"] > 0 and report["mcp_calls"] > 0 and report["sql_queries"] > 0
    assert report["commits"] >= 2 and report["runs"]
