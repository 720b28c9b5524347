"""`kb serve-refresh`: the warm refresh service behind `kb refresh` (see pipeline/service.py).

Started on demand by `kb refresh --service` (the post-commit hook); exits when idle.
"""

from __future__ import annotations

import argparse

from cli.common import add_kb_option, config_or_exit


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "serve-refresh",
        help="keep Dagster warm and run `kb refresh` requests for one warehouse (Unix socket)",
        description="One service per data dir. `kb refresh` hands its work here when it runs; "
        "the post-commit hook starts it on demand (`kb refresh --service`).",
    )
    add_kb_option(parser)
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=1800.0,
        metavar="SECONDS",
        help="exit after this long without a request (default 1800)",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from pipeline.service import serve

    config = config_or_exit(args)
    return serve(
        config.root, config.data_dir, args.idle_timeout, log=lambda m: print(m, flush=True)
    )
