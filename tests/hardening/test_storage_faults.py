"""Storage faults under the data dir: a garbage manifest, a byte flipped with size and
mtime kept, kb.duckdb overwritten, one component's staged Parquet damaged, a read-only
data dir. Each is one line (never a traceback), `kb status` names the damage, and a
refresh brings the warehouse back (or, read-only, says why it cannot) while the last
good build stays readable."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.portfolio import kb_cli


def _copy(built_example: Path, tmp_path: Path) -> Path:
    portfolio = tmp_path / "portfolio"
    shutil.copytree(built_example.parent, portfolio, symlinks=True)
    return portfolio / "kb"


def _one_line(done: subprocess.CompletedProcess) -> str:
    out = (done.stdout + done.stderr).strip()
    assert "Traceback" not in out, out[-2000:]
    return out


@pytest.mark.slow
def test_damaged_manifest_duckdb_and_flipped_byte(built_example: Path, tmp_path: Path) -> None:
    kb = _copy(built_example, tmp_path)
    data = kb / ".kb"
    manifest = json.loads((data / "manifest.json").read_text())
    good = (data / "manifest.json").read_bytes()
    (data / "manifest.json").write_text('{"garb')
    sql = kb_cli("sql", "--kb", str(kb), "select 1")
    assert sql.returncode == 1 and len(_one_line(sql).splitlines()) == 1
    assert "manifest.json: damaged" in sql.stderr
    status = _one_line(kb_cli("status", "--kb", str(kb)))
    assert "manifest.json is damaged" in status, status
    (data / "manifest.json").write_bytes(good)

    target = data / manifest["path"] / "partition=acme-shop" / "edges.parquet"
    before = os.stat(target)
    raw = bytearray(target.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    target.write_bytes(raw)
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    (data / "kb.duckdb").write_bytes(b"not a database")
    status = _one_line(kb_cli("status", "--kb", str(kb)))
    assert "partition=acme-shop/edges.parquet: damaged (checksum" in status, status
    assert "kb.duckdb: damaged" in status, status

    built = kb_cli("refresh", "--kb", str(kb), timeout=900)
    assert built.returncode == 0, _one_line(built)[-2000:]
    status = _one_line(kb_cli("status", "--kb", str(kb)))
    assert ": damaged" not in status, status
    assert (data / "kb.duckdb").read_bytes()[8:12] == b"DUCK"


@pytest.mark.slow
def test_a_damaged_stage_does_not_stop_later_refreshes(built_example: Path, tmp_path: Path):
    kb = _copy(built_example, tmp_path)
    staged = sorted((kb / ".kb/staging/code_facts").glob("*/nodes.parquet"))[0]
    staged.write_bytes(os.urandom(100))
    built = kb_cli("refresh", "--kb", str(kb), "--all", timeout=900)
    assert built.returncode == 0, _one_line(built)[-2000:]
    answer = kb_cli("sql", "--kb", str(kb), "select count(*) as n from nodes")
    assert answer.returncode == 0, answer.stderr


@pytest.mark.slow
def test_read_only_data_dir_is_one_line_and_still_readable(built_example: Path, tmp_path):
    kb = _copy(built_example, tmp_path)
    ro = tmp_path / "ro"
    ro.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(ro)]).returncode:
        pytest.fail("needs root to mount a read-only file system (scripts/test.sh runs as root)")
    try:
        shutil.copytree(kb / ".kb", ro, dirs_exist_ok=True, symlinks=True)
        subprocess.run(["mount", "-o", "remount,ro", str(ro)], check=True)
        (kb / "projects/acme-shop/project.md").write_text(
            (kb / "projects/acme-shop/project.md").read_text() + "\nEdited.\n"
        )
        refreshed = kb_cli("refresh", "--kb", str(kb), "--data-dir", str(ro), timeout=900)
        out = _one_line(refreshed)
        assert refreshed.returncode == 1 and "read-only" in out, out[-2000:]
        assert out.splitlines()[-1].startswith("kb refresh: ")
        status = kb_cli("status", "--kb", str(kb), "--data-dir", str(ro))
        assert "read-only" not in _one_line(status) and "warehouse: build" in status.stdout
        sql = kb_cli(
            "sql", "--kb", str(kb), "--data-dir", str(ro), "select count(*) as n from nodes"
        )
        assert sql.returncode == 0, sql.stderr
    finally:
        subprocess.run(["umount", str(ro)])
