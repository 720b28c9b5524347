"""A partition published under the same signature is hard-linked from the last build,
unless one of its files there is damaged: then it is written again."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from warehouse.integrity import damaged_files
from warehouse.publish import publish
from warehouse.tables import frame


def _partitions(line: int) -> dict[str, dict[str, pl.DataFrame]]:
    node = {"id": "p/route", "project": "p", "kind": "route", "name": "GET /", "line": line}
    return {"p": {"nodes": frame("nodes", [node])}, "_global": {}}


def _file(data: Path, manifest: dict) -> Path:
    return data / manifest["path"] / "partition=p" / "nodes.parquet"


def test_same_signature_links_and_a_damaged_file_is_written_again(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = publish(data, _partitions(1), signatures={"p": "s1"})
    # same signature: linked from the last build, even though the frame given differs
    second = publish(data, _partitions(1), signatures={"p": "s1"})
    assert _file(data, second).stat().st_ino == _file(data, first).stat().st_ino
    assert second["partitions"]["p"] == {"tables": first["partitions"]["p"]["tables"]} | {
        "signature": "s1"
    }
    # another signature: written
    third = publish(data, _partitions(2), signatures={"p": "s2"})
    assert _file(data, third).stat().st_ino != _file(data, second).stat().st_ino
    assert pl.read_parquet(_file(data, third))["line"].to_list() == [2]
    # a damaged file of the last build is not linked into the next one
    _file(data, third).write_bytes(b"broken")
    manifest = json.loads((data / "manifest.json").read_text())
    assert damaged_files(data, manifest)
    fourth = publish(data, _partitions(2), signatures={"p": "s2"})
    assert damaged_files(data, fourth) == []
    assert pl.read_parquet(_file(data, fourth))["line"].to_list() == [2]


def test_a_frame_published_into_another_data_dir_is_written_not_linked(tmp_path: Path) -> None:
    """One process publishing two warehouses (tests, a tool) must not share files: damage to
    the first would break the second."""
    tables = _partitions(3)
    first = publish(tmp_path / "one", tables)
    second = publish(tmp_path / "two", tables)
    assert (
        _file(tmp_path / "two", second).stat().st_ino
        != _file(tmp_path / "one", first).stat().st_ino
    )
    _file(tmp_path / "one", first).write_bytes(b"broken")
    assert pl.read_parquet(_file(tmp_path / "two", second))["line"].to_list() == [3]
