"""`kb register <client>`: write an agent client's MCP config and the KB's AGENTS.md."""

from __future__ import annotations

import argparse

from cli.common import UserError, add_kb_option

CLIENTS = ("claude-code", "gemini", "copilot", "vscode")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "register",
        help="register the kb-graph MCP server with Claude Code, Gemini CLI, Copilot CLI or VS Code",
        description="Merge the kb-graph server into the client's MCP config (other servers are "
        "kept) and write AGENTS.md (layer-selection rules) plus the client's pointer file.",
    )
    parser.add_argument("client", choices=CLIENTS, help="which client to configure")
    parser.add_argument(
        "--print", action="store_true", dest="print_only", help="print, do not write"
    )
    add_kb_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mcp_server.register import RegisterError, plan, write

    kb = args.kb.resolve()
    try:
        planned = plan(args.client, kb, args.data_dir)
    except RegisterError as exc:
        raise UserError(str(exc)) from None
    if args.print_only:
        for item in planned:
            print(f"# {item.path}")
            print(item.content.rstrip("\n"))
            print()
        return 0
    write(planned)
    for item in planned:
        print(f"wrote {item.path}")
    return 0
