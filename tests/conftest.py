"""Suite-wide set-up: a fixed validation clock, no inherited DAGSTER_HOME, shared builds."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from portfolio import TODAY, build, copy_example  # noqa: E402

os.environ["KB_TODAY"] = TODAY
# Each KB's Dagster instance lives in its own (temporary) data dir unless a test sets one.
os.environ.pop("DAGSTER_HOME", None)


@pytest.fixture
def example_kb(tmp_path: Path) -> Path:
    """A fresh copy of the example portfolio (git repo, one commit); the KB root."""
    return copy_example(tmp_path / "portfolio")


@pytest.fixture(scope="session")
def built_example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example portfolio built once by the real `kb refresh` (read-only for tests)."""
    kb_root = copy_example(tmp_path_factory.mktemp("built") / "portfolio")
    build(kb_root)
    return kb_root
