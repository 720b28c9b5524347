"""Child process for the hostile repo file tests: extract one folder, report what came out.

A warm-up extraction of an empty folder loads the grammars first, so `seconds` is the time
spent on the folder itself; given a second folder (the same repo without the hostile file),
`extra` is how much longer the first one took. Run with an address-space limit and a timeout by the caller, so
a FIFO that blocks or a link to /dev/zero that is read shows as a failure, not a hung run.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import tempfile
import time

from extractors import extract_component


def main() -> None:
    with tempfile.TemporaryDirectory() as empty:
        extract_component("p", "warm", empty)
    started = time.perf_counter()
    facts = extract_component("p", "c", sys.argv[1])
    seconds = time.perf_counter() - started
    extra = seconds
    if len(sys.argv) > 2:
        started = time.perf_counter()
        extract_component("p", "c", sys.argv[2])
        extra = seconds - (time.perf_counter() - started)
    rows = [*facts.nodes, *facts.edges, *facts.unresolved, *facts.catalog]
    report = {
        "seconds": seconds,
        "extra": extra,
        "files": sorted({r.file for r in rows if r.file}),
        "names": sorted({getattr(r, "name", "") for r in rows}),
        "problems": [[p.path, p.line, p.rule, p.message] for p in facts.problems],
        "text": repr([dataclasses.astuple(r) for r in rows]),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
