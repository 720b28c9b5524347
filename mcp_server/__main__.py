"""`python -m mcp_server --kb DIR [--data-dir DIR]`: the kb-graph MCP server on stdio."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mcp_server", description=__doc__)
    parser.add_argument("--kb", type=Path, required=True, metavar="DIR", help="KB root folder")
    parser.add_argument(
        "--data-dir", type=Path, default=None, metavar="DIR", help="warehouse folder"
    )
    args = parser.parse_args(argv)
    serve(args.kb, args.data_dir)
    return 0


def serve(kb: Path, data_dir: Path | None = None) -> None:
    """Run the stdio server until the client closes stdin. Logs go to stderr only."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    from mcp_server.server import create_server

    server = create_server(kb.resolve(), data_dir.resolve() if data_dir else None)
    server.run("stdio")


if __name__ == "__main__":
    sys.exit(main())
