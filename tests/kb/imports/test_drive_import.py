"""Drive import over real HTTP (static discovery, loopback endpoint): exports per type,
Markdown→HTML fallback, folder and revision pagination, incremental re-import."""

from __future__ import annotations

from pathlib import Path

import yaml

from kb.imports import read_sources, run_imports
from tests.support.import_fakes import imports_config

DOC = "application/vnd.google-apps.document"
SHEET = "application/vnd.google-apps.spreadsheet"
SLIDES = "application/vnd.google-apps.presentation"
FOLDER = "application/vnd.google-apps.folder"


def _folder(drive):
    drive.add(
        "D1",
        "Frontend handbook",
        DOC,
        "ROOT",
        b"# Handbook\n\nUse the SDK.\n",
        revisions=("1", "2", "3"),
    )
    drive.add("D2", "Old design", DOC, "ROOT", b"<h1>Old</h1><p>html only</p>")
    drive.no_markdown.add("D2")
    drive.add("S1", "Env matrix", SHEET, "ROOT", "env,owner\nprod,Jürgen\n".encode("latin-1"))
    drive.add("P1", "Kickoff deck", SLIDES, "ROOT", b"Slide 1\nArchitecture\n")
    drive.add("F1", "Archive", FOLDER, "ROOT")
    drive.add("A1", "Archived notes", "text/markdown", "F1", b"# Archived\n")
    drive.add("X1", "Logo", "image/png", "ROOT", b"\x89PNG")


def test_folder_import_exports_each_type(tmp_path: Path, drive, env_creds):
    _folder(drive)
    [result] = run_imports(tmp_path, imports_config(drive=drive))
    assert not result.failed
    sources = read_sources(tmp_path)
    files = {m["id"]: (slug, m) for slug, m in sources.items()}
    assert sorted(files) == ["A1", "D1", "D2", "P1", "S1"]  # the PNG is skipped
    raw = tmp_path / "_imports/raw"
    assert (raw / files["D1"][0] / "doc.md").read_text() == "# Handbook\n\nUse the SDK.\n"
    assert files["D1"][1]["revision"] == "3"  # newest of a paginated revisions.list
    assert files["D2"][1]["exported_as"] == "text/html"  # Markdown refused → HTML
    assert (raw / files["S1"][0] / "sheet.csv").read_text() == "env,owner\nprod,Jürgen\n"
    assert files["S1"][1]["encoding"] == "latin-1"
    assert (raw / files["P1"][0] / "slides.txt").read_text().startswith("Slide 1")
    assert files["A1"][1]["parent"] == "F1" and files["A1"][1]["hub"] == "ROOT"
    listing = [p for _, p, _ in drive.log if p.startswith("/drive/v3/files?")]
    assert any("pageToken=" in p for p in listing)  # the folder listing was paginated
    assert not any(p.startswith("/drive/v3/discovery") for _, p, _ in drive.log)


def test_reimport_exports_only_new_revisions(tmp_path: Path, drive, env_creds):
    _folder(drive)
    config = imports_config(drive=drive)
    run_imports(tmp_path, config)
    drive.files["D1"].update(revisions=["1", "2", "3", "4"], content=b"# Handbook v4\n")
    drive.log.clear()
    [result] = run_imports(tmp_path, config)
    exports = [p for _, p, _ in drive.log if "/export" in p or "alt=media" in p]
    assert len(exports) == 1 and "/files/D1/export" in exports[0]
    assert len(result.fetched) == 1 and len(result.unchanged) == 4
    slug = result.fetched[0]
    meta = yaml.safe_load((tmp_path / "_imports/raw" / slug / "_source.yaml").read_text())
    assert meta["revision"] == "4"


def test_wrong_token_fails_the_folder_without_writing(
    tmp_path: Path, drive, env_creds, monkeypatch
):
    _folder(drive)
    monkeypatch.setenv("KB_DRIVE_TOKEN", "not-the-token")
    [result] = run_imports(tmp_path, imports_config(drive=drive))
    assert result.failed == ["ROOT: HTTP 401"] and not result.fetched
    assert not (tmp_path / "_imports").exists()
