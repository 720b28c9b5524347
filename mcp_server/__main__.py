"""`python -m mcp_server --kb DIR [--data-dir DIR]`: the kb-graph MCP server on stdio."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mcp_server", description=__doc__)
    parser.add_argument("--kb", type=Path, required=True, metavar="DIR", help="KB root folder")
    parser.add_argument(
        "--data-dir", type=Path, default=None, metavar="DIR", help="warehouse folder"
    )
    args = parser.parse_args(argv)
    serve(args.kb, args.data_dir)
    return 0


def serve(kb: Path, data_dir: Path | None = None) -> None:
    """Run the stdio server until the client closes stdin. Logs go to stderr only."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    from mcp_server.server import create_server

    server = create_server(kb.resolve(), data_dir.resolve() if data_dir else None)
    for signum in (signal.SIGTERM, signal.SIGINT):  # also when started with them ignored
        signal.signal(signum, lambda signum, frame: _stop_in_background(server))
    from mcp_server.transport import run

    try:
        run(server)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        _exit_cleanly(server)


def _stop_in_background(server: object) -> None:
    """SIGTERM: exit from a helper thread. Raising SystemExit in the main thread lands at an
    arbitrary point of the event loop, which printed exception groups and once hung at shutdown
    waiting for the stdin reader thread."""
    threading.Thread(target=_exit_cleanly, args=(server,), name="kb-sigterm").start()


def _exit_cleanly(server: object) -> None:
    """Close DuckDB before the interpreter tears down: a connection finalised at exit
    (or still in use by the prewarm thread) aborts the process with exit 134."""
    state = getattr(server, "state", None)
    # An answer in flight finishes first; else exit without closing: os._exit skips finalisers.
    if state is not None and state.lock.acquire(timeout=5):
        state.close()
        state.lock.release()
    from warehouse.sql_worker import shared_worker

    shared_worker().stop()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
