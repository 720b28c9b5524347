"""Fixtures: loopback Confluence/Drive fakes with credentials in env vars, planted secrets."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from import_fakes import FakeConfluence, FakeDrive  # noqa: E402

USER, TOKEN, DRIVE_TOKEN = "bot@acme.example", "conf-token-123", "drive-token-456"

# Fake credentials of several kinds, built from pieces so no scanner flags this file.
PLANTED = {
    "aws": "AKIA" + "Z3X7K2M4N8P3R5T6",
    "stripe": "sk_live_" + "9fQ2xL7mN4bV8cZ1aS6dF3gH",
    "github": "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8",
    "url_password": "Pl4nted-Db-Passw0rd",
    "keyword": "Hunter2-Planted-Secret",
}


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


def imports_config(confluence=None, drive=None, hubs=("1",), folders=("ROOT",), depth=2):
    out = {}
    if confluence is not None:
        out["confluence"] = {
            "base_url": confluence.url + "/wiki",
            "hubs": list(hubs),
            "token_env": "KB_TEST_CONF_TOKEN",
            "user_env": "KB_TEST_CONF_USER",
            "depth": depth,
        }
    if drive is not None:
        out["drive"] = {
            "folders": list(folders),
            "credentials_env": "KB_DRIVE_TOKEN",
            "api_endpoint": drive.url,
        }
    return out


def every_byte(*roots: Path) -> bytes:
    """All bytes of every file under the roots (KB tree, data dir): where a leak would be."""
    blob = bytearray()
    for root in roots:
        for path in sorted(Path(root).rglob("*")):
            if path.is_file():
                blob += path.read_bytes()
    return bytes(blob)
