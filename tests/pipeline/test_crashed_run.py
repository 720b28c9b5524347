"""A refresh whose process raises mid-run (its storage failing under it) leaves the run
FAILURE in Dagster's run list, not STARTED for ever with the UI waiting on it."""

import uuid

import dagster as dg
import pytest

from pipeline.instance import failed_if_crashed, open_instance


@dg.op
def _step() -> None:
    pass


@dg.job
def _one_step() -> None:
    _step()


@pytest.mark.parametrize("status", [dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.NOT_STARTED])
def test_a_run_whose_process_raised_is_failed_and_the_error_goes_on(tmp_path, status):
    with open_instance(tmp_path) as instance:
        run = instance.create_run_for_job(_one_step, status=status)
        with (
            pytest.raises(OSError, match="disk I/O error"),
            failed_if_crashed(instance, run.run_id),
        ):
            raise OSError("disk I/O error")
        assert instance.get_run_by_id(run.run_id).status == dg.DagsterRunStatus.FAILURE


def test_a_run_that_ended_on_its_own_keeps_its_status(tmp_path):
    run_id = str(uuid.uuid4())
    with open_instance(tmp_path) as instance:
        with failed_if_crashed(instance, run_id):
            result = _one_step.execute_in_process(instance=instance, run_id=run_id)
        assert result.success
        assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.SUCCESS
        with pytest.raises(RuntimeError), failed_if_crashed(instance, run_id):
            raise RuntimeError("after the run ended")
        assert instance.get_run_by_id(run_id).status == dg.DagsterRunStatus.SUCCESS
