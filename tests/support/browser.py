"""One headless Chromium per test module, shared by every test of it that drives a page.

Playwright's sync API runs its event loop in a greenlet of the main thread for as long as
its context is open: a second `sync_playwright()` is refused meanwhile, and so is any
`asyncio.run()` in that thread (Dagster's automation evaluation calls one). So the browser
is a module fixture (tests/conftest.py): pytest closes it before the next module's tests
run, whatever the order xdist hands them out in."""

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
