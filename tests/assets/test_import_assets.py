"""The Dagster side: one partition per source from kb.yaml, a schedule from its cron, a
failing source failing only its own partition, metadata saying what was fetched."""

from __future__ import annotations

import datetime as dt

import dagster as dg
import pytest
import yaml

from assets.resources import KbResource
from pipeline.schedules import build_import_defs
from tests.support.import_fakes import imports_config


def _kb(tmp_path, confluence, drive, schedule="0 6 * * 1-5"):
    root = tmp_path / "kb"
    root.mkdir()
    imports = imports_config(confluence, drive, hubs=("1", "2"))
    imports["schedule"] = schedule
    (root / "kb.yaml").write_text(yaml.safe_dump({"name": "t", "imports": imports}))
    return root


def test_no_imports_configured_means_no_import_assets(tmp_path):
    (tmp_path / "kb.yaml").write_text("name: t\n")
    assert build_import_defs(tmp_path) == {"assets": [], "jobs": [], "schedules": []}


@pytest.mark.slow
def test_partitions_schedule_and_isolated_failure(tmp_path, confluence, drive, env_creds):
    confluence.add("1", "Hub one", "<p>one</p>")
    confluence.add("2", "Hub two", "<p>two</p>")
    confluence.fail("/wiki/rest/api/content/2", 500, times=50)
    drive.add("D1", "Doc", "text/plain", "ROOT", b"hello")
    root = _kb(tmp_path, confluence, drive)
    built = build_import_defs(root)
    [asset], [_job], [schedule] = built["assets"], built["jobs"], built["schedules"]
    keys = asset.partitions_def.get_partition_keys()
    assert keys == ["confluence:1", "confluence:2", "drive:ROOT"]
    assert schedule.cron_schedule == "0 6 * * 1-5"

    defs = dg.Definitions(**built, resources={"kb": KbResource(kb_root=str(root))})
    instance = dg.DagsterInstance.ephemeral()
    with dg.build_schedule_context(
        instance=instance,
        scheduled_execution_time=dt.datetime(2026, 11, 30, 6, tzinfo=dt.UTC),
        repository_def=defs.get_repository_def(),
    ) as context:
        requests = list(schedule.evaluate_tick(context).run_requests or [])
    assert [r.partition_key for r in requests] == keys

    resolved = defs.resolve_job_def("import_job")
    outcomes = {}
    for key in keys:
        result = resolved.execute_in_process(
            partition_key=key, instance=instance, raise_on_error=False
        )
        outcomes[key] = result.success
        if result.success:
            [event] = result.get_asset_materialization_events()
            meta = event.materialization.metadata
            assert meta["fetched"].value == 1 and meta["skipped_unchanged"].value == 0
    assert outcomes == {"confluence:1": True, "confluence:2": False, "drive:ROOT": True}
