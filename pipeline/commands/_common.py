"""Helpers shared by the subcommands: load the KB or fail with one line."""

from __future__ import annotations

import argparse
from pathlib import Path

from kb.model import KnowledgeBase


def load_kb_or_exit(args: argparse.Namespace) -> KnowledgeBase:
    from kb.loader import KbNotFound, load_kb
    from pipeline.cli import UserError

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
    from pipeline.cli import UserError

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
