"""The `kb` command line.

Each subcommand lives in `pipeline/commands/<name>.py` with a `register(subparsers)`
function and is found by name, so adding one is adding a file. Subcommand modules
import heavy libraries (Dagster, the MCP SDK) inside their handlers, never at the top,
so `kb mcp`, `kb sql` and a no-op `kb refresh` start fast.

Exit codes: 0 success, 1 the input or the KB has problems (one line each), 2 usage.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path

import pipeline.commands as commands_pkg
from vocab import DEFAULT_KB


class UserError(Exception):
    """A problem the user can fix; printed as one line, exit code 1."""


def add_kb_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kb",
        type=Path,
        default=DEFAULT_KB,
        metavar="DIR",
        help="KB root folder (default: the bundled example portfolio)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="warehouse folder (default: <kb>/.kb or kb.yaml's data_dir)",
    )


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
        module = importlib.import_module(f"pipeline.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except UserError as exc:
        print(f"kb {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"kb {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # `python -m pipeline.cli`: run the importable module's main
    from pipeline.cli import main as installed_main

    sys.exit(installed_main())
