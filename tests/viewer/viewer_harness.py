"""Helpers for the viewer tests: the `kb viewer` process and reading the page's state.

Kept out of conftest.py so test modules can import them by a name no other suite uses.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.support.processes import start, stop_group

REPO = Path(__file__).resolve().parents[2]
# A route of the sample warehouse (viewer_sample.py) and its one-hop neighbours.
ROUTE = "acme-shop/contact-api:route:POST /api/jp/contact"
ROUTE_NEIGHBOURS = {
    "acme-shop/contact-api:code_file:src/routes/contact.ts",
    "acme-shop/contact-api:middleware:rateLimit",
    "acme-shop/contact-api:symbol:sendContactEmailJp",
    "acme-shop/web:http_call:contact-form.tsx:112",
}
ARTIFACTS = REPO / "test-artifacts"
KB = str(Path(sys.executable).with_name("kb"))


class ViewerProcess:
    def __init__(self, args: list[str]):
        self.started = time.perf_counter()
        self.proc = start(
            [KB, "viewer", *args],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        self.startup_s = time.perf_counter() - self.started
        if " at http://" not in line:
            if self.proc.poll() is None:
                stop_group(self.proc)
            err = self.proc.stderr.read() if not self.proc.stderr.closed else ""
            raise AssertionError(f"kb viewer did not start: {line!r} {err!r}")
        self.url = line.rsplit(" at ", 1)[1].strip()

    def stop(self) -> None:
        stop_group(self.proc)


def open_view(page, url: str, settled: bool = True):
    """Go to url and wait until the viewer has loaded (and its layout has stopped)."""
    page.goto(url)
    page.wait_for_function("window.__kbViewer && window.__kbViewer.ready", timeout=30_000)
    if settled:
        page.wait_for_function("window.__kbViewer.settled", timeout=60_000)
    return page


def viewer_state(page) -> dict:
    return page.evaluate(
        """() => { const v = window.__kbViewer; return {
            partition: v.partition, selected: v.selected, hops: v.hops,
            highlighted: v.highlighted, hop1: v.hop1, hop2: v.hop2, hidden: v.hidden,
            transform: v.transform, visible: v.visibleNodeCount, notices: v.notices }; }"""
    )
