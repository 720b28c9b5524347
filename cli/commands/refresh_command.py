"""`kb refresh`: build what is stale (everything with --all), through Dagster.

A thin caller of `pipeline.refresh`. When a refresh service runs for this data dir
(`kb serve-refresh`; `--service` starts it, as the post-commit hook does), the whole
request goes to it, "nothing stale" included. Otherwise the no-op answer comes from
`pipeline.fastpath` without importing Dagster, and a stale warehouse is built in process
(or by a service `--service` starts). Every refresh ends with one line: wall time and
peak memory.
"""

from __future__ import annotations

import argparse
import sys
import time

from cli.common import UserError, add_kb_option, config_or_exit, load_kb_or_exit
from cli.progress import add_quiet_option, shown
from vocab.memory import imports_without_gc, peak_rss_mb


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "refresh",
        help="materialize what is stale or missing (validation, indexes, code graph, warehouse)",
        description="Hands the request to the refresh service when one runs; otherwise "
        "answers at once when the published build is current, or runs the stale assets "
        "through Dagster in process. The last good warehouse stays readable on failure.",
    )
    add_kb_option(parser)
    parser.add_argument("--all", action="store_true", help="rebuild everything, stale or not")
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--service",
        action="store_true",
        help="start the refresh service when none runs and hand the work to it (the hook's way)",
    )
    how.add_argument(
        "--no-service", action="store_true", help="refresh in this process even if a service runs"
    )
    parser.add_argument("--profile", action="store_true", help="print the time of each phase")
    add_quiet_option(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    start = time.perf_counter()
    cost: dict = {}
    try:
        return _refresh(args, start, cost)
    finally:
        if cost.get("loaded"):  # a KB that does not load stays one line
            print(_cost_line(start, cost), flush=True)


def _cost_line(start: float, cost: dict) -> str:
    own = peak_rss_mb()
    where = f"peak memory {own:.0f} MB"
    extraction = sys.modules.get("assets.extraction")  # loaded only when Dagster ran here
    workers = getattr(extraction, "worker_peak_mb", 0.0)
    if "service_peak_mb" in cost:
        where = f"refresh service, peak memory {cost['service_peak_mb']:.0f} MB (this client {own:.0f} MB)"
    elif workers:
        where += f" (+ extraction workers, ≤ {workers:.0f} MB each)"
    return f"kb refresh: {time.perf_counter() - start:.2f}s wall, {where}"


def _refresh(args: argparse.Namespace, start: float, cost: dict) -> int:
    from pipeline.fastpath import build_lock, kb_fingerprint, quick_staleness, staleness
    from pipeline.handoff import connect
    from pipeline.phases import Phases

    phases = Phases(start)
    config = config_or_exit(args)
    cost["loaded"] = True
    data_dir, kb, quick = config.data_dir, None, None
    # A running refresh service answers the whole request, "nothing stale" included: the
    # check below would only repeat what it does first (~0.15 s of each handed-over refresh).
    running = None if args.no_service else connect(data_dir)
    if running is not None:
        phases.lap("connect to refresh service")
        return _handed_over(args, config, phases, running, cost)
    if not args.all:
        with build_lock(data_dir):
            quick = quick_staleness(config)
        for line in quick[0].missing if quick else []:
            print(line)
        if quick and quick[0].up_to_date:
            print(
                f"nothing to do: the warehouse is current ({quick[1]} components, "
                f"KB {quick[2]}) — checked in {time.perf_counter() - start:.2f}s"
            )
            return 0
    reasons: list[str] = quick[0].reasons[:20] if quick else []
    if quick is None:  # the KB changed (or --all): parse it
        seen = kb_fingerprint(config.root)
        kb = load_kb_or_exit(args)
        phases.lap("load KB")
        if not args.all:
            with build_lock(data_dir):
                state = staleness(kb, data_dir, seen)
            for line in state.missing:
                print(line)
            if state.up_to_date:
                print(
                    f"nothing to do: the warehouse is current ({len(kb.components())} "
                    f"components, KB {kb.content_hash}) — checked in "
                    f"{time.perf_counter() - start:.2f}s"
                )
                return 0
            reasons = state.reasons[:20]
    phases.lap("no-op check")
    with shown(args.quiet) as display:
        for reason in reasons:
            display.say(f"stale: {reason}")
        from warehouse.disk_space import shortage

        short = shortage(data_dir)
        if short:
            raise UserError(short)
        from pipeline.settings import postgres_unreachable, storage_error

        if wrong := storage_error() or postgres_unreachable():  # KB_POSTGRES_URL (docs/team.md)
            raise UserError(wrong)
        answer = None if args.no_service else _via_service(args, config, phases, display)
        if answer is None:
            kb = kb or load_kb_or_exit(args)
            validation = _validate_first(kb, data_dir, phases)
            if validation:  # stopped before Dagster loads
                ok, errors, failed = False, [], ["kb_validation"]
            else:
                ok, errors, failed, validation = _build(args, kb, data_dir, phases, display)
    if answer is not None:
        return _answered(args, answer, data_dir, cost)
    return _report(ok, errors, failed, validation, data_dir)


def _validate_first(kb, data_dir, phases) -> list[str]:
    """The KB's errors when it has any: the refresh stops before Dagster loads or a
    component is extracted, with the lines the run's validation check would give."""
    from pipeline.prevalidate import errors_before_build

    errors = errors_before_build(kb, data_dir)
    phases.lap("validate")
    return [p.render() for p in errors]


def _build(args, kb, data_dir, phases, display) -> tuple[bool, list, list, list[str]]:
    """The stale assets run through Dagster in this process: (ok, errors, failed checks,
    validation lines)."""
    from pipeline.ahead import extraction_ahead
    from pipeline.fastpath import build_lock
    from warehouse.disk_space import is_no_space, no_space_line

    with build_lock(data_dir), extraction_ahead(kb, data_dir) as ahead:
        phases.lap("extraction ahead")
        if ahead:
            display.say(
                f"parsing {len(ahead)} component(s) in worker processes while Dagster loads …"
            )
        display.say("loading the Dagster pipeline …")
        with imports_without_gc():
            from pipeline.refresh import run_refresh

        phases.lap("import Dagster + pipeline")
        display.say("running the stale assets through Dagster …")
        try:
            outcome = run_refresh(kb, data_dir, args.all, display.say, phases)
        except Exception as exc:
            if is_no_space(exc):
                raise UserError(no_space_line(data_dir)) from None
            from pipeline.instance import storage_failure_line

            if line := storage_failure_line(exc, data_dir):
                raise UserError(line) from None
            raise
    if args.profile:
        display.say(phases.render())
    errors = outcome.errors
    if any(is_no_space(error) for error in errors):
        raise UserError(no_space_line(data_dir))
    validation = [p.render() for p in outcome.validation_errors]
    return outcome.ok, errors, outcome.failed_checks, validation


def _handed_over(args, config, phases, sock, cost: dict) -> int:
    """The whole refresh by the running service; in process when it cannot serve it."""
    from warehouse.disk_space import shortage

    short = shortage(config.data_dir)
    if short:
        sock.close()
        raise UserError(short)
    with shown(args.quiet) as display:
        answer = _via_service(args, config, phases, display, sock)
    if answer is not None:
        return _answered(args, answer, config.data_dir, cost)
    args.no_service = True  # the service asked to restart or went away: this process builds
    return _refresh(args, time.perf_counter(), cost)


def _answered(args, answer: dict, data_dir, cost: dict) -> int:
    """The service's answer reported as an in-process refresh reports its outcome."""
    from warehouse.disk_space import is_no_space, no_space_line

    cost["service_peak_mb"] = answer.get("peak_mb", 0)
    if args.profile:
        phases = answer["phases"].items()
        print("phases (service): " + " · ".join(f"{n} {s:.2f}s" for n, s in phases))
    ok, errors = answer.get("rc", 1) == 0, answer.get("errors", [])
    failed, validation = answer.get("failed_checks", []), answer.get("validation", [])
    if any(is_no_space(error) for error in errors):
        raise UserError(no_space_line(data_dir))
    return _report(ok, errors, failed, validation, data_dir)


def _via_service(args, config, phases, display, sock=None) -> dict | None:
    """The refresh service's answer, or None when there is none (or it cannot serve)."""
    from pipeline.handoff import connect, hand_over, service_pid, start_service

    sock = sock or connect(config.data_dir)
    if sock is None and args.service:
        if service_pid(config.data_dir) is None:  # one is starting: never start a second
            start_service(config.root, config.data_dir)
        sock = connect(config.data_dir, wait=30.0)
    if sock is None:
        return None
    phases.lap("connect to refresh service")
    display.say("handing over to the refresh service …")
    request = {"kb": str(config.root), "all": bool(args.all)}
    answer = hand_over(sock, request, display.say)
    phases.lap("refresh service")
    return answer


def _report(ok: bool, errors, failed_checks, validation: list[str], data_dir) -> int:
    for line in validation[:200]:
        print(line)
    if len(validation) > 200:
        print(f"… and {len(validation) - 200} more")
    if not ok:
        for error in errors:
            print(error)
        failed = ", ".join(failed_checks) or "a step failed"
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
