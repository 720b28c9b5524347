"""A commit to one component's repo shows as that partition going stale in the Dagster UI.

Runs the real `dagster dev` for a copy of the example, lets the automation sensor build
everything, pauses automation (so nothing rebuilds at once), commits to one component's
folder and waits for the repo-commits sensor to observe it. Dagster's own staleness
(component_versions' data version per partition → code_facts) must then mark exactly
that code_facts partition stale, through GraphQL and on the page. It also checks that
the asset checks' results and the observe schedule are visible there.
"""

from __future__ import annotations

import contextlib
import subprocess
from pathlib import Path

import pytest

from tests.support.dagster_dev import REPO, dagster_dev, graphql, wait_for

CHANGED = "acme-shop/contact-api"
# The partition's own page; docs/dagster-stale.png (the lineage) is tests/pipeline/test_kb_ui.py's.
SCREENSHOT = REPO / "test-artifacts" / "dagster-stale-partition.png"

STALE = """query($key: [String!]!) { assetNodes(assetKeys: [{path: $key}]) {
  partitionKeys staleStatusByPartition
  staleCausesByPartition { key { path } partitionKey reason } } }"""
REPOS = """{ repositoriesOrError { ... on RepositoryConnection { nodes {
  sensors { name sensorState { id status } } schedules { name scheduleState { status } } } } } }"""
STOP = """mutation($id: String!) { stopSensor(id: $id) {
  ... on StopSensorMutationResult { instigationState { status } } } }"""
CHECKS = """{ assetNodes(assetKeys: [{path: ["project_graph"]}]) { assetChecksOrError {
  ... on AssetChecks { checks { name executionForLatestMaterialization { status } } } } } }"""
RUNS_IN_FLIGHT = """{ runsOrError(filter: {statuses: [QUEUED, NOT_STARTED, STARTING, STARTED]}) {
  ... on Runs { results { runId } } } }"""


def _stale_by_partition(port: int, asset: str) -> dict[str, str]:
    node = graphql(port, STALE, {"key": [asset]})["assetNodes"][0]
    return dict(zip(node["partitionKeys"], node["staleStatusByPartition"], strict=True))


def _instigators(port: int) -> tuple[dict, dict]:
    repo = graphql(port, REPOS)["repositoriesOrError"]["nodes"][0]
    sensors = {s["name"]: s["sensorState"] for s in repo["sensors"]}
    schedules = {s["name"]: s["scheduleState"]["status"] for s in repo["schedules"]}
    return sensors, schedules


def _check_statuses(port: int) -> dict[str, str | None]:
    """project_graph's checks → status of their execution for its latest materialization.

    None while Dagster has not linked an execution to that materialization yet (a run that
    materialized it may still be starting its check step)."""
    node = graphql(port, CHECKS)["assetNodes"][0]
    return {
        c["name"]: (c["executionForLatestMaterialization"] or {}).get("status")
        for c in node["assetChecksOrError"]["checks"]
    }


def _runs_in_flight(port: int) -> int:
    return len(graphql(port, RUNS_IN_FLIGHT)["runsOrError"]["results"])


def _checks_done(port: int, seen: dict) -> dict[str, str] | None:
    """The checks' statuses once every one has finished for the latest materialization
    and no run is queued or running (nothing can still change them)."""
    seen["checks"] = checks = _check_statuses(port)
    seen["runs in flight"] = in_flight = _runs_in_flight(port)
    finished = checks and all(s not in (None, "IN_PROGRESS") for s in checks.values())
    return checks if finished and not in_flight else None


def _commit_to(kb_root: Path, component: str) -> None:
    portfolio = kb_root.parent
    (portfolio / "repos" / component / "src" / "added.py").write_text("def added():\n    pass\n")
    for args in (["add", "-A"], ["commit", "-q", "-m", f"change {component}"]):
        subprocess.run(["git", "-C", str(portfolio), *args], check=True, capture_output=True)


def _screenshot(port: int, browser) -> None:
    """The changed partition's page carries Dagster's "Unsynced" tag; keep a screenshot."""
    page = browser.new_page(viewport={"width": 1600, "height": 1000})
    try:
        partition = CHANGED.replace("/", "%2F")
        page.goto(
            f"http://127.0.0.1:{port}/assets/code_facts?view=partitions&partition={partition}"
        )
        with contextlib.suppress(Exception):  # a one-time newsletter dialog, if shown
            page.get_by_role("button", name="Skip").click(timeout=15_000)
        page.get_by_text("Unsynced").first.wait_for(timeout=60_000)
        page.wait_for_timeout(2000)
        SCREENSHOT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOT))
    finally:
        page.close()


@pytest.mark.slow
def test_commit_to_one_component_marks_only_its_partition_stale(
    example_kb: Path, tmp_path: Path, browser
) -> None:
    with dagster_dev(example_kb, tmp_path, tmp_path / "data") as port:
        built = wait_for(
            lambda: (
                (s := _stale_by_partition(port, "code_facts"))
                and set(s.values()) == {"FRESH"}
                and s
            ),
            timeout=600,
        )
        assert built, "the automation sensor never built every code_facts partition"
        assert CHANGED in built and len(built) > 3

        sensors, schedules = _instigators(port)
        assert schedules.get("observe_sources_daily") == "RUNNING"
        stopped = graphql(port, STOP, {"id": sensors["kb_automation"]["id"]})
        assert stopped["stopSensor"]["instigationState"]["status"] == "STOPPED"

        _commit_to(example_kb, CHANGED)
        stale = wait_for(
            lambda: (s := _stale_by_partition(port, "code_facts"))[CHANGED] == "STALE" and s,
            timeout=400,
        )
        assert stale, f"{CHANGED} never showed stale after its commit was observed"
        assert {k for k, v in stale.items() if v != "FRESH"} == {CHANGED}
        node = graphql(port, STALE, {"key": ["code_facts"]})["assetNodes"][0]
        causes = node["staleCausesByPartition"][node["partitionKeys"].index(CHANGED)]
        assert any(
            c["key"]["path"] == ["component_versions"] and c["partitionKey"] == CHANGED
            for c in causes
        ), causes

        # the run that built project_graph may still be finishing its check
        seen: dict = {}
        checks = wait_for(lambda: _checks_done(port, seen), timeout=300)
        assert checks, f"project_graph's checks never finished for its latest build: {seen}"
        assert all(status == "SUCCEEDED" for status in checks.values()), checks
        _screenshot(port, browser)
    assert SCREENSHOT.stat().st_size > 10_000
