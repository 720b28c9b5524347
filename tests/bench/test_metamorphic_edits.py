"""The line map of a rewrite and the scorer's matching rules, on small hand-made cases."""

from __future__ import annotations

import pytest

from bench.metamorphic.edits import Edit, Loc, NewFile, Piece, Plan, render
from bench.metamorphic.facts import Fact
from bench.metamorphic.scorer import ComponentRewrite, score_family

SOURCE = b"line1\nconst a = 1;\nfunction moved() {\n  return a;\n}\nlast();\n"


def _offsets(text: bytes, needle: bytes) -> tuple[int, int]:
    start = SOURCE.index(needle)
    return start, start + len(needle)


def test_lines_after_an_insertion_shift():
    plan = Plan(edits=[Edit("f.js", 0, 0, ["// one\n// two\n"])])
    r = render(plan, {"f.js": SOURCE})
    assert r.files["f.js"].startswith(b"// one\n// two\nline1")
    assert r.map_line("f.js", 1) == {Loc("f.js", 3)}
    assert r.map_line("f.js", 6) == {Loc("f.js", 8)}


def test_a_moved_function_maps_to_its_new_file():
    start, end = _offsets(SOURCE, b"function moved() {\n  return a;\n}\n")
    plan = Plan(
        edits=[Edit("f.js", start, end, ["import { moved } from './part';\n"])],
        new_files=[
            NewFile(
                "part.js",
                ["// carved out\n", Piece(start, end), "export { moved };\n"],
                origin="f.js",
            )
        ],
    )
    r = render(plan, {"f.js": SOURCE})
    assert r.map_line("f.js", 3) == {Loc("part.js", 2)}
    assert r.map_line("f.js", 4) == {Loc("part.js", 3)}
    assert r.map_line("f.js", 6) == {Loc("f.js", 4)}  # after the one-line import
    assert r.files["part.js"].decode().splitlines()[1] == "function moved() {"


def test_a_rewritten_line_maps_to_its_replacement_and_alternates():
    start, end = _offsets(SOURCE, b"last();")
    plan = Plan(
        edits=[
            Edit("f.js", start, end, ["for (const x of [1]) {\n", "  last();\n}"], alt_parts=(1,))
        ]
    )
    r = render(plan, {"f.js": SOURCE})
    assert r.map_line("f.js", 6) == {Loc("f.js", 6), Loc("f.js", 7)}


def test_a_line_of_only_rewritten_text_also_maps_to_where_its_next_piece_went():
    """`router.get(` alone on its line, its path on the next: once the call becomes a loop
    item, the item's line (where the path went) is one of the line's places."""
    source = b"x();\nrouter.get(\n  '/',\n  h\n);\n"
    start, end = source.index(b"router"), source.rindex(b");") + 2
    path, handler = source.index(b"'/'"), source.index(b"h\n")
    parts = ["for (const r of [\n", "  // the registration moved\n", "  { path: ",
             Piece(path, path + 3), ", h: ", Piece(handler, handler + 1),
             " },\n]) {\n  router.get(r.path, r.h);\n}"]  # fmt: skip
    r = render(Plan(edits=[Edit("f.js", start, end, parts)]), {"f.js": source})
    assert r.files["f.js"].decode().splitlines()[3] == "  { path: '/', h: h },"
    assert r.map_line("f.js", 2) == {Loc("f.js", 2), Loc("f.js", 4)}
    assert r.map_line("f.js", 3) == {Loc("f.js", 4)}  # the path itself moved as a piece


def test_overlapping_edits_are_a_rewriter_bug():
    plan = Plan(edits=[Edit("f.js", 0, 10, ["x"]), Edit("f.js", 5, 12, ["y"])])
    with pytest.raises(ValueError, match="overlapping"):
        render(plan, {"f.js": SOURCE})


def _fact(kind="routes", a="GET /api/items", b="", file="r.js", line=5, **kw) -> Fact:
    return Fact(kind, "p", "api", a, b, file, line, **kw)


def _identity(files: dict[str, bytes]) -> dict:
    return {("p", "api"): ComponentRewrite(render(Plan(), files))}


def test_a_fact_one_line_off_still_counts_but_not_two():
    files = {"r.js": b"\n" * 10}
    assert score_family([_fact()], [_fact(line=6)], _identity(files))["invariance"] == 1.0
    result = score_family([_fact()], [_fact(line=7)], _identity(files))
    assert result["invariance"] == 0.0
    assert result["kinds"]["routes"]["misses"][0]["fact"].startswith(
        "p/api GET /api/items @ r.js:5"
    )


def test_a_dropped_prefix_is_a_miss():
    files = {"r.js": b"\n" * 10}
    result = score_family([_fact()], [_fact(a="GET /items")], _identity(files))
    assert result["invariance"] == 0.0
    assert "GET /items" in result["kinds"]["routes"]["misses"][0]["why"]


def test_an_env_placeholder_for_the_old_literal_reads_as_the_literal():
    files = {"w.js": b"\n" * 10}
    before = _fact("http_calls", "GET https://api.example.test/v1/items", file="w.js")
    after = _fact("http_calls", "GET {KB_META_API}/items", file="w.js")
    rw = {
        ("p", "api"): ComponentRewrite(
            render(Plan(), files), equivalent_bases={"kb_meta_api": "https://api.example.test/v1"}
        )
    }
    result = score_family([before], [after], rw)
    assert result["invariance"] == 1.0
    assert result["side"]["http_url"]["invariant"] == 1  # the whole template agrees too
    rw[("p", "api")].equivalent_bases.clear()
    assert score_family([before], [after], rw)["invariance"] == 0.0  # path /items is not /v1/items


def test_bridges_into_a_rewritten_component_are_at_risk():
    web_call = Fact("calls", "p", "web", "api", "GET /api/items", "w.js", 3)
    result = score_family([web_call], [], {("p", "api"): ComponentRewrite(render(Plan(), {}))})
    assert result["kinds"]["calls"]["before"] == 1
    assert result["invariance"] == 0.0
    untouched = score_family([web_call], [], {("p", "other"): ComponentRewrite(render(Plan(), {}))})
    assert untouched["kinds"]["calls"]["before"] == 0
    assert untouched["control_drift"]["count"] == 1
