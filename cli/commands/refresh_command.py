"""`kb refresh`: build what is stale (everything with --all), through Dagster in process.

A thin caller of `pipeline.refresh`: the no-op answer comes from `pipeline.fastpath`
without importing Dagster; only a stale warehouse imports the Dagster orchestration.
"""

from __future__ import annotations

import argparse
import time

from cli.common import UserError, add_kb_option, load_kb_or_exit, print_problems
from cli.progress import add_quiet_option, shown


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "refresh",
        help="materialize what is stale or missing (validation, indexes, code graph, warehouse)",
        description="Answers at once when the published build is current; otherwise runs the "
        "stale assets through Dagster in process. The last good warehouse stays readable on failure.",
    )
    add_kb_option(parser)
    parser.add_argument("--all", action="store_true", help="rebuild everything, stale or not")
    add_quiet_option(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from pipeline.fastpath import build_lock, staleness

    start = time.perf_counter()
    kb = load_kb_or_exit(args)
    data_dir = kb.config.data_dir
    with build_lock(data_dir):
        if not args.all:
            state = staleness(kb, data_dir)
            if state.up_to_date:
                print(
                    f"nothing to do: the warehouse is current ({len(kb.components())} components, "
                    f"KB {kb.content_hash}) — checked in {time.perf_counter() - start:.2f}s"
                )
                return 0
        with shown(args.quiet) as display:
            for reason in [] if args.all else state.reasons[:20]:
                display.say(f"stale: {reason}")
            from warehouse.disk_space import is_no_space, no_space_line, shortage

            short = shortage(data_dir)
            if short:
                raise UserError(short)
            display.say("loading the Dagster pipeline …")
            from pipeline.refresh import run_refresh

            display.say("running the stale assets through Dagster …")
            try:
                outcome = run_refresh(kb, data_dir, force=args.all, say=display.say)
            except Exception as exc:
                if is_no_space(exc):
                    raise UserError(no_space_line(data_dir)) from None
                raise
            if any(is_no_space(error) for error in outcome.errors):
                raise UserError(no_space_line(data_dir))
    print_problems(outcome.validation_errors)
    if not outcome.ok:
        for error in outcome.errors:
            print(error)
        failed = ", ".join(outcome.failed_checks) or "a step failed"
        if not (data_dir / "manifest.json").is_file():
            raise UserError(
                f"build stopped ({failed}); nothing is published in {data_dir} yet — "
                "fix the lines above and run `kb refresh` again"
            )
        raise UserError(
            f"build stopped ({failed}); the last good warehouse in {data_dir} is unchanged"
        )
    print(f"warehouse: {data_dir}")
    print(
        'next: kb status · kb sql "select kind, count(*) from nodes group by 1" · kb mcp · kb viewer'
    )
    return 0
