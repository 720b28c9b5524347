"""Every long-running process of ours stops on SIGTERM and SIGINT, whoever started it.

A process inherits *ignored* signals from its parent across `exec` (only caught ones are
reset): a job started in the background by a non-interactive shell has SIGINT and SIGQUIT
ignored, `nohup` adds SIGHUP. Dagster then makes it worse: `capture_interrupts` (every
in-process run) and `setup_interrupt_handlers` (`dagster dev`, the webserver, the daemon)
set SIGTERM to whatever SIGINT's handler was — so a process started with SIGINT ignored
ignores SIGTERM too after its first run, and hands both to everything it spawns. That is
how the viewer of a test once ignored `terminate()` (`SigIgn 0x1005005`: SIGHUP, SIGQUIT,
SIGTERM, with Python's own SIGPIPE and SIGXFSZ): its pytest parent had run Dagster.

So each entry point calls `restore_stop_signals()` first: an ignored SIGINT gets Python's
KeyboardInterrupt back, an ignored SIGTERM its default (end the process). Handlers a
program installs itself afterwards (the MCP server, the refresh service) stay its own.
"""

from __future__ import annotations

import signal
import threading


def restore_stop_signals() -> None:
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread may set handlers (in-process calls from tests)
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_IGN:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
