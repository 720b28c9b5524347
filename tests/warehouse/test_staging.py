"""Staged tables read back: one table of many staged components, as the catalog reads it."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from warehouse.staging import one_table_of_each, read_keyed, write_stage


def _stage(data: Path, key: str, **tables: pl.DataFrame) -> None:
    write_stage(data, "code_facts", key, tables)


def test_one_read_of_many_folders_gives_the_rows_of_each_in_order(tmp_path: Path) -> None:
    _stage(tmp_path, "shop/web", hosts=pl.DataFrame({"name": ["a.example"], "line": [3]}))
    _stage(
        tmp_path,
        "shop/api",
        hosts=pl.DataFrame({"name": ["b.example", "c.example"], "line": [1, 9]}),
    )
    _stage(tmp_path, "shop/cms", other=pl.DataFrame({"x": [1]}))  # no hosts table
    keys = ["shop/api", "shop/cms", "shop/web"]
    lazy = [t for _, t in sorted(read_keyed(tmp_path, "code_facts", keys, lazy=True).items())]
    frames = one_table_of_each(lazy, "hosts")
    assert len(frames) == 1  # one multi-file read
    assert frames[0]["name"].to_list() == ["b.example", "c.example", "a.example"]
    eager = read_keyed(tmp_path, "code_facts", keys)
    assert pl.concat(one_table_of_each([eager[k] for k in keys], "hosts")).equals(frames[0])


def test_folders_whose_schemas_differ_are_read_one_by_one(tmp_path: Path) -> None:
    _stage(tmp_path, "shop/api", hosts=pl.DataFrame({"name": ["b.example"], "line": [1]}))
    _stage(tmp_path, "shop/web", hosts=pl.DataFrame({"name": ["a.example"], "line": ["3"]}))
    lazy = list(read_keyed(tmp_path, "code_facts", ["shop/api", "shop/web"], lazy=True).values())
    frames = one_table_of_each(lazy, "hosts")
    assert [f["line"].to_list() for f in frames] == [[1], ["3"]]
