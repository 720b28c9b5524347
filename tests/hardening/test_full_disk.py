"""A full disk under the data dir: `kb refresh` says in one line where and how much
space a build needs, and the last good warehouse stays readable."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.portfolio import kb_cli


def _mount_tmpfs(path: Path, size_kb: int) -> bool:
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(path)],
        capture_output=True,
    )
    return done.returncode == 0


@pytest.mark.slow
def test_refresh_on_a_full_disk_is_one_line_and_keeps_the_warehouse(
    built_example: Path, tmp_path: Path
) -> None:
    portfolio = tmp_path / "portfolio"
    shutil.copytree(built_example.parent, portfolio, symlinks=True)
    kb = portfolio / "kb"
    tiny = tmp_path / "tiny"
    entries = list((kb / ".kb").rglob("*"))
    used = sum(-(-p.stat().st_size // 4096) * 4096 for p in entries if p.is_file())
    if not _mount_tmpfs(tiny, used // 1024 + 4 * len(entries) + 1024):  # ~1 MB left over
        pytest.skip("needs root to mount a small tmpfs")
    try:
        data = tiny / "data"
        shutil.copytree(kb / ".kb", data, symlinks=True)
        manifest = (data / "manifest.json").read_bytes()
        doc = kb / "projects/acme-shop/contact-api/architecture.md"
        doc.write_text(doc.read_text("utf-8") + "\nOne more line.\n", "utf-8")
        result = kb_cli("refresh", "--kb", str(kb), "--data-dir", str(data), timeout=900)
        text = (result.stdout + result.stderr).strip()
        assert result.returncode == 1, text
        assert "Traceback" not in text and "Dagster" not in text, text[-2000:]
        lines = [ln for ln in text.splitlines() if "disk space" in ln]
        assert len(lines) == 1 and str(data) in lines[0] and "MB needed" in lines[0], text
        assert len(text.splitlines()) <= 3, text
        assert (data / "manifest.json").read_bytes() == manifest
        answer = kb_cli("sql", "--kb", str(kb), "--data-dir", str(data), "select 1 as one")
        assert answer.returncode == 0, answer.stdout + answer.stderr
    finally:
        subprocess.run(["umount", "-l", str(tiny)], capture_output=True)
