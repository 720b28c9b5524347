"""Parallel extraction starts with the component whose sources are biggest."""

from __future__ import annotations

from pathlib import Path

from assets.extraction import source_bytes


def _write(path: Path, size: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x" * size)


def test_source_bytes_counts_source_files_outside_skipped_folders(tmp_path: Path) -> None:
    _write(tmp_path / "src" / "app.ts", 1000)
    _write(tmp_path / "src" / "deep" / "view.vue", 200)
    _write(tmp_path / "api" / "main.py", 30)
    _write(tmp_path / "README.md", 5000)  # not source
    _write(tmp_path / "node_modules" / "lib" / "index.js", 90_000)  # vendored
    _write(tmp_path / "assets" / "logo.png", 70_000)
    assert source_bytes(tmp_path) == 1230
    assert source_bytes(tmp_path / "missing") == 0
