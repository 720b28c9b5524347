"""Fixtures: write real Markdown trees into tmp dirs and index them."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from doc_context.index import DocIndex, chunk_frames


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _index_of(*sets) -> DocIndex:
    frames = [chunk_frames(s) for s in sets]
    return DocIndex.from_frames(
        pl.concat([f["doc_chunks"] for f in frames]), pl.concat([f["doc_edges"] for f in frames])
    )


@pytest.fixture
def write():
    return _write


@pytest.fixture
def index_of():
    return _index_of


@pytest.fixture
def tree(tmp_path: Path):
    return lambda files: _write(tmp_path, files)
