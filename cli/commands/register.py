"""`kb register <client>`: write an agent client's MCP config and the KB's AGENTS.md."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from cli.clients import CLIENTS
from cli.common import UserError, add_kb_option


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "register",
        help="register the KB's MCP server with Claude Code, Gemini CLI, Copilot CLI, "
        "VS Code, Cursor or Codex CLI",
        description="Merge an entry named after the KB (kb-<name>) into the client's MCP "
        "config (other servers, other KBs' entries included, are kept) and write AGENTS.md "
        "(layer-selection rules) plus the client's pointer file. With --target DIR the "
        "config and pointer go into that code repo, with a .kb-graph file naming the KB.",
    )
    parser.add_argument("client", choices=CLIENTS, help="which client to configure")
    parser.add_argument(
        "--target",
        type=Path,
        default=None,
        metavar="DIR",
        help="a code repo where the agent runs: write the client's project config there",
    )
    parser.add_argument(
        "--print", action="store_true", dest="print_only", help="print, do not write"
    )
    parser.add_argument(
        "--portable",
        action="store_true",
        help="for files a team commits: run `kb` from PATH and name the KB (and AGENTS.md) by "
        "paths relative to the project folder instead of this machine's absolute paths",
    )
    add_kb_option(parser, writes=True)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from cli.clients import (
        ClientConfigError,
        config_path,
        merged_config,
        portable_command,
        server_command,
    )
    from cli.clients import server_name as name_of
    from cli.discovery import POINTER_FILE
    from mcp_server.register import Planned, instruction_files, write

    kb = args.kb.resolve()
    if not (kb / "kb.yaml").is_file():
        raise UserError(f"{kb}: not a KB (no kb.yaml) — pass --kb DIR")
    target = args.target.resolve() if args.target else None
    if target is not None and not target.is_dir():
        raise UserError(f"--target {args.target}: no such folder — pass a code repo's folder")
    project = target or kb
    if args.portable:
        command, cmd_args = portable_command(kb, project, args.data_dir)
    else:
        command, cmd_args = server_command(kb, args.data_dir)
    cfg = config_path(args.client, project, target is not None)
    try:
        config = merged_config(args.client, cfg, name_of(kb), command, cmd_args)
    except ClientConfigError as exc:
        raise UserError(str(exc)) from None
    planned = [Planned(cfg, config), *instruction_files(args.client, kb, target, args.portable)]
    if target is not None:
        named = os.path.relpath(kb, target) if args.portable else str(kb)
        planned.append(Planned(target / POINTER_FILE, f"{named}\n"))
    if args.print_only:
        for item in planned:
            print(f"# {item.path}")
            print(item.content.rstrip("\n"))
            print()
        return 0
    write(planned)
    for item in planned:
        print(f"wrote {item.path}")
    print(f"server entry: {name_of(kb)} (`{' '.join([Path(command).name, *cmd_args])}`)")
    if args.portable:
        print(
            f"portable: `kb` must be on PATH where the client runs, and the client must start "
            f"the server in {project} (paths are relative to it)"
        )
    elif cfg.is_relative_to(project):  # a project file someone may commit
        print(
            f"note: {cfg.name} names this machine's absolute paths ({command}, {kb}); "
            f"for a file your team commits, run `kb register {args.client} --portable`"
        )
    return 0
