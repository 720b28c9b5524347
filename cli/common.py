"""What every `kb` subcommand shares: the one-line error, the --kb/--data-dir options,
and loading the KB (or only its config / data dir) or failing with one line.

Commands import from here, never from `cli.main`, so no command imports back from the
entry module.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from kb.model import KnowledgeBase


class UserError(Exception):
    """A problem the user can fix; printed as one line, exit code 1."""


def add_kb_option(parser: argparse.ArgumentParser, writes: bool = False) -> None:
    """--kb/--example/--data-dir; `writes`: the command writes into repos, so it never
    falls back to the bundled example without --example."""
    parser.add_argument(
        "--kb",
        type=Path,
        default=None,
        metavar="DIR",
        help="KB root folder (default: KB_ROOT, else the nearest kb.yaml upwards, "
        "else the KB a .kb-graph pointer file upwards names)",
    )
    parser.add_argument("--example", action="store_true", help="use the bundled example portfolio")
    parser.set_defaults(kb_writes=writes)
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="warehouse folder (default: <kb>/.kb or kb.yaml's data_dir)",
    )


def load_kb_or_exit(args: argparse.Namespace) -> KnowledgeBase:
    from kb.loader import KbNotFound, load_kb

    try:
        return load_kb(Path(args.kb), args.data_dir)
    except KbNotFound as exc:
        raise UserError(str(exc)) from None


def print_problems(problems, limit: int = 200) -> None:
    for problem in problems[:limit]:
        print(problem.render())
    if len(problems) > limit:
        print(f"… and {len(problems) - limit} more")


def config_or_exit(args: argparse.Namespace):
    """kb.yaml's settings (with --data-dir applied) without parsing the whole KB."""
    from kb.loader import KbNotFound, load_config

    try:
        config, _ = load_config(Path(args.kb), args.data_dir)
    except KbNotFound as exc:
        raise UserError(str(exc)) from None
    return config


def data_dir_or_exit(args: argparse.Namespace) -> Path:
    """The warehouse folder: --data-dir as given (no KB needed), else kb.yaml's."""
    if args.data_dir is not None:
        return Path(args.data_dir).resolve()
    return config_or_exit(args).data_dir


def resolve_kb_option(args: argparse.Namespace) -> None:
    """Fill args.kb by discovery (see cli/discovery.py) for commands that take --kb."""
    if not hasattr(args, "kb_writes"):
        return
    from cli.discovery import NoKbFound, resolve_kb

    try:
        # --data-dir alone names the warehouse: no notice about a KB the command won't read
        quiet = getattr(args, "data_dir", None) is not None
        args.kb = resolve_kb(args.kb, args.example, args.kb_writes, quiet=quiet)
    except NoKbFound as exc:
        raise UserError(str(exc)) from None
