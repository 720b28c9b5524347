"""Build a KB with the real `kb refresh` and read what it published through `kb sql --json`
(the scorer sees only what an analyst sees)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from bench.realworld_score.graph import Rows

KB_EXE = str(Path(sys.executable).with_name("kb"))


def kb(*args: str) -> str:
    done = subprocess.run([KB_EXE, *args], capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-12:])
        raise SystemExit(f"kb {args[0]} failed (exit {done.returncode}):\n{tail}")
    return done.stdout


def build(kb_root: Path) -> float:
    t = time.perf_counter()
    kb("refresh", "--kb", str(kb_root))
    return time.perf_counter() - t


def sql(kb_root: Path, query: str) -> list[dict]:
    return json.loads(
        kb("sql", "--kb", str(kb_root), "--json", "--limit", "1000000", query) or "[]"
    )


def published_rows(kb_root: Path) -> Rows:
    def owner(col: str) -> str:
        return f"regexp_extract({col}, '^[^/:]+')"

    return Rows(
        nodes=sql(
            kb_root,
            "select id, project, component, kind, name, file, line, attrs "
            "from nodes where kind in ('route', 'http_call')",
        ),
        calls=sql(kb_root, "select src, dst, attrs from edges where type = 'CALLS'"),
        coverage=sql(kb_root, "select project, component, package, status, warning from coverage"),
        leaks=sql(
            kb_root,
            f"select src, dst, type from edges where {owner('src')} <> {owner('dst')} "
            f"and '_global' not in ({owner('src')}, {owner('dst')})",
        ),
    )
