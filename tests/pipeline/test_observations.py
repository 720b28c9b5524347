"""A cold `kb refresh` reports as observations only the source versions that moved since
the last report to the same instance, as the warm refresh service does."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg

from pipeline.instance import open_instance
from tests.support.portfolio import commit_to, refresh, tiny_portfolio


def _observed(data: Path) -> list[str]:
    """Partition of every component_versions observation in the instance, oldest first."""
    instance = open_instance(data)
    try:
        records = instance.fetch_observations(dg.AssetKey("component_versions"), limit=1000)
        return [r.partition_key for r in reversed(records.records)]
    finally:
        instance.dispose()


def test_a_cold_refresh_reports_only_the_component_that_moved(tmp_path: Path) -> None:
    kb, data = tiny_portfolio(tmp_path / "portfolio"), tmp_path / "data"
    refresh(kb, data, "--no-service")
    assert sorted(_observed(data)) == ["tiny/one", "tiny/two"]

    commit_to(kb, "two", "export const eight = 8;\n")
    result = refresh(kb, data, "--no-service")
    assert "extracting 1 stale component(s): tiny/two" in result.stdout
    assert _observed(data)[2:] == ["tiny/two"]

    shutil.rmtree(data / "dagster" / "history")  # a new event log has seen nothing
    commit_to(kb, "one", "export const nine = 9;\n")
    refresh(kb, data, "--no-service")
    assert sorted(_observed(data)) == ["tiny/one", "tiny/two"]


def test_after_a_forced_rebuild_dagster_sees_nothing_stale(tmp_path: Path) -> None:
    """`kb refresh --all` skips the automation ticks; the next tick must still take the
    rebuild in, requesting nothing (the commit before it included)."""
    from kb.loader import load_kb
    from pipeline.definitions import build_definitions
    from pipeline.refresh import stale_selection

    kb, data = tiny_portfolio(tmp_path / "portfolio"), tmp_path / "data"
    refresh(kb, data, "--no-service")
    commit_to(kb, "one", "export const ten = 10;\n")
    forced = refresh(kb, data, "--all", "--no-service")
    assert "one run:" in forced.stdout
    knowledge = load_kb(kb, data)
    defs = build_definitions(str(kb), str(data))
    instance = open_instance(data)
    try:
        assert stale_selection(defs, instance, data, kb=knowledge) == {}
    finally:
        instance.dispose()
