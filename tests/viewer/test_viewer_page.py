"""The viewer page in real headless Chromium against a real published warehouse."""

from __future__ import annotations

from viewer_harness import ARTIFACTS, ROUTE, ROUTE_NEIGHBOURS, open_view, viewer_state
from viewer_sample import large_partition, publish_parts, sample_partitions


def test_explore_search_highlight_legend_and_shared_url(page, viewer_server, browser):
    open_view(page, viewer_server.url)
    state = viewer_state(page)
    assert state["partition"] == "acme-shop"  # the first project, not _global
    assert state["visible"] == 19  # 11 code nodes + the project's knowledge/catalog nodes
    # the legend groups kinds by the layers the server sent with the graph, in that order
    headings = page.locator("#legend-body h4").all_text_contents()
    assert headings == ["knowledge nodes", "code nodes", "catalog nodes", "edges"]

    # switch partition and back, from the toolbar
    page.select_option("#partition", "globex-portal")
    page.wait_for_function("__kbViewer.partition === 'globex-portal' && __kbViewer.settled")
    assert viewer_state(page)["visible"] == 3
    page.select_option("#partition", "acme-shop")
    page.wait_for_function("__kbViewer.partition === 'acme-shop' && __kbViewer.settled")

    # find a node by part of its name; suggestions list it with its id
    page.fill("#search", "api/jp")
    suggestion = page.locator("#suggestions li").first
    assert suggestion.get_attribute("data-id") == ROUTE
    page.keyboard.press("Enter")
    page.wait_for_function(f"__kbViewer.selected === {ROUTE!r}")

    state = viewer_state(page)  # 2 hops by default: the handler's callee lights up too
    assert state["hops"] == 2 and set(state["hop1"]) == ROUTE_NEIGHBOURS
    assert "acme-shop/contact-api:symbol:createTicket" in state["hop2"]
    page.click("[data-hops='1']")
    state = viewer_state(page)
    assert state["hop2"] == [] and "hops=1" in page.url
    assert set(state["hop1"]) == ROUTE_NEIGHBOURS
    assert set(state["highlighted"]) == ROUTE_NEIGHBOURS | {ROUTE}

    # evidence panel: kind, where it is defined, attributes, edges grouped by type
    panel = page.locator("#panel")
    assert panel.locator(".kind-badge").inner_text() == "route"
    assert (
        panel.locator("[data-testid=node-loc]")
        .inner_text()
        .endswith("acme-shop/contact-api src/routes/contact.ts:18")
    )
    assert "/api/jp/contact" in panel.locator("[data-testid=attrs]").inner_text()
    group = panel.locator(".edge-group[data-type=USES_MIDDLEWARE][data-dir=out]")
    assert group.locator(".count").inner_text() == "1"
    assert "rateLimit" in group.inner_text() and "order 1" in group.inner_text()
    calls = panel.locator(".edge-group[data-type=CALLS][data-dir=in]")
    assert "via NEXT_PUBLIC_CONTACT_API_URL" in calls.inner_text()

    # the legend hides an edge type: the middleware is no longer a highlighted neighbour
    page.click(".legend-row[data-kind=edge][data-name=USES_MIDDLEWARE]")
    state = viewer_state(page)
    assert state["hidden"] == {"kinds": [], "edges": ["USES_MIDDLEWARE"]}
    assert set(state["hop1"]) == ROUTE_NEIGHBOURS - {"acme-shop/contact-api:middleware:rateLimit"}
    page.click(".legend-row[data-kind=kind][data-name=code_file]")
    assert viewer_state(page)["hidden"]["kinds"] == ["code_file"]

    # a neighbour in the panel selects it; so does a real click on the canvas
    page.click(f"#panel button.nb[data-id='{'acme-shop/contact-api:symbol:sendContactEmailJp'}']")
    assert viewer_state(page)["selected"] == "acme-shop/contact-api:symbol:sendContactEmailJp"
    pos = page.evaluate(f"__kbViewer.screenPos({ROUTE!r})")
    page.mouse.click(pos["x"], pos["y"])
    assert viewer_state(page)["selected"] == ROUTE

    page.mouse.move(700, 450)
    page.mouse.wheel(0, -240)  # zoom in; the URL keeps the transform
    page.wait_for_function("location.hash.includes('z=')")
    page.wait_for_timeout(300)
    before = viewer_state(page)
    before_pos = page.evaluate(f"__kbViewer.screenPos({ROUTE!r})")
    url = page.url
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "viewer-acme-shop.png"))

    # the URL alone reproduces the view in a fresh browser context
    other = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    open_view(other, url)
    after = viewer_state(other)
    for key in ("partition", "selected", "hops", "highlighted", "hop1", "hidden", "visible"):
        assert after[key] == before[key], key
    for axis, tolerance in (("k", 1e-3), ("x", 0.06), ("y", 0.06)):  # URL keeps 4 / 1 decimals
        assert abs(after["transform"][axis] - before["transform"][axis]) < tolerance
    after_pos = other.evaluate(f"__kbViewer.screenPos({ROUTE!r})")  # same layout, same place
    assert abs(after_pos["x"] - before_pos["x"]) < 1 and abs(after_pos["y"] - before_pos["y"]) < 1
    other.screenshot(path=str(ARTIFACTS / "viewer-acme-shop-reloaded.png"))
    other.context.close()


