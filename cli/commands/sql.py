"""`kb sql "SELECT …"`: read-only SQL over the published warehouse (never the build's DB)."""

from __future__ import annotations

import argparse
import json
import math
import sys

from cli.common import UserError, add_kb_option, data_dir_or_exit


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "sql", help="read-only SQL over the warehouse (tables: nodes, edges, docs, …)"
    )
    add_kb_option(parser)
    parser.add_argument(
        "query", help="one SELECT or WITH statement (or DESCRIBE/SUMMARIZE/SHOW TABLES)"
    )
    parser.add_argument("--project", help="only this project's partition (plus _global)")
    parser.add_argument("--json", action="store_true", help="print a JSON array of row objects")
    parser.add_argument("--limit", type=int, default=10_000, help="row cap (default 10000)")
    parser.set_defaults(handler=handle)


def format_table(columns: list[str], rows: list[tuple]) -> str:
    cells = [[("" if v is None else str(v)) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]

    def line(values: list[str]) -> str:
        return "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()

    out = [line(columns), line(["-" * w for w in widths])]
    out += [line(r) for r in cells]
    return "\n".join(out)


def handle(args: argparse.Namespace) -> int:
    from warehouse.query_guard import QueryRejected
    from warehouse.reader import GLOBAL, Warehouse, WarehouseMissing
    from warehouse.sql_forms import as_select
    from warehouse.sql_worker import shared_worker

    wh = Warehouse(data_dir_or_exit(args))
    try:
        partitions = wh.partitions()
    except WarehouseMissing as exc:
        raise UserError(str(exc)) from None
    if args.project:
        if args.project not in partitions:
            raise UserError(
                f"unknown project '{args.project[:80]}' — known: {', '.join(p for p in partitions if p != GLOBAL)}"
            )
        partitions = [args.project, GLOBAL]
    worker = shared_worker()
    try:
        columns, rows, truncated = worker.run(
            wh.build_dir, partitions, as_select(args.query), row_cap=args.limit, time_cap_s=60.0
        )
    except QueryRejected as exc:
        raise UserError(str(exc)) from None
    finally:
        worker.stop()
    if args.json:
        # NaN and ±Infinity are not JSON (RFC 8259): a consumer's parser rejects them, so
        # they are written as null, the value JSON has for "no number"
        records = [{c: _finite(v) for c, v in zip(columns, r, strict=True)} for r in rows]
        json.dump(records, sys.stdout, indent=1, default=str, allow_nan=False)
        print()
    else:
        print(format_table(columns, rows))
        print(
            f"({len(rows)} row{'s' if len(rows) != 1 else ''}{', truncated at --limit' if truncated else ''})"
        )
    return 0


def _finite(value: object) -> object:
    return None if isinstance(value, float) and not math.isfinite(value) else value
