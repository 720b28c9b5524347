"""Retries on 429/5xx honour Retry-After (measured on the server's clock), back off
otherwise, and a source that keeps failing never blocks the others."""

from __future__ import annotations

from pathlib import Path

from kb.imports import read_sources, run_imports
from tests.support.import_fakes import imports_config


def _gaps(hits):
    return [b[0] - a[0] for a, b in zip(hits, hits[1:], strict=False)]


def test_confluence_429_waits_retry_after_then_succeeds(tmp_path: Path, confluence, env_creds):
    confluence.add("1", "Hub", "<p>hub</p>")
    confluence.fail("/wiki/rest/api/content/1", 429, times=1, retry_after="2")
    [result] = run_imports(tmp_path, imports_config(confluence))
    hits = confluence.hits("/wiki/rest/api/content/1?")
    assert [status for _, _, status in hits] == [429, 200]
    assert 1.9 <= _gaps(hits)[0] < 5
    assert result.fetched == ["confluence-1-hub"]


def test_confluence_500s_back_off_and_recover(tmp_path: Path, confluence, env_creds):
    confluence.add("1", "Hub", "<p>hub</p>")
    confluence.fail("/wiki/rest/api/content/1", 500, times=2)
    [result] = run_imports(tmp_path, imports_config(confluence))
    hits = confluence.hits("/wiki/rest/api/content/1?")
    assert [s for _, _, s in hits] == [500, 500, 200]
    gaps = _gaps(hits)
    assert gaps[1] > gaps[0]  # exponential, not a tight loop
    assert not result.failed


def test_a_hub_that_keeps_failing_does_not_block_the_next(tmp_path: Path, confluence, env_creds):
    confluence.add("1", "Broken hub", "<p>x</p>")
    confluence.add("2", "Good hub", "<p>y</p>")
    confluence.fail("/wiki/rest/api/content/1", 503, times=20, retry_after="0")
    broken, good = run_imports(tmp_path, imports_config(confluence, hubs=("1", "2")))
    assert broken.failed == ["1: HTTP 503"] and not broken.fetched
    assert len(confluence.hits("/wiki/rest/api/content/1?")) == 5  # 1 try + 4 retries
    assert good.fetched == ["confluence-2-good-hub"]
    assert [m["id"] for m in read_sources(tmp_path).values()] == ["2"]


def test_drive_429_and_503_are_retried(tmp_path: Path, drive, env_creds):
    drive.add("D1", "Doc", "application/vnd.google-apps.document", "ROOT", b"# Doc\n")
    drive.fail("/drive/v3/files/D1/export", 429, times=1, retry_after="1")
    drive.fail("/drive/v3/files", 503, times=2)
    [result] = run_imports(tmp_path, imports_config(drive=drive))
    assert result.fetched == ["drive-d1-doc"] and not result.failed
    listing = drive.hits("/drive/v3/files?")
    assert [s for _, _, s in listing] == [503, 503, 200]
    export = drive.hits("/drive/v3/files/D1/export")
    assert [s for _, _, s in export] == [429, 200]
    assert 0.9 <= _gaps(export)[0] < 4
