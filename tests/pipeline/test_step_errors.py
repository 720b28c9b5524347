"""A failed step is reported by the error our code raised and where, not by Dagster's wrapper."""

from __future__ import annotations

import dagster as dg

from pipeline.step_errors import step_error_line


def _broken_step() -> None:
    raise ValueError("no route to match")  # the line the report must name


@dg.asset
def broken() -> None:
    _broken_step()


def test_a_failed_step_names_the_inner_error_and_its_file_and_line() -> None:
    result = dg.materialize([broken], raise_on_error=False)
    failures = [e for e in result.all_events if e.is_step_failure]
    assert len(failures) == 1
    line = step_error_line(failures[0].step_failure_data.error)
    assert line.startswith("ValueError: no route to match"), line
    assert line.endswith("(at tests/pipeline/test_step_errors.py:11)"), line
    assert "Error occurred while executing" not in line
