"""One headless Chromium per test process, shared by every test that drives a page.

Playwright's sync API runs its event loop in a greenlet of the main thread for as long as
its context is open, and refuses a second `sync_playwright()` while one is: so a test
process opens it once (a session fixture in tests/conftest.py) and every browser test —
the viewer's, the Dagster UI's — takes a page from that one browser."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("KB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


@contextmanager
def launched_chromium() -> Iterator[object]:
    """Debian's Chromium through Playwright; a missing browser fails with the fix."""
    if not Path(CHROMIUM).is_file():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: install it with `apt-get install -y chromium` "
            "(the browser tests drive a real headless browser; they are not skipped)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
