"""Runs the UI's daemon launches (and a person's Materialize) execute their steps in the run's
own process, as `kb refresh` does — not a process per step, which re-imports the code
location for every step; scale-out stays `KB_EXECUTOR`'s own executor."""

from __future__ import annotations

from pipeline.definitions import build_definitions
from tests.support.portfolio import copy_example


def test_the_ui_runs_steps_in_the_run_process(tmp_path):
    kb_root = copy_example(tmp_path / "portfolio")
    defs = build_definitions(str(kb_root), str(tmp_path / "data"))
    assert defs.resolve_implicit_global_asset_job_def().executor_def.name == "in_process"
    assert defs.resolve_job_def("observe_sources").executor_def.name == "in_process"
