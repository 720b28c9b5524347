from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import mcp_synthetic as synthetic  # noqa: E402
from mcp_stdio import StdioClient  # noqa: E402


@pytest.fixture(scope="session")
def synth(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return synthetic.build(tmp_path_factory.mktemp("synthetic"))


@pytest.fixture(scope="session")
def mcp(synth: dict[str, Path]):
    client = StdioClient(synth["kb"], synth["data"])
    yield client
    client.close()
