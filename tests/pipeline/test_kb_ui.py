"""`kb ui` run inside a person's own KB folder (not the kb-graph checkout): the Dagster UI
on 127.0.0.1, the lineage it prints opens with every group expanded in real Chromium,
`--automation off` leaves building to `kb refresh`, and a commit shows up as a stale
partition where a person looks first — the `code_current` check on `code_facts`, with the
stale count — without anything being rebuilt.

docs/dagster-stale.png and docs/dagster-stale-check.png are copies of its screenshots.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.dagster_dev import REPO, free_port, graphql, wait_for
from tests.support.portfolio import build, git
from tests.support.processes import running

pytestmark = pytest.mark.slow

KB = str(Path(sys.executable).with_name("kb"))
CHANGED = "acme-shop/contact-api"
ARTIFACTS = REPO / "test-artifacts"

CHECK = """{ assetNodes(assetKeys: [{path: ["code_facts"]}]) { assetChecksOrError {
  ... on AssetChecks { checks { name executionForLatestMaterialization { status runId
  evaluation { description metadataEntries { label ... on IntMetadataEntry { intValue } } }
  } } } } } }"""
SENSORS = """{ repositoriesOrError { ... on RepositoryConnection { nodes {
  sensors { name sensorState { status } } } } } }"""
RUNS = "{ runsOrError { ... on Runs { results { runId jobName status } } } }"
STALE = """{ assetNodes(assetKeys: [{path: ["code_facts"]}]) {
  partitionKeys staleStatusByPartition } }"""


def _check(port: int) -> dict | None:
    node = graphql(port, CHECK)["assetNodes"][0]
    check = node["assetChecksOrError"]["checks"][0]
    assert check["name"] == "code_current"
    return check["executionForLatestMaterialization"]


def _partitions(port: int) -> dict[str, str] | None:
    """code_facts' partitions by Dagster's stale status, once the changed one is STALE."""
    node = graphql(port, STALE)["assetNodes"][0]
    status = dict(zip(node["partitionKeys"], node["staleStatusByPartition"], strict=True))
    return status if status.get(CHANGED) == "STALE" else None


def _stale_count(execution: dict) -> int | None:
    entries = execution["evaluation"]["metadataEntries"]
    return next((e["intValue"] for e in entries if e["label"] == "stale partitions"), None)


def _listens_on_loopback_only(port: int) -> bool:
    """The port's listening sockets in /proc/net/tcp{,6}: all on 127.0.0.1."""
    local = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                address, hexport = fields[1].rsplit(":", 1)
                if int(hexport, 16) == port and fields[3] == "0A":  # LISTEN
                    local.append(address)
    return bool(local) and all(a == "0100007F" for a in local)


def _printed(log: Path, pattern: str) -> str | None:
    match = re.search(pattern, log.read_text(errors="replace")) if log.exists() else None
    return match.group(1) if match else None


def _screenshots(browser, port: int) -> None:
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    try:
        page.goto(f"http://127.0.0.1:{port}/assets/code_facts?view=lineage&lineageDepth=1")
        with contextlib.suppress(Exception):  # a one-time newsletter dialog, if shown
            page.get_by_role("button", name="Skip").click(timeout=15_000)
        page.get_by_text("0 / 1 Passed").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1500)
        page.screenshot(path=str(ARTIFACTS / "dagster-stale.png"))
        page.goto(f"http://127.0.0.1:{port}/assets/code_facts?view=checks")
        page.get_by_text("1 of 10 partitions stale").first.wait_for(timeout=60_000)
        page.wait_for_timeout(1500)
        page.screenshot(path=str(ARTIFACTS / "dagster-stale-check.png"))
    finally:
        page.close()


def test_kb_ui_in_a_kb_folder_shows_the_lineage_and_a_commit_as_stale(
    example_kb: Path, tmp_path: Path, browser
) -> None:
    build(example_kb)
    port = free_port()
    log = tmp_path / "ui.log"
    argv = [KB, "ui", "--port", str(port), "--automation", "off"]
    with (
        log.open("w") as out,
        running(argv, cwd=example_kb, stdout=out, stderr=subprocess.STDOUT) as ui,
    ):
        url = wait_for(lambda: _printed(log, r"lineage, every group expanded: (\S+)"), 60, 0.5)
        assert url, log.read_text()
        assert url.startswith(f"http://127.0.0.1:{port}/asset-groups?expanded=")
        assert "only `kb refresh` builds" in log.read_text()
        assert wait_for(lambda: graphql(port, RUNS), 240, 1), f"no answer: {log.read_text()}"
        assert _listens_on_loopback_only(port)
        repo = graphql(port, SENSORS)["repositoriesOrError"]["nodes"][0]
        assert {s["name"]: s["sensorState"]["status"] for s in repo["sensors"]}[
            "kb_automation"
        ] == "STOPPED"

        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(url)
        with contextlib.suppress(Exception):  # a one-time newsletter dialog, if shown
            page.get_by_role("button", name="Skip").click(timeout=20_000)
        for asset in ("code_facts", "kb_docs", "project_graph", "warehouse"):
            page.get_by_text(asset, exact=True).first.wait_for(timeout=60_000)
        page.close()

        # the observation the sensor starts with: everything `kb refresh` built is current
        first = wait_for(lambda: (e := _check(port)) and e["status"] != "IN_PROGRESS" and e, 300)
        assert first and first["status"] == "SUCCEEDED", first
        before = {r["runId"] for r in graphql(port, RUNS)["runsOrError"]["results"]}
        added = example_kb.parent / "repos" / CHANGED / "src" / "added.ts"
        added.write_text("export const added = 1;\n")
        # the one new file: the UI's data dir (`kb/.kb`, its Dagster instance being written
        # this moment) lies inside this copy of the example, which ignores nothing
        git(example_kb.parent, "add", str(added))
        git(example_kb.parent, "commit", "-q", "-m", f"change {CHANGED}")

        # the observe run records the new version and runs the check (in either order)
        stale = wait_for(
            lambda: (e := _check(port)) and e["status"] == "FAILED" and _partitions(port) and e,
            timeout=400,
        )
        assert stale, f"the commit never showed in code_current: {_check(port)}"
        assert _stale_count(stale) == 1
        assert stale["evaluation"]["description"].startswith(f"1 of 10 partitions stale: {CHANGED}")
        status = _partitions(port)
        assert {k for k, v in status.items() if v != "FRESH"} == {CHANGED}, status
        since = [
            r for r in graphql(port, RUNS)["runsOrError"]["results"] if r["runId"] not in before
        ]
        assert since and {r["jobName"] for r in since} == {"observe_sources"}, since
        ARTIFACTS.mkdir(exist_ok=True)
        _screenshots(browser, port)
        assert ui.poll() is None
    assert (ARTIFACTS / "dagster-stale.png").stat().st_size > 10_000
