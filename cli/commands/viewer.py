"""`kb viewer`: serve the force-directed graph viewer over the published warehouse."""

from __future__ import annotations

import argparse
import shlex

from cli.common import UserError, add_kb_option, data_dir_or_exit


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "viewer",
        help="serve the graph viewer (force-directed, per partition) in the browser",
        description="Serve the graph viewer over the published warehouse. It reads only; "
        "a republish shows up when the page is reloaded.",
    )
    add_kb_option(parser)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from viewer.server import ViewerError, serve

    data_dir = data_dir_or_exit(args)
    command = f"kb refresh --kb {shlex.quote(str(args.kb))}"
    if args.data_dir is not None:
        command += f" --data-dir {shlex.quote(str(args.data_dir))}"
    try:
        serve(data_dir, args.host, args.port, command)
    except ViewerError as exc:
        raise UserError(str(exc)) from None
    return 0
