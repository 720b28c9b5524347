"""`kb import`: fetch the Confluence hubs and Drive folders kb.yaml names into `_imports/raw/`."""

from __future__ import annotations

import argparse

from cli.common import UserError, add_kb_option, config_or_exit
from cli.progress import add_quiet_option


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import",
        help="import Confluence/Drive pages named in kb.yaml (imports:) into _imports/raw/",
        description="Fetch every configured source (or one, --source confluence:<id>, "
        "drive:<folder>, or a whole system: confluence|drive). Only changed pages are "
        "re-fetched; credentials come from the env vars kb.yaml names; plaintext secrets are "
        "redacted before anything is written.",
    )
    add_kb_option(parser, writes=True)
    parser.add_argument("--source", default=None, metavar="S", help="one source key or system")
    add_quiet_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from kb.imports import import_sources, run_imports

    config = config_or_exit(args)
    sources = import_sources(config.imports)
    if not sources:
        print("no imports configured in kb.yaml (imports: confluence/drive) — nothing to do")
        return 0
    if args.source and not any(args.source in (k, k.partition(":")[0]) for k in sources):
        raise UserError(f"--source {args.source}: not one of {', '.join(sources)}")
    from cli.progress import shown

    with shown(args.quiet):
        results = run_imports(config.root, config.imports, args.source)
    for result in results:
        print(result.summary())
        for failure in result.failed:
            print(f"  failed {failure}")
    return 1 if any(r.failed and not r.fetched and not r.unchanged for r in results) else 0
