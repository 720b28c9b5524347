"""What `kb ui` hands `dagster dev`: the instance of the data dir, and a code-server wait long
enough for a busy machine — unless the person set Dagster's own variable."""

from pipeline.ui import GRPC_TIMEOUT_ENV, ui_launch


def test_the_ui_waits_longer_on_the_code_server_than_dagsters_minute(tmp_path, monkeypatch):
    monkeypatch.delenv(GRPC_TIMEOUT_ENV, raising=False)
    launch = ui_launch(tmp_path / "kb", tmp_path / "data", "127.0.0.1", 3000)
    assert int(launch.env[GRPC_TIMEOUT_ENV]) > 60
    assert launch.env["DAGSTER_HOME"] == str((tmp_path / "data" / "dagster").resolve())


def test_a_persons_own_timeout_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv(GRPC_TIMEOUT_ENV, "45")
    launch = ui_launch(tmp_path / "kb", tmp_path / "data", "127.0.0.1", 3000)
    assert launch.env[GRPC_TIMEOUT_ENV] == "45"
