"""`kb ui`: the Dagster UI (webserver + daemon) on the instance `kb refresh` uses."""

from __future__ import annotations

import argparse
import os
import sys

from cli.common import UserError, add_kb_option, config_or_exit


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "ui",
        help="run the Dagster UI (dagster dev) on this KB's instance",
        description="Start `dagster dev` for this KB: the asset graph, stale assets, runs "
        "and automation, on the same Dagster instance as `kb refresh` (SQLite, or the "
        "PostgreSQL of KB_POSTGRES_URL — docs/team.md).",
    )
    add_kb_option(parser)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=3000, help="port (default 3000)")
    parser.add_argument(
        "--automation",
        choices=["on", "off"],
        default=None,
        help="whether the UI's daemon materializes stale assets by itself besides `kb refresh` "
        "(default on, or KB_UI_AUTOMATION)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from pipeline.ui import describe, ui_launch

    config = config_or_exit(args)
    try:
        launch = ui_launch(config.root, config.data_dir, args.host, args.port, args.automation)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    print(describe(launch, args.host, args.port), file=sys.stderr, flush=True)
    sys.stdout.flush()
    os.execve(launch.argv[0], launch.argv, launch.env)
    return 0  # not reached
