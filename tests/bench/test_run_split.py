"""bench/run_split.py: a run's time is our code's where Dagster records what our code just
did (an input read, an output yielded or staged, a log line), Dagster's elsewhere."""

from __future__ import annotations

import pytest

from bench.run_split import split_of_events


def test_a_run_timeline_splits_into_our_code_and_dagster_bookkeeping():
    events = [
        (0.00, "", "ASSET_MATERIALIZATION_PLANNED"),
        (0.10, "", "PIPELINE_START"),
        (0.12, "a", "STEP_START"),
        (0.42, "a", "log"),  # the asset's body wrote a line
        (0.50, "a", "STEP_OUTPUT"),
        (0.55, "a", "ASSET_MATERIALIZATION"),
        (0.75, "a", "HANDLED_OUTPUT"),  # the IO manager staged the output
        (0.80, "a", "STEP_SUCCESS"),
        (0.81, "b", "STEP_START"),
        (0.91, "b", "LOADED_INPUT"),
        (0.95, "b", "STEP_INPUT"),
        (1.00, "b", "STEP_OUTPUT"),
        (1.04, "b", "ASSET_CHECK_EVALUATION"),
        (1.10, "", "PIPELINE_SUCCESS"),
    ]
    split = split_of_events(events)
    assert split["events"] == 14
    assert split["span_s"] == pytest.approx(1.10)
    assert split["ours_s"] == pytest.approx(0.30 + 0.08 + 0.20 + 0.10 + 0.05)
    assert split["dagster_s"] == pytest.approx(1.10 - 0.73)
