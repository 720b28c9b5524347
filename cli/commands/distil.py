"""`kb distil`: write an unverified KB doc from a raw import, with `source:` provenance."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.common import UserError, add_kb_option


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "distil",
        help="turn a raw import (_imports/raw/<slug>) into an unverified KB doc",
        description="Write projects/<P>[/<C>]/<title>.md from a raw Confluence/Drive import, "
        "with source: [<system>:<id>] and verification: {status: unverified}. "
        "Never overwrites an existing doc.",
    )
    add_kb_option(parser, writes=True)
    parser.add_argument("raw_path", type=Path, metavar="RAW_PATH", help="_imports/raw/<slug>")
    parser.add_argument("--project", required=True, metavar="P")
    parser.add_argument("--component", default=None, metavar="C")
    parser.add_argument("--type", required=True, metavar="T", dest="doc_type", help="doc_type")
    parser.add_argument("--title", default=None, help="title (default: the source's title)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from cli.common import load_kb_or_exit
    from kb.imports.distil import DistilError, distil

    kb = load_kb_or_exit(args)
    if args.project not in kb.projects:
        raise UserError(f"--project {args.project}: no such project in the KB")
    if args.component and args.component not in kb.projects[args.project].components:
        raise UserError(f"--component {args.component}: not a component of {args.project}")
    allowed = kb.vocabulary.get("doc_type") or []
    if allowed and args.doc_type not in allowed:
        raise UserError(f"--type {args.doc_type}: not one of {', '.join(allowed)}")
    try:
        path = distil(
            kb.config.root, args.raw_path, args.project, args.doc_type, args.component, args.title
        )
    except DistilError as exc:
        raise UserError(str(exc)) from None
    print(f"wrote {path.relative_to(kb.config.root).as_posix()} (unverified)")
    return 0
