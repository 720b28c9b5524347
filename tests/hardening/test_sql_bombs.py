"""Memory bombs in ad-hoc SQL: one 900 MB string, 50 rows of 100 MB strings, 20 million
rows asked for with `--limit`. Each is refused in one line or answered with its cells
clipped, the SQL worker stays within its address-space bound (its 1 GB DuckDB cap and
the answer), and the next query is answered — over MCP and from `kb sql`. And
`kb sql --json` prints JSON: NaN and ±Infinity become null."""

from __future__ import annotations

import json
import resource
from pathlib import Path

import pytest
from mcp_fixtures import StdioClient, mcp_synthetic

from tests.support.portfolio import kb_cli

BOMBS = {
    "one-900-MB-string": "select repeat('x', 900000000) as s",
    "50-rows-of-100-MB": "select repeat('x', 100000000) as s from range(50)",
}


@pytest.fixture(scope="module")
def synth(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return mcp_synthetic.build(tmp_path_factory.mktemp("synthetic"))


def _sql(synth, *args: str):
    where = ["--kb", str(synth["kb"]), "--data-dir", str(synth["data"])]
    return kb_cli("sql", *where, *args, process=True, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOMBS))
def test_cli_bomb_is_bounded_and_one_line(synth, name: str) -> None:
    done = _sql(synth, BOMBS[name])
    out = done.stdout + done.stderr
    assert "Traceback" not in out
    if done.returncode:
        assert len(out.strip().splitlines()) == 1 and "memory" in out, out[:500]
    else:
        assert "clipped at 1,000,000 characters" in out and len(out) < 60 * 2**20
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    assert peak_mb < 2600, f"peak {peak_mb} MB"  # was 4.4-9 GB


@pytest.mark.slow
def test_cli_twenty_million_rows_are_refused_past_the_answer_cap(synth) -> None:
    done = _sql(
        synth, "--limit", "20000000", "select range as x, 'row ' || range as y from range(20000000)"
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "the answer passed 64 MB" in out, out[-500:]
    assert len(out.strip().splitlines()) == 1


@pytest.mark.slow
def test_mcp_bombs_are_refused_and_the_server_answers_after(synth) -> None:
    client = StdioClient(synth["kb"], synth["data"])
    try:
        for sql in BOMBS.values():
            text, err = client.call("kb_sql", sql=sql, project="acme-shop")
            assert "\n" not in text.strip() or not err, text[:300]
        text, err = client.call("kb_sql", sql="select 42 as answer", project="acme-shop")
    finally:
        client.close()
    assert not err and "42" in text


def test_json_output_has_no_nan_or_infinity(synth) -> None:
    done = kb_cli(
        "sql", "--kb", str(synth["kb"]), "--data-dir", str(synth["data"]), "--json",
        "select 'nan'::double as a, 'inf'::double as b, '-inf'::double as c, 1.5::double as d",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout, parse_constant=lambda c: pytest.fail(c)) == [
        {"a": None, "b": None, "c": None, "d": 1.5}
    ]
