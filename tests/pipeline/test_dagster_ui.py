"""The Dagster UI in a real browser: the lineage address demo.sh and the README print
shows the assets themselves (every group expanded), not a row of collapsed groups.

Starts `dagster dev` for a copy of the example (tests/support/dagster_dev.py) and drives
Debian's chromium through Playwright; docs/dagster-lineage.png is one of its screenshots.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest

from tests.support.dagster_dev import REPO, dagster_dev

# Written under test-artifacts/ (git-ignored); docs/dagster-lineage.png is a copy of one.
SCREENSHOT = REPO / "test-artifacts" / "dagster-lineage.png"


def _printed_url() -> str:
    text = (REPO / "scripts" / "demo.sh").read_text(encoding="utf-8")
    return re.search(r"http://127\.0\.0\.1:3000/asset-groups\?expanded=\S+", text).group(0)


def test_printed_address_names_every_asset_group() -> None:
    from pipeline.definitions import defs
    from pipeline.ui import ASSET_GROUPS, lineage_url

    groups = {spec.group_name for spec in defs.resolve_all_asset_specs()}
    assert set(ASSET_GROUPS) == groups  # what `kb ui` prints
    expanded = _printed_url().split("expanded=", 1)[1].split(",")
    assert sorted(expanded) == sorted(f"global@global:{g}" for g in groups)
    assert _printed_url() == lineage_url("127.0.0.1", 3000)
    assert _printed_url() in (REPO / "README.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_lineage_shows_the_assets_without_expanding(
    example_kb: Path, tmp_path: Path, browser
) -> None:
    with dagster_dev(example_kb, tmp_path) as port:
        base = f"http://127.0.0.1:{port}"
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(_printed_url().replace("http://127.0.0.1:3000", base))
        skip = page.get_by_role("button", name="Skip")
        with contextlib.suppress(Exception):  # a one-time newsletter dialog, if shown
            skip.click(timeout=20_000)
        for asset in ("code_facts", "knowledge_graph", "warehouse", "kb_docs"):
            page.get_by_text(asset, exact=True).first.wait_for(timeout=60_000)
        page.wait_for_timeout(2000)
        SCREENSHOT.parent.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOT))
        page.close()
    assert SCREENSHOT.stat().st_size > 10_000
