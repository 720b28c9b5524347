"""Handing a refresh to the refresh service (`kb serve-refresh`), without importing Dagster.

The service listens on a Unix socket beside the warehouse (`refresh.sock`, or under the
temp dir when that path is too long for a socket). One JSON line asks for a refresh;
the service answers with JSON lines: `{"say": …}` progress, then one final result.
No service, a dead socket, or a service that asks to be restarted (its code or KB
differs) all mean the caller refreshes in process instead: the service is only ever
a faster path, never the only one.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

SOCKET = "refresh.sock"
SERVICE_LOG = "refresh-service.log"
SERVICE_LOCK = "refresh-service.lock"  # held by the running service, naming its pid
_MAX_SOCKET_PATH = 100  # sun_path is 108 bytes on Linux


def socket_path(data_dir: Path) -> Path:
    path = Path(data_dir).resolve() / SOCKET
    if len(str(path)) <= _MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"kb-refresh-{os.getuid()}-{digest}.sock"


def connect(data_dir: Path, wait: float = 0.0) -> socket.socket | None:
    """A connection to the service of `data_dir`, or None when none answers."""
    path, deadline = socket_path(data_dir), time.monotonic() + wait
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(str(path))
            return sock
        except OSError:
            sock.close()
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.05)


def start_service(kb_root: Path, data_dir: Path) -> None:
    """Start `kb serve-refresh` detached (its own session), logging beside the warehouse."""
    data_dir.mkdir(parents=True, exist_ok=True)
    kb_exe = Path(sys.executable).with_name("kb")
    command = [str(kb_exe), "serve-refresh", "--kb", str(kb_root), "--data-dir", str(data_dir)]
    with open(data_dir / SERVICE_LOG, "ab") as log:
        subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            close_fds=True,
        )


def _lines(sock: socket.socket) -> Iterator[dict]:
    with sock.makefile("r", encoding="utf-8") as reader:
        for line in reader:
            if line.strip():
                yield json.loads(line)


def hand_over(
    sock: socket.socket, request: dict, say: Callable[[str], None] = print
) -> dict | None:
    """Send one request; print its progress; the final answer, or None when the service
    cannot serve it (asked to restart, or went away): then refresh in process."""
    with sock:
        try:
            sock.sendall((json.dumps(request) + "\n").encode("utf-8"))
            for message in _lines(sock):
                if "say" in message:
                    say(message["say"])
                elif message.get("restart"):
                    say(f"refresh service: {message['restart']} — refreshing in process")
                    return None
                else:
                    return message
        except (OSError, ValueError):
            pass
    say("refresh service went away — refreshing in process")
    return None


def service_pid(data_dir: Path) -> int | None:
    """The pid of the refresh service serving `data_dir`, or None when none runs. The pid
    file counts only while its lock is held: a service that died leaves a stale number,
    which must never be signalled."""
    try:
        handle = open(Path(data_dir) / SERVICE_LOCK)  # noqa: SIM115 - closed below
    except OSError:
        return None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            text = handle.read().strip()
            return int(text) if text.isdigit() else None
        return None  # we got the lock: nobody holds it


def stop_service(data_dir: Path, wait: float = 10.0) -> str | None:
    """Ask the refresh service of `data_dir` to stop (SIGTERM; it finishes a refresh in
    progress first). One line saying what happened, or None when none was running."""
    pid = service_pid(data_dir)
    if pid is None:
        return None
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return None
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if service_pid(data_dir) is None:
            return f"stopped the refresh service (pid {pid}) of {data_dir}"
        time.sleep(0.1)
    return (
        f"asked the refresh service (pid {pid}) of {data_dir} to stop; it exits when its "
        "current refresh ends"
    )
