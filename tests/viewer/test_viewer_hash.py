"""A URL typed or pasted into an open viewer tab (only its hash changes, so the page does
not reload) shows what it says, as opening it in a new tab would."""

from __future__ import annotations

from viewer_harness import ROUTE, ROUTE_NEIGHBOURS, open_view, viewer_state


def _go(page, **params: str) -> None:
    """What a person does in the address bar of the open tab: a new hash, same page."""
    page.evaluate("(p) => { location.hash = new URLSearchParams(p).toString(); }", params)


def test_a_new_hash_in_an_open_tab_changes_the_view(page, viewer_server) -> None:
    open_view(page, viewer_server.url + "#p=acme-shop")
    page.evaluate("window.__loaded = true")  # gone if the page reloaded
    assert viewer_state(page)["selected"] is None

    _go(page, p="acme-shop", n=ROUTE, hops="1", he="USES_MIDDLEWARE")
    page.wait_for_function(f"__kbViewer.selected === {ROUTE!r}")
    state = viewer_state(page)
    assert state["hops"] == 1 and state["hop2"] == []
    assert set(state["hop1"]) == ROUTE_NEIGHBOURS - {"acme-shop/contact-api:middleware:rateLimit"}
    assert state["hidden"] == {"kinds": [], "edges": ["USES_MIDDLEWARE"]}
    assert page.locator("#panel .kind-badge").inner_text() == "route"

    _go(page, p="globex-portal")
    page.wait_for_function("__kbViewer.partition === 'globex-portal' && __kbViewer.settled")
    state = viewer_state(page)
    assert state["selected"] is None and state["visible"] == 3
    assert page.locator("#partition").input_value() == "globex-portal"

    _go(page, p="no-such-project")
    page.wait_for_function("__kbViewer.notices.length > 0")
    assert viewer_state(page)["partition"] == "globex-portal"
    assert "Unknown partition “no-such-project”" in page.locator(".notice").inner_text()
    assert page.evaluate("window.__loaded") is True
