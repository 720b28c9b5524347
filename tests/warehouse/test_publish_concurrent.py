"""Two processes publishing into one data dir at once — a run the UI's daemon launched
and one the refresh service ran finishing together — both succeed, and the warehouse
they leave is whole (one publish's clean-up used to remove the other's folder mid-write,
and the run failed)."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

from warehouse.integrity import damaged_files
from warehouse.publish import publish
from warehouse.tables import frame


def _publish_many(data_dir: str, tag: str, times: int) -> None:
    for i in range(times):
        nodes = [
            {"id": f"p/c:symbol:{tag}{i}-{n}", "project": "p", "component": "c", "kind": "symbol",
             "name": f"{tag}{i}-{n}", "file": "a.ts", "line": 1, "end_line": 1, "attrs": "{}"}
            for n in range(200)
        ]  # fmt: skip
        publish(Path(data_dir), {"p": {"nodes": frame("nodes", nodes)}})


def test_concurrent_publishes_both_succeed(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_publish_many, args=(str(tmp_path), tag, 8)) for tag in ("a", "b")]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=600)
    assert [p.exitcode for p in procs] == [0, 0]
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert damaged_files(tmp_path, manifest) == []
    assert not list((tmp_path / "builds").glob("*.tmp"))
