from __future__ import annotations

from pathlib import Path

import mcp_synthetic as synthetic
import pytest

from tests.support.mcp_stdio import StdioClient


@pytest.fixture(scope="session")
def synth(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return synthetic.build(tmp_path_factory.mktemp("synthetic"))


@pytest.fixture(scope="session")
def mcp(synth: dict[str, Path]):
    client = StdioClient(synth["kb"], synth["data"])
    yield client
    client.close()
