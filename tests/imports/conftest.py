"""Fixtures: loopback Confluence/Drive fakes with credentials in env vars."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from import_fakes import DRIVE_TOKEN, TOKEN, USER, FakeConfluence, FakeDrive  # noqa: E402


@pytest.fixture
def env_creds(monkeypatch):
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