def test_unknown_partition_in_url_says_so_and_shows_a_partition(page, viewer_server):
    open_view(page, viewer_server.url + "#p=no-such-project&n=x")
    state = viewer_state(page)
    assert state["partition"] == "acme-shop" and state["selected"] is None
    assert (
        page.locator(".notice")
        .inner_text()
        .startswith("Unknown partition “no-such-project” — showing “acme-shop”.")
    )
    assert "p=acme-shop" in page.url


def test_unknown_node_in_url_says_so_and_shows_the_partition(page, viewer_server):
    open_view(page, viewer_server.url + "#p=acme-shop&n=acme-shop:secret:NOPE")
    state = viewer_state(page)
    assert state["partition"] == "acme-shop" and state["selected"] is None
    assert state["visible"] == 19
    assert (
        "Node “acme-shop:secret:NOPE” is not in partition “acme-shop”"
        in page.locator(".notice").inner_text()
    )


def test_empty_partition_says_it_is_empty(page, viewer_server):
    open_view(page, viewer_server.url + "#p=empty-proj")
    overlay = page.locator("#overlay")
    assert overlay.is_visible()
    assert "Partition “empty-proj” is empty" in overlay.inner_text()


def test_missing_warehouse_page_names_the_build_command(page, serve, tmp_path):
    server = serve("--kb", str(tmp_path / "my-kb"), "--data-dir", str(tmp_path / "nothing"))
    open_view(page, server.url, settled=False)
    overlay = page.locator("#overlay")
    assert overlay.is_visible()
    assert "No warehouse published yet" in overlay.inner_text()
    assert f"kb refresh --kb {tmp_path / 'my-kb'}" in overlay.locator("code").inner_text()
    page.screenshot(path=str(ARTIFACTS / "viewer-missing-warehouse.png"))


def test_republish_shows_up_on_reload(page, serve, tmp_path):
    data = tmp_path / "wh"
    parts = sample_partitions()
    publish_parts(data, parts)
    server = serve("--data-dir", str(data))
    open_view(page, server.url + "#p=globex-portal")
    assert viewer_state(page)["visible"] == 3
    parts["globex-portal"] = large_partition(40, 60)  # a rebuilt, bigger graph
    publish_parts(data, parts)
    page.reload()
    page.wait_for_function("__kbViewer.ready && __kbViewer.settled")
    assert viewer_state(page)["visible"] == 42  # 40 new nodes + its project and component


def test_dragging_a_node_pins_it(page, viewer_server):
    open_view(page, viewer_server.url + "#p=acme-shop")
    start = page.evaluate(f"__kbViewer.screenPos({ROUTE!r})")
    assert not start["pinned"]
    page.mouse.move(start["x"], start["y"])
    page.mouse.down()
    page.mouse.move(start["x"] + 60, start["y"] + 40, steps=8)
    page.mouse.up()
    page.wait_for_function("__kbViewer.settled")
    end = page.evaluate(f"__kbViewer.screenPos({ROUTE!r})")
    assert end["pinned"]
    moved = (end["x"] - start["x"], end["y"] - start["y"])
    assert abs(moved[0] - 60) < 2 and abs(moved[1] - 40) < 2, (start, end, viewer_state(page))
    assert viewer_state(page)["selected"] is None  # a drag is not a click
