"""`kb context "task"`: the doc context broker from the command line (same as kb_context)."""

from __future__ import annotations

import argparse
import shlex

from cli.common import UserError, add_kb_option, data_dir_or_exit

BUCKET_CHOICES = ("imports", "root", "docs", "skills", "meta")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "context",
        help="the Markdown sections that matter for a task, ranked, within a token budget",
        description="Search the KB's docs and every component repo's own Markdown (BM25, "
        "Porter stemming) and print the best sections for TASK, each with path, heading path, "
        "line range and why it was picked, never more than --max-tokens.",
    )
    parser.add_argument("task", help='what you are about to do, e.g. "rotate the zendesk token"')
    parser.add_argument("--max-tokens", type=int, default=8000, metavar="N", help="default 8000")
    parser.add_argument("--project", default=None, metavar="P", help="only this project's docs")
    parser.add_argument(
        "--exclude-bucket",
        action="append",
        default=[],
        choices=BUCKET_CHOICES,
        metavar="B",
        help=f"leave out a bucket ({', '.join(BUCKET_CHOICES)}); repeatable",
    )
    parser.add_argument(
        "--and-only",
        action="store_true",
        help="only sections matching ALL significant words (OR only when AND finds nothing); "
        "default: AND matches first, then ANY-word matches fill the remaining budget",
    )
    add_kb_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from doc_context.search import search_context
    from warehouse.reader import Warehouse, WarehouseMissing

    if args.max_tokens < 1:
        raise UserError("--max-tokens must be at least 1")
    warehouse = Warehouse(data_dir_or_exit(args))
    try:
        pack = search_context(
            warehouse,
            args.task,
            args.max_tokens,
            args.project,
            args.exclude_bucket,
            or_fill=not args.and_only,
        )
    except WarehouseMissing:
        raise UserError(
            f"no warehouse built yet — run `kb refresh --kb {shlex.quote(str(args.kb))}` first"
        ) from None
    print(pack.render(), end="")
    return 0
