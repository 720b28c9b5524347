"""Property-based fuzzing (hypothesis), bounded for the quick tier; `bench/fuzz.py` runs
the same `PROPERTIES` longer: any frontmatter parses or gets one located line, any KB file
tree validates without crashing, any kb_sql input is answered or refused and reads no
other file, credentials in any mix of text are redacted."""

from __future__ import annotations

from pathlib import Path

import pytest
from fuzz_props import PROPERTIES, Property
from hypothesis import HealthCheck, given, settings

QUICK = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("prop", PROPERTIES, ids=lambda p: p.name)
def test_generated_cases_keep_the_property(prop: Property, tmp_path: Path) -> None:
    check = prop.check_in(tmp_path)

    @settings(QUICK, max_examples=prop.quick)
    @given(prop.cases)
    def holds(case) -> None:
        check(case)

    holds()
