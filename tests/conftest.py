"""Suite-wide set-up: a fixed validation clock, no inherited DAGSTER_HOME, shared builds,
and the loopback Confluence/Drive fakes (used by tests/kb/imports/ and tests/assets/)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.support.browser import launched_chromium
from tests.support.import_fakes import DRIVE_TOKEN, TOKEN, USER, FakeConfluence, FakeDrive
from tests.support.portfolio import TODAY, copy_example, shared_built
from tests.support.processes import live, stop_leftovers
from vocab.stop_signals import restore_stop_signals

# PYTHONDONTWRITEBYTECODE is set on these machines: pytest would then rewrite the asserts
# of every test module anew in each process (~5 CPU-s per run and per xdist worker). Let it
# cache them in __pycache__ (git-ignored), as it does anywhere else.
sys.dont_write_bytecode = False
os.environ["KB_TODAY"] = TODAY
# Each KB's Dagster instance lives in its own (temporary) data dir unless a test sets one.
os.environ.pop("DAGSTER_HOME", None)
# Started by a background shell, pytest would hand ignored SIGINT/SIGTERM to everything
# it spawns (and Dagster's in-process runs copy SIGINT's disposition onto SIGTERM).
restore_stop_signals()


@pytest.fixture(autouse=True)
def _no_process_outlives_its_test():
    """Whatever a test started through tests/support/processes.py and left running is
    stopped (its whole process group) when the test ends; processes of module- and
    session-scoped fixtures (set up before this) are theirs to stop."""
    before = live()
    yield
    stop_leftovers(keep=before)


@pytest.fixture
def example_kb(tmp_path: Path) -> Path:
    """A fresh copy of the example portfolio (git repo, one commit); the KB root."""
    return copy_example(tmp_path / "portfolio")


@pytest.fixture(scope="session")
def built_example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example portfolio built once by the real `kb refresh` (read-only for tests);
    one build for all pytest-xdist workers."""
    return shared_built(tmp_path_factory, "built")


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium, one per test module (tests/support/browser.py says why)."""
    with launched_chromium() as chromium:
        yield chromium


@pytest.fixture
def env_creds(monkeypatch):
    """Import credentials in env vars, as kb.yaml's `*_env` fields name them."""
    monkeypatch.setenv("KB_TEST_CONF_USER", USER)
    monkeypatch.setenv("KB_TEST_CONF_TOKEN", TOKEN)
    monkeypatch.setenv("KB_DRIVE_TOKEN", DRIVE_TOKEN)


@pytest.fixture
def confluence():
    with FakeConfluence(USER, TOKEN) as server:
        yield server


@pytest.fixture
def drive():
    with FakeDrive(DRIVE_TOKEN) as server:
        yield server
