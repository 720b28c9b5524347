"""Long-running processes a test starts: each in its own process group, always stopped.

`start()` puts the process in a new session (its own process group, so nothing it spawns
outlives it by changing group) and remembers it; `stop_group()` sends SIGTERM to the
whole group, waits a grace period, then SIGKILLs the group. `running()` wraps both, and
the suite's autouse fixture (tests/conftest.py) stops whatever a test left running, so
no process leaks past the test that started it — even when the test fails halfway.

`ignoring_stop_signals(argv)` starts a command the way a shell that ignores SIGINT and
SIGTERM would (`trap '' INT TERM; exec …`): ignored dispositions survive `exec`, which is
how a background job or a parent that ran Dagster hands them down (vocab/stop_signals.py).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator

STOP_GRACE_S = 10.0
_LIVE: list[subprocess.Popen] = []


def ignoring_stop_signals(argv: list[str]) -> list[str]:
    return ["sh", "-c", "trap '' INT TERM; exec \"$@\"", "sh", *argv]


def start(argv: list[str], **popen: object) -> subprocess.Popen:
    proc = subprocess.Popen(argv, start_new_session=True, **popen)  # type: ignore[call-overload]
    _LIVE.append(proc)
    return proc


def live_processes() -> list[tuple[int, int, str]]:
    """(pid, process group, command line) of every live process (zombies count as gone)."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="utf-8") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry.name}/cmdline", "rb") as cmd:
                line = cmd.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if fields[0] != "Z":
            out.append((int(entry.name), int(fields[2]), line))
    return out


def group_alive(pgid: int) -> bool:
    """Whether any process of the group is still there (zombies count as gone)."""
    return any(group == pgid for _, group, _ in live_processes())


def stop_group(proc: subprocess.Popen, grace: float = STOP_GRACE_S) -> int | None:
    """SIGTERM the process's group, SIGKILL it after `grace` seconds; its exit code."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=grace)
    while group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    code = proc.wait()
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream:
            with contextlib.suppress(OSError):
                stream.close()
    with contextlib.suppress(ValueError):
        _LIVE.remove(proc)
    return code


@contextlib.contextmanager
def running(argv: list[str], **popen: object) -> Iterator[subprocess.Popen]:
    proc = start(argv, **popen)
    try:
        yield proc
    finally:
        stop_group(proc)


def live() -> set[int]:
    """The pids of the processes `start()` made that are still registered."""
    return {p.pid for p in _LIVE}


def stop_leftovers(keep: set[int] = frozenset()) -> list[str]:
    """Stop every registered process not in `keep` (those of longer-lived fixtures)."""
    left = [p for p in _LIVE if p.pid not in keep]
    for proc in left:
        stop_group(proc, grace=2.0)
    return [" ".join(map(str, p.args)) if isinstance(p.args, list) else str(p.args) for p in left]
