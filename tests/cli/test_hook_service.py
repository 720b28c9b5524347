"""`kb hook uninstall` also stops the refresh service the hook started: after it, nothing
of kb-graph keeps running for that warehouse."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from pipeline.handoff import socket_path
from tests.support.checks import output
from tests.support.portfolio import kb_cli
from tests.support.processes import start

KB = str(Path(sys.executable).with_name("kb"))


def test_uninstall_stops_the_refresh_service(example_kb: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    installed = kb_cli("hook", "install", "--kb", str(example_kb), "--data-dir", str(data))
    assert installed.returncode == 0, output(installed)
    service = start(
        [KB, "serve-refresh", "--kb", str(example_kb), "--data-dir", str(data)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while not socket_path(data).exists() and service.poll() is None:
        assert time.monotonic() < deadline, "the refresh service never opened its socket"
        time.sleep(0.1)

    removed = kb_cli("hook", "uninstall", "--kb", str(example_kb))  # data dir read from the hook
    assert removed.returncode == 0, output(removed)
    assert "removed:" in removed.stdout
    assert f"stopped the refresh service (pid {service.pid}) of {data.resolve()}" in removed.stdout
    assert service.wait(timeout=60) == 0
    assert not socket_path(data).exists()
    again = kb_cli("hook", "uninstall", "--kb", str(example_kb))
    assert again.returncode == 0 and "refresh service" not in again.stdout
