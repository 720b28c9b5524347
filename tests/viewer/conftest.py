"""Fixtures for the viewer tests: a real server process, a real headless Chromium.

The server runs as the installed `kb viewer --port 0` console script (what a user runs)
and is stopped by its own pid. Chromium is the Debian package at /usr/bin/chromium;
a missing browser fails the test with the command that installs it, never a silent skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from viewer_sample import publish_sample

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("KB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
ARTIFACTS = REPO / "test-artifacts"
KB = str(Path(sys.executable).with_name("kb"))


class ViewerProcess:
    def __init__(self, args: list[str]):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [KB, "viewer", *args],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        self.startup_s = time.perf_counter() - self.started
        if " at http://" not in line:
            self.stop()
            raise AssertionError(f"kb viewer did not start: {line!r} {self.proc.stderr.read()!r}")
        self.url = line.rsplit(" at ", 1)[1].strip()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()


@pytest.fixture(scope="session", autouse=True)
def vendor_bundle() -> None:
    """The page's d3-force bundle, built from npm by viewer/setup.sh when missing."""
    if not (REPO / "viewer/static/vendor/d3-force.js").is_file():
        run = subprocess.run(["bash", "viewer/setup.sh"], cwd=REPO, capture_output=True, text=True)
        if run.returncode != 0:
            pytest.fail(f"viewer/setup.sh failed (needs npm): {run.stderr.strip()}")


@pytest.fixture(scope="session")
def sample_dir(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("viewer-wh")
    publish_sample(data, large=True)
    return data


@pytest.fixture
def serve():
    started: list[ViewerProcess] = []

    def start(*args: str) -> ViewerProcess:
        proc = ViewerProcess([*args, "--port", "0"])
        started.append(proc)
        return proc

    yield start
    for proc in started:
        proc.stop()


@pytest.fixture(scope="session")
def viewer_server(sample_dir):
    proc = ViewerProcess(["--data-dir", str(sample_dir), "--port", "0"])
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).is_file():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: install it with `apt-get install -y chromium` "
            "(the viewer tests drive a real headless browser; they are not skipped)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


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
            highlighted: v.highlighted, hop1: v.hop1, hidden: v.hidden,
            transform: v.transform, visible: v.visibleNodeCount, notices: v.notices }; }"""
    )
