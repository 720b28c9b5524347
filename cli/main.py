"""The `kb` command line.

Each subcommand lives in `cli/commands/<name>.py` with a `register(subparsers)`
function and is found by name, so adding one is adding a file. Subcommand modules
import heavy libraries (Dagster, the MCP SDK) inside their handlers, never at the top,
so `kb mcp`, `kb sql` and a no-op `kb refresh` start fast. Shared helpers live in
`cli/common.py`.

Exit codes: 0 success, 1 the input or the KB has problems (one line each), 2 usage.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import pkgutil
import sys

import cli.commands as commands_pkg
from cli.common import UserError, resolve_kb_option
from vocab.stop_signals import restore_stop_signals


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """Every subcommand, or only the one `argv` names (a no-op `kb refresh` then imports
    nothing it does not run; a name that is no command registers all, for the error)."""
    names = sorted(
        m.name for m in pkgutil.iter_modules(commands_pkg.__path__) if not m.name.startswith("_")
    )
    wanted = _module_of(argv, names)
    if wanted:
        parser, sub = _empty_parser()
        importlib.import_module(f"cli.commands.{wanted}").register(sub)
        if argv and argv[0] in sub.choices:
            return parser
    parser, sub = _empty_parser()
    for name in names:
        importlib.import_module(f"cli.commands.{name}").register(sub)
    return parser


def _empty_parser() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    parser = argparse.ArgumentParser(
        prog="kb",
        description="kb-graph: docs-as-code knowledge base and code context graph.",
        epilog="Start with `kb refresh` (builds the bundled example), then `kb status`, "
        '`kb sql "select kind, count(*) from nodes group by 1"` or `kb mcp`.',
    )
    return parser, parser.add_subparsers(dest="command", metavar="COMMAND", required=True)


def _module_of(argv: list[str] | None, names: list[str]) -> str | None:
    """The module of the command `argv` names (`serve-refresh` -> serve_refresh,
    `import` -> import_, `refresh` -> refresh_command), or None."""
    first = next((a for a in argv or [] if not a.startswith("-")), None)
    if first is None or argv[0] != first:
        return None
    base = first.replace("-", "_")
    return next((c for c in (base, base + "_", base + "_command") if c in names), None)


def main(argv: list[str] | None = None) -> int:
    restore_stop_signals()  # a background shell's ignored SIGINT/SIGTERM are not ours
    parser = build_parser(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    try:
        resolve_kb_option(args)
        code = int(args.handler(args) or 0)
        sys.stdout.flush()  # a closed pipe shows up here, not at interpreter exit
        return code
    except BrokenPipeError:
        # `kb status | head`: the reader has gone, so nothing more can be said to it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except UserError as exc:
        print(f"kb {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"kb {args.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        fix = _STORAGE_FIX.get(exc.errno or 0)
        if fix is None:
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"kb {args.command}: {where}{exc.strerror} — {fix}", file=sys.stderr)
        return 1


# A file system that refuses a write is the user's to fix, wherever in kb it surfaced:
# one line naming the path, not a traceback.
_STORAGE_FIX = {
    errno.EROFS: "the file system is read-only; pass --data-dir to a writable folder",
    errno.EACCES: "no permission to write there; fix its permissions or pass --data-dir",
    errno.EPERM: "no permission to write there; fix its permissions or pass --data-dir",
    errno.ENOSPC: "the disk is full; free space there or pass --data-dir to another disk",
    errno.EDQUOT: "the disk quota is used up; free space or pass --data-dir to another disk",
}


def run() -> None:
    """The installed `kb` script. After a command that loaded Dagster (a refresh), the
    interpreter's tear-down (freeing a few hundred MB of objects one by one) took ~0.5 s
    of a 3 s refresh; by then every file, database and lock is closed and the output is
    written, so the process exits at once. Lighter commands exit the usual way."""
    code = main()
    if "dagster" not in sys.modules:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError, ValueError):  # a closed pipe: nothing to say
            stream.flush()
    os._exit(code)
