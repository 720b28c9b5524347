"""`kb refresh`: build what is stale (everything with --all), through Dagster in process."""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import time

from pipeline.cli import UserError, add_kb_option
from pipeline.commands._common import load_kb_or_exit, print_problems


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "refresh",
        help="materialize what is stale or missing (validation, indexes, code graph, warehouse)",
        description="Answers at once when the published build is current; otherwise runs the "
        "stale assets through Dagster in process. The last good warehouse stays readable on failure.",
    )
    add_kb_option(parser)
    parser.add_argument("--all", action="store_true", help="rebuild everything, stale or not")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    kb = load_kb_or_exit(args)
    data_dir = kb.config.data_dir
    with build_lock(data_dir):
        return _refresh(args, kb, data_dir, start)


@contextlib.contextmanager
def build_lock(data_dir):
    """One build at a time per data dir (post-commit hooks can fire together)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / "refresh.lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("waiting for another kb refresh on this warehouse …", flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _refresh(args, kb, data_dir, start) -> int:
    if not args.all:
        from pipeline.fastpath import staleness

        state = staleness(kb, data_dir)
        if state.up_to_date:
            print(
                f"nothing to do: the warehouse is current ({len(kb.components())} components, "
                f"KB {kb.content_hash}) — checked in {time.perf_counter() - start:.2f}s"
            )
            return 0
        for reason in state.reasons[:20]:
            print(f"stale: {reason}")
    from pipeline.refresh import run_refresh
    from warehouse.disk_space import is_no_space, no_space_line, shortage
    from warehouse.staging import read_stage

    short = shortage(data_dir)
    if short:
        raise UserError(short)
    print("running the stale assets through Dagster …", flush=True)
    try:
        outcome = run_refresh(kb, data_dir, force=args.all, say=lambda m: print(m, flush=True))
    except Exception as exc:
        if is_no_space(exc):
            raise UserError(no_space_line(data_dir)) from None
        raise
    if any(is_no_space(error) for error in outcome.errors):
        raise UserError(no_space_line(data_dir))
    if "kb_validation" in outcome.failed_checks:
        problems = read_stage(data_dir, "kb_validation").get("problems")
        rows = problems.to_dicts() if problems is not None else []
        from kb.problems import Problem

        found = sorted(
            Problem(r["path"], r["line"] or 1, r["severity"], r["rule"], r["message"]) for r in rows
        )
        print_problems([p for p in found if p.severity == "error"])
    if not outcome.ok:
        for error in outcome.errors:
            print(error)
        failed = ", ".join(outcome.failed_checks) or "a step failed"
        raise UserError(
            f"build stopped ({failed}); the last good warehouse in {data_dir} is unchanged"
        )
    print(f"warehouse: {data_dir}")
    print(
        'next: kb status · kb sql "select kind, count(*) from nodes group by 1" · kb mcp · kb viewer'
    )
    return 0
