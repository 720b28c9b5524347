"""The blocking `no_cross_project_edges` check judges every project graph it is handed,
also when the refresh service hands it the same unchanged graph objects again."""

from __future__ import annotations

import dagster as dg
import polars as pl

from assets.graph import no_cross_project_edges
from warehouse.tables import frame


def _edges(dst: str) -> pl.DataFrame:
    return frame(
        "edges", [{"src": "a/web:symbol:x", "dst": dst, "type": "CALLS", "file": "x.ts", "line": 3}]
    )


def _check(graphs: dict) -> dg.AssetCheckResult:
    return no_cross_project_edges(graphs)


def test_a_cross_project_edge_fails_the_check_every_time_it_is_judged() -> None:
    crossing, fine = _edges("b/api:route:GET /"), _edges("a/api:route:GET /")
    graphs = {"a": {"edges": crossing}, "c": {"edges": fine}}
    for _ in range(2):  # the same objects again, as the service hands them
        assert not _check(graphs).passed
    assert _check({"a": {"edges": fine}, "c": {"edges": fine}}).passed
    again = {"a": {"edges": _edges("b/api:route:GET /")}}  # an equal, new frame
    assert not _check(again).passed
