"""Confluence import over real HTTP: crawl by links and children to a depth, cycles,
deleted pages, pagination, incremental re-import, odd and huge bodies."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from kb.imports import read_sources, run_imports
from tests.support.import_fakes import imports_config


def _hub(confluence):
    confluence.add("1", "Engineering hub", (
        '<p>Start here: <ac:link><ri:page ri:content-title="Contact form architecture" /></ac:link>'
        ' and <a href="/wiki/spaces/SHOP/pages/3/Runbook">the runbook</a>'
        ' and <a href="/wiki/spaces/SHOP/pages/404/Gone">an old page</a>.</p>'
    ))  # fmt: skip
    confluence.add("2", "Contact form architecture",
                   '<h2>Overview</h2><p>Back to <a href="/wiki/spaces/SHOP/pages/1">the hub</a>.</p>'
                   '<p>Deeper: <a href="/wiki/spaces/SHOP/pages/9">level 2</a></p>', parent="1")  # fmt: skip
    confluence.add("3", "Runbook", "<p>Rotate tokens yearly.</p>")
    confluence.add("9", "Level two", '<p>Too deep: <a href="/wiki/spaces/SHOP/pages/10">x</a></p>')
    confluence.add("10", "Level three", "<p>never fetched at depth 2</p>")
    for i in range(11, 16):  # five children: paginated two at a time
        confluence.add(str(i), f"Child {i}", f"<p>child {i}</p>", parent="1")


def test_crawl_follows_links_children_and_stops_at_depth(tmp_path: Path, confluence, env_creds):
    _hub(confluence)
    [result] = run_imports(tmp_path, imports_config(confluence))
    sources = read_sources(tmp_path)
    ids = sorted(m["id"] for m in sources.values())
    assert ids == sorted(["1", "2", "3", "9", "11", "12", "13", "14", "15"])  # no 10: too deep
    assert result.missing == ["404"] and not result.failed
    child_pages = [p for _, p, _ in confluence.log if "/child/page" in p and "/content/1/" in p]
    assert len(child_pages) == 3  # start=0, 2, 4 through _links.next
    arch = sources["confluence-2-contact-form-architecture"]
    assert arch["parent"] == "1" and arch["hub"] == "1" and arch["space"] == "SHOP"
    assert arch["version"] == 1 and arch["url"].endswith("/wiki/spaces/SHOP/pages/2")
    folder = tmp_path / "_imports/raw/confluence-2-contact-form-architecture"
    assert arch["sha256"] == hashlib.sha256((folder / "page.html").read_bytes()).hexdigest()
    assert "## Overview" in (folder / "page.md").read_text()
    # the cycle 1 -> 2 -> 1 fetched page 1 once
    assert sum(1 for _, p, _ in confluence.log if p.startswith("/wiki/rest/api/content/1?")) == 1


def test_reimport_fetches_only_changed_pages(tmp_path: Path, confluence, env_creds):
    _hub(confluence)
    config = imports_config(confluence)
    run_imports(tmp_path, config)
    confluence.pages["3"].update(version=2, body="<p>Rotate tokens every six months.</p>")
    confluence.log.clear()
    [result] = run_imports(tmp_path, config)
    bodies = [p for _, p, s in confluence.log if "body.storage" in p and s == 200]
    assert len(bodies) == 1 and "/content/3?" in bodies[0]
    assert result.fetched == ["confluence-3-runbook"] and len(result.unchanged) == 8
    text = (tmp_path / "_imports/raw/confluence-3-runbook/page.md").read_text()
    assert "six months" in text
    meta = yaml.safe_load((tmp_path / "_imports/raw/confluence-3-runbook/_source.yaml").read_text())
    assert meta["version"] == 2


def test_deleted_page_is_marked_and_reported(tmp_path: Path, confluence, env_creds):
    _hub(confluence)
    config = imports_config(confluence)
    run_imports(tmp_path, config)
    del confluence.pages["3"]
    [result] = run_imports(tmp_path, config)
    assert "3" in result.missing
    from kb.imports import import_problems

    problems = [p for p in import_problems(tmp_path) if p.rule == "import-source-deleted"]
    assert [p.path for p in problems] == ["_imports/raw/confluence-3-runbook/_source.yaml"]


@pytest.mark.slow
def test_unicode_and_huge_bodies_are_stored_whole(tmp_path: Path, confluence, env_creds):
    huge = "<p>" + ("Zeile mit Umlauten äöü und 漢字 " * 120_000) + "</p>"  # ~4.6 MB
    confluence.add("1", "Größe", huge)
    [result] = run_imports(tmp_path, imports_config(confluence))
    assert not result.failed
    [folder] = (tmp_path / "_imports/raw").iterdir()
    stored = (folder / "page.html").read_text(encoding="utf-8")
    assert stored == huge
    assert folder.name == "confluence-1-gr-e"  # non-ASCII titles slug safely


def test_missing_credentials_fail_that_source_only(tmp_path: Path, confluence, drive, env_creds,
                                                    monkeypatch):  # fmt: skip
    _hub(confluence)
    drive.add("D1", "Notes", "text/plain", "ROOT", b"plain notes")
    monkeypatch.delenv("KB_TEST_CONF_TOKEN")
    conf_result, drive_result = run_imports(tmp_path, imports_config(confluence, drive))
    assert conf_result.failed == [
        "imports: environment variable KB_TEST_CONF_TOKEN (confluence token_env) is not set"
    ]
    assert drive_result.fetched == ["drive-d1-notes"] and not drive_result.failed
