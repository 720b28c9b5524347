"""Fixtures for the viewer tests: a real server process, a real headless Chromium.

The server runs as the installed `kb viewer --port 0` console script (what a user runs)
and is stopped by its own pid. Chromium is the Debian package at /usr/bin/chromium;
a missing browser fails the test with the command that installs it, never a silent skip.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from viewer_harness import REPO, ViewerProcess
from viewer_sample import publish_sample


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
