"""`kb hook install|uninstall [--repo PATH]`: post-commit hooks that run `kb refresh`."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import UserError, add_kb_option, load_kb_or_exit


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "hook", help="install or remove git post-commit hooks that run `kb refresh`"
    )
    parser.add_argument("action", choices=["install", "uninstall"])
    parser.add_argument(
        "--repo", type=Path, help="only this repo (default: the KB repo and every component repo)"
    )
    add_kb_option(parser, writes=True)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from cli.hooks import git_toplevel, install, uninstall

    kb = load_kb_or_exit(args)
    folders = (
        [args.repo]
        if args.repo
        else [kb.config.root] + [c.repo_path for c in kb.components() if c.repo_path]
    )
    repos: list[Path] = []
    for folder in folders:
        top = git_toplevel(folder) if folder and folder.exists() else None
        if top is None:
            if args.repo:
                raise UserError(f"{folder} is not inside a git repository")
            print(
                f"skipped {folder}: not a git repository — `git init` it to refresh on its commits"
            )
            continue
        if top not in repos:
            repos.append(top)
    if not repos:
        raise UserError("no git repository found for the KB or its components — pass --repo PATH")
    served = {kb.config.data_dir.resolve()}  # the warehouses whose refresh service to stop
    for repo in repos:
        change = (
            install(repo, kb.config.root, kb.config.data_dir)
            if args.action == "install"
            else uninstall(repo)
        )
        print(f"{change.action}: {change.hook}")
        if change.data_dir is not None:
            served.add(change.data_dir.resolve())
    if args.action == "uninstall":
        from pipeline.handoff import stop_service

        for data_dir in sorted(served):
            if said := stop_service(data_dir):
                print(said)
    if args.action == "install":
        print(
            f"each commit now runs `kb refresh` in the background; log: {kb.config.data_dir / 'hook.log'}"
        )
    return 0
