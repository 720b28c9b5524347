"""When Dagster's own storage fails under a refresh — a damaged SQLite file of the instance,
a team's PostgreSQL server that is down — `kb refresh` says so in one line that names the
instance and the fix; the last published warehouse stays readable, and the fix works."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.support.checks import assert_one_line_failure, output
from tests.support.portfolio import commit_to, kb_cli, tiny_portfolio

DOWN = "postgresql+psycopg2://kb:hunter2-secret@127.0.0.1:1/kb"  # nothing listens on port 1


def _built(root: Path) -> tuple[Path, Path]:
    """The tiny portfolio, built once; returns (kb root, data dir)."""
    kb, data = tiny_portfolio(root), root / "data"
    built = kb_cli("refresh", "--no-service", "--kb", str(kb), "--data-dir", str(data))
    assert built.returncode == 0, output(built)
    return kb, data


def _refresh(kb: Path, data: Path, env: dict | None = None):
    return kb_cli(
        "refresh", "--no-service", "--kb", str(kb), "--data-dir", str(data), env=env, process=True
    )


def test_a_damaged_instance_file_gets_one_line_and_the_warehouse_stays(tmp_path: Path) -> None:
    kb, data = _built(tmp_path)
    manifest = (data / "manifest.json").read_bytes()
    home = data / "dagster"
    (home / "history" / "runs.db").write_bytes(b"not a database at all " * 200)
    commit_to(kb, "one", "export const two = () => 2;\n")

    line = assert_one_line_failure(_refresh(kb, data), r"instance storage failed")
    assert str(home) in line and "file is not a database" in line
    assert f"mv {home} {home}.damaged" in line
    assert (data / "manifest.json").read_bytes() == manifest  # nothing half-published
    answer = kb_cli("sql", "--kb", str(kb), "--data-dir", str(data), "--json",
                    "select count(*) as n from nodes")  # fmt: skip
    assert answer.returncode == 0 and json.loads(answer.stdout)[0]["n"] > 0, output(answer)

    home.rename(home.with_name("dagster.damaged"))  # what the line says to do
    fixed = _refresh(kb, data)
    assert fixed.returncode == 0, output(fixed)
    assert (data / "manifest.json").read_bytes() != manifest  # the new commit is published


def test_a_team_instance_that_is_down_is_named_before_dagster_loads(tmp_path: Path) -> None:
    kb, data = _built(tmp_path)
    commit_to(kb, "one", "export const two = () => 2;\n")
    env = {"KB_POSTGRES_URL": DOWN}

    started = time.monotonic()
    result = _refresh(kb, data, env)
    took = time.monotonic() - started
    line = assert_one_line_failure(result, r"cannot connect to PostgreSQL")
    assert "127.0.0.1" in line and "docs/team.md" in line
    assert "hunter2" not in output(result)
    assert "Retrying failed database connection" not in output(result)  # Dagster never ran
    assert took < 60, took  # not Dagster's retry loop (generous: a loaded machine)

    ui = kb_cli("ui", "--kb", str(kb), "--data-dir", str(data), env=env)
    assert_one_line_failure(ui, r"cannot connect to PostgreSQL")
    assert "hunter2" not in output(ui)


def test_a_storage_error_raised_through_dagster_is_read_with_the_password_hidden(
    tmp_path: Path, monkeypatch
) -> None:
    import sqlalchemy.exc

    from pipeline.instance import storage_failure_line

    monkeypatch.setenv("KB_POSTGRES_URL", DOWN)
    driver = RuntimeError('could not connect: "postgresql://kb:hunter2-secret@db:5432/kb"')
    try:
        try:
            raise sqlalchemy.exc.OperationalError("connect", {}, driver)
        except sqlalchemy.exc.OperationalError as inner:
            raise RuntimeError("the run's storage failed") from inner
    except RuntimeError as outer:
        line = storage_failure_line(outer, tmp_path)
    assert line is not None and line.startswith("Dagster's PostgreSQL instance failed:")
    assert "hunter2" not in line and "kb:***@db" in line
    assert storage_failure_line(ValueError("an asset's own bug"), tmp_path) is None
