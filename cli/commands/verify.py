"""`kb verify DOC --against COMMIT`: record that a doc was checked against a commit."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import UserError, add_kb_option


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="mark a KB doc verified against a commit of its component's repo",
        description="Check that COMMIT exists in the component's repo, then set the doc's "
        "verification: status verified, verified_against, verified_at (today).",
    )
    add_kb_option(parser, writes=True)
    parser.add_argument("doc", type=Path, metavar="DOC", help="path of the doc (or KB-relative)")
    parser.add_argument("--against", required=True, metavar="COMMIT")
    parser.add_argument("--component", default=None, metavar="C", help="for project-level docs")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from cli.common import load_kb_or_exit
    from kb.imports.distil import DistilError, commit_exists, set_verification, verified_block

    kb = load_kb_or_exit(args)
    root = kb.config.root
    path = args.doc if args.doc.is_absolute() else Path.cwd() / args.doc
    if not path.is_file():
        path = root / args.doc
    try:
        rel = path.resolve().relative_to(root).as_posix()
    except ValueError:
        raise UserError(f"{args.doc}: not a file of the KB at {root}") from None
    doc = next((d for d in kb.docs if d.path == rel), None)
    if doc is None:
        raise UserError(f"{rel}: not a KB doc (no frontmatter, or not readable)")
    comp_id = (
        args.component
        or doc.component
        or (doc.frontmatter.get("id") if doc.kind == "component" else None)
    )
    comp = kb.projects.get(doc.project or "", None)
    comp = comp.components.get(str(comp_id)) if comp and comp_id else None
    if comp is None or comp.repo_path is None:
        raise UserError(f"{rel}: no component repo to check against — pass --component C")
    if not comp.repo_path.is_dir():
        raise UserError(f"{rel}: repo {comp.repo_path} does not exist here")
    commit = commit_exists(comp.repo_path, args.against)
    if commit is None:
        raise UserError(f"{args.against}: not a commit of {comp.key}'s repo ({comp.repo_path})")
    try:
        set_verification(path, verified_block(commit))
    except DistilError as exc:
        raise UserError(str(exc)) from None
    print(f"{rel}: verified against {commit} ({comp.key})")
    return 0
