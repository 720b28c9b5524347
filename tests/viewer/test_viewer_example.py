"""End to end on the bundled example: the real `kb refresh` builds it (suite fixture), `kb viewer` serves it, and
headless Chromium explores it. Expectations come from the server's own JSON, so the test
follows the example as it grows instead of pinning its line numbers.
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from viewer_harness import ARTIFACTS, ViewerProcess, open_view, viewer_state

ROUTE = "acme-shop/contact-api:route:POST /api/jp/contact"


@pytest.fixture(scope="module")
def example_server(built_example):
    """`kb viewer --kb <example>` over the suite's real `kb refresh` of the example."""
    proc = ViewerProcess(["--kb", str(built_example), "--port", "0"])
    yield proc
    proc.stop()


def graph_json(server, partition: str) -> dict:
    url = f"{server.url}api/graph?partition={partition}"
    with urllib.request.urlopen(url, timeout=10) as res:
        return json.load(res)


def neighbours(graph: dict, node: str, skip_types: set[str] = frozenset()) -> set[str]:
    out = set()
    for e in graph["edges"]:
        if e["type"] in skip_types:
            continue
        if e["src"] == node:
            out.add(e["dst"])
        elif e["dst"] == node:
            out.add(e["src"])
    return out - {node}


@pytest.mark.slow
def test_example_end_to_end(page, example_server, browser):
    graph = graph_json(example_server, "acme-shop")
    by_id = {n["id"]: n for n in graph["nodes"]}
    assert ROUTE in by_id, "the example's contact route is missing from the graph"
    route = by_id[ROUTE]

    open_view(page, example_server.url)
    assert viewer_state(page)["partition"] == "acme-shop"
    assert viewer_state(page)["visible"] == len(graph["nodes"])

    page.select_option("#partition", "_global")
    page.wait_for_function("__kbViewer.partition === '_global' && __kbViewer.settled")
    assert viewer_state(page)["visible"] == len(graph_json(example_server, "_global")["nodes"])
    page.select_option("#partition", "acme-shop")
    page.wait_for_function("__kbViewer.partition === 'acme-shop' && __kbViewer.settled")

    page.fill("#search", "POST /api/jp/contact")
    page.wait_for_selector(f"#suggestions li[data-id='{ROUTE}']")
    page.keyboard.press("Enter")
    page.wait_for_function(f"__kbViewer.selected === {ROUTE!r}")
    page.click("[data-hops='1']")
    assert set(viewer_state(page)["hop1"]) == neighbours(graph, ROUTE)

    panel = page.locator("#panel")
    assert panel.locator(".node-name").inner_text() == route["name"]
    loc = panel.locator("[data-testid=node-loc]").inner_text()
    assert loc.endswith(f"acme-shop/contact-api {route['file']}:{route['line']}")
    types = {e["type"] for e in graph["edges"] if ROUTE in (e["src"], e["dst"])}
    shown = set(panel.locator(".edge-group").evaluate_all("els => els.map(e => e.dataset.type)"))
    assert shown == types
    if "USES_MIDDLEWARE" in types:
        page.click(".legend-row[data-kind=edge][data-name=USES_MIDDLEWARE]")
        assert set(viewer_state(page)["hop1"]) == neighbours(graph, ROUTE, {"USES_MIDDLEWARE"})

    page.wait_for_timeout(300)
    before = viewer_state(page)
    page.screenshot(path=str(ARTIFACTS / "viewer-example.png"))
    other = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    open_view(other, page.url)
    after = viewer_state(other)
    for key in ("partition", "selected", "hops", "highlighted", "hidden", "visible"):
        assert after[key] == before[key], key
    other.context.close()
