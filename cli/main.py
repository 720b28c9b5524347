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
import importlib
import os
import pkgutil
import sys

import cli.commands as commands_pkg
from cli.common import UserError, resolve_kb_option


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kb",
        description="kb-graph: docs-as-code knowledge base and code context graph.",
        epilog="Start with `kb refresh` (builds the bundled example), then `kb status`, "
        '`kb sql "select kind, count(*) from nodes group by 1"` or `kb mcp`.',
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(commands_pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"cli.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
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
