"""`kb validate`: every problem of the KB, one line each; exit 1 on any error."""

from __future__ import annotations

import argparse

from cli.common import add_kb_option, load_kb_or_exit, print_problems


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("validate", help="check the KB against kb-format and its vocabulary")
    add_kb_option(parser)
    parser.add_argument("--errors-only", action="store_true", help="hide warnings")
    parser.set_defaults(handler=handle)


def run_validation(kb):
    from kb.imports.store import import_problems
    from kb.validate import kb_today, validate_kb

    return validate_kb(kb, kb_today(), extra=import_problems(kb.config.root))


def handle(args: argparse.Namespace) -> int:
    kb = load_kb_or_exit(args)
    problems = run_validation(kb)
    if args.errors_only:
        problems = [p for p in problems if p.severity == "error"]
    print_problems(problems)
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    print(
        f"{len(kb.docs)} docs, {len(kb.projects)} projects, {len(kb.components())} components: "
        f"{errors} error(s), {warnings} warning(s)"
    )
    return 1 if errors else 0
