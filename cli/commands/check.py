"""`kb check`: validation plus "are the committed indexes what the KB generates?" (for CI)."""

from __future__ import annotations

import argparse

from cli.common import add_kb_option, load_kb_or_exit, print_problems


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "check", help="fail when the KB has errors or its generated indexes are out of date"
    )
    add_kb_option(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from cli.commands.validate import run_validation
    from kb.indexes import stale_indexes

    kb = load_kb_or_exit(args)
    errors = [p for p in run_validation(kb) if p.severity == "error"]
    print_problems(errors)
    stale = stale_indexes(kb)
    for rel in stale:
        print(
            f"{rel}:1: error: out of date with the KB — run `kb refresh --kb {args.kb}` and commit it [index-stale]"
        )
    if errors or stale:
        print(f"kb check: {len(errors)} error(s), {len(stale)} stale index file(s)")
        return 1
    print(
        f"kb check: ok ({len(kb.docs)} docs; index/projects.yaml and index/decisions.md are current)"
    )
    return 0
