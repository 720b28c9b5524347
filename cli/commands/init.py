"""`kb init DIR`: scaffold a new KB."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from cli.common import UserError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("init", help="scaffold a new KB (kb.yaml, vocabulary, one project)")
    parser.add_argument("dir", type=Path, help="folder for the new KB (created if missing)")
    parser.add_argument("--project", default="my-project", help="id of the first project")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from kb.scaffold import scaffold
    from kb.validate import kb_today

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", args.project):
        raise UserError(f"project id '{args.project}' must be lowercase letters, digits and '-'")
    try:
        written = scaffold(args.dir, args.project, kb_today().isoformat())
    except (FileExistsError, OSError) as exc:
        raise UserError(str(exc)) from None
    for path in written:
        print(f"wrote {path}")
    print(_git_init(args.dir))
    print(
        f"next: add projects/{args.project}/<component>/component.md, then `kb refresh --kb {args.dir}`"
    )
    return 0


def _git_init(folder: Path) -> str:
    """A new KB is a git repo (so `kb hook install` can hook it), unless it already sits
    inside one; one line either way."""
    import subprocess

    from cli.hooks import git_toplevel

    top = git_toplevel(folder)
    if top is not None:
        return f"git: inside the existing repository {top} (no new one made)"
    try:
        subprocess.run(
            ["git", "init", "-q", str(folder)], check=True, capture_output=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"git: not initialised ({exc.__class__.__name__}) — run `git init {folder}` so `kb hook install` can hook it"
    return f"git: initialised a repository in {folder} (commit the KB there)"
