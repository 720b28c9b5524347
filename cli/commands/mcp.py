"""`kb mcp`: serve the kb-graph MCP server on stdio (for Claude Code, Gemini CLI, ...)."""

from __future__ import annotations

import argparse

from cli.common import add_kb_option


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "mcp",
        help="run the kb-graph MCP server on stdio (register it with `kb register`)",
        description="Serve the nine kb-graph tools over stdio. Reads the published warehouse "
        "only and reloads by itself when `kb refresh` republishes it.",
    )
    add_kb_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mcp_server.__main__ import serve  # lazy: the MCP SDK costs ~1 s to import

    serve(args.kb, args.data_dir)
    return 0
