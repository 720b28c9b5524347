"""Where a refresh run's time goes: our assets' code, or Dagster's own bookkeeping.

    uv run python bench/run_split.py [--data-dir DIR]    # the latest run of that warehouse

Read from the run's event log (Dagster stamps each event when it is made). A gap between
two events belongs to our code when the later event is one Dagster makes right after our
code returns: `LOADED_INPUT` (our IO manager read a staged table), `STEP_OUTPUT` (the body of an
asset or a check ran up to its output), `HANDLED_OUTPUT` (our IO manager staged the
output) and a log line our asset wrote. Every other gap — planning,
run start and end, step start and success, input and materialization records — is
Dagster's. Each of our gaps also holds the write of the event before it (a few ms), so our
share is an upper bound and Dagster's a lower bound.

`bench/build.py` prints this split for the refresh handed to the refresh service: with
the tick and the source observations beside it, it shows how much of that refresh no
change to our code can remove.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# The events Dagster makes right after our code ran (see the module docstring): an asset's
# or a check's body yields each STEP_OUTPUT.
AFTER_OUR_CODE = {"LOADED_INPUT", "STEP_OUTPUT", "HANDLED_OUTPUT", "log"}


def split_of_events(events: list[tuple[float, str, str]]) -> dict:
    """(timestamp, step key, event type: "log" for a log line), in order -> the split."""
    ours = dagster = 0.0
    for (before, _, _), (at, _, kind) in zip(events, events[1:], strict=False):
        if kind in AFTER_OUR_CODE:
            ours += max(0.0, at - before)
        else:
            dagster += max(0.0, at - before)
    span = events[-1][0] - events[0][0] if events else 0.0
    return {"events": len(events), "span_s": span, "ours_s": ours, "dagster_s": dagster}


def latest_run_split(data_dir: Path) -> dict:
    """The split of the latest run of the warehouse at `data_dir`."""
    from pipeline.instance import open_instance

    instance = open_instance(Path(data_dir).resolve())
    runs = instance.get_runs(limit=1)
    if not runs:
        raise SystemExit(f"no run recorded for {data_dir}")
    events = [
        (
            e.timestamp,
            e.step_key or "",
            e.dagster_event.event_type_value if e.dagster_event else "log",
        )
        for e in instance.all_logs(runs[0].run_id)
    ]
    return split_of_events(events) | {"run_id": runs[0].run_id}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=Path("bench/work/data"))
    split = latest_run_split(ap.parse_args().data_dir)
    print(
        f"run {split['run_id'][:8]}: {split['events']} events over {split['span_s']:.2f}s — "
        f"our assets ≤ {split['ours_s']:.2f}s, Dagster's bookkeeping ≥ {split['dagster_s']:.2f}s"
    )


if __name__ == "__main__":
    main()
