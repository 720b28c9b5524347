"""Progress on long work: on a terminal `kb refresh` shows each component extracted
(n/N, its name, elapsed); piped it prints plain phase lines only; --quiet prints results."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.checks import output
from tests.support.portfolio import TODAY, kb_cli

KB = str(Path(sys.executable).with_name("kb"))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _on_a_terminal(*args: str, timeout: float = 600) -> tuple[int, str]:
    """Run `kb` with stdout and stderr on a pseudo-terminal, as in a user's shell."""
    env = {**os.environ, "KB_TODAY": TODAY, "TERM": "xterm-256color", "COLUMNS": "160"}
    env.pop("DAGSTER_HOME", None)
    main, child = pty.openpty()
    proc = subprocess.Popen([KB, *args], stdout=child, stderr=child, env=env)
    os.close(child)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            data = os.read(main, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(main)
    code = proc.wait(timeout=30)
    return code, ANSI.sub("", b"".join(chunks).decode("utf-8", "replace"))


@pytest.mark.slow
def test_refresh_on_a_terminal_shows_components_extracted(example_kb: Path) -> None:
    total = sum(1 for _ in example_kb.glob("projects/*/*/component.md"))
    code, text = _on_a_terminal("refresh", "--kb", str(example_kb), "--all")
    assert code == 0, text
    assert "components" in text and f"{total}/{total}" in text, text
    assert re.search(r"acme-shop/\w+", text) and re.search(r"\d:\d\d:\d\d", text), text
    assert "running the stale assets" in text  # the phase lines stay


@pytest.mark.slow
def test_refresh_piped_or_quiet_draws_no_progress(example_kb: Path) -> None:
    piped = kb_cli("refresh", "--kb", str(example_kb), "--all")
    assert piped.returncode == 0, output(piped)
    assert "running the stale assets" in piped.stdout
    assert "━" not in piped.stdout and not re.search(r"\d+/\d+ ", piped.stdout)
    cost = piped.stdout.strip().splitlines()[-1]  # the workers' own peak, not a parent's
    assert re.fullmatch(
        r"kb refresh: [\d.]+s wall, peak memory \d+ MB \(\+ extraction workers, ≤ \d+ MB each\)",
        cost,
    ), cost
    code, quiet = _on_a_terminal("refresh", "--kb", str(example_kb), "--all", "--quiet")
    assert code == 0, quiet
    assert "components" not in quiet and "running the stale assets" not in quiet
    assert "warehouse:" in quiet  # the result is still said
