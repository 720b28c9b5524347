"""The server's life: no warehouse yet, republish, a vanished build, stale code,
no Dagster in the process, `kb mcp`, and a smoke test with the MCP Inspector CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import mcp_synthetic as synthetic
import pytest
from mcp import StdioServerParameters

from tests.support.mcp_stdio import ROOT, StdioClient
from warehouse.publish import publish
from warehouse.reader import Warehouse


def _republish_with_extra_route(data: Path, route: str) -> None:
    """Publish the current build's tables again plus one route node."""
    import polars as pl

    from warehouse.tables import frame

    wh = Warehouse(data)
    manifest = wh.manifest()
    parts = {
        p: {t: wh.read(p, t) for t in manifest["partitions"][p]["tables"]}
        for p in manifest["partitions"]
    }
    extra = frame(
        "nodes",
        [
            {
                "id": f"acme-shop/api:route:{route}",
                "kind": "route",
                "name": route,
                "project": "acme-shop",
                "component": "api",
                "file": "src/routes/new.ts",
                "line": 3,
            }
        ],
    )
    parts["acme-shop"]["nodes"] = pl.concat([parts["acme-shop"]["nodes"], extra])
    publish(data, parts, {"components": manifest["components"]})


def test_missing_warehouse_then_published_then_republished(tmp_path):
    built = synthetic.build(tmp_path / "src")
    data = tmp_path / "late"
    client = StdioClient(built["kb"], data)
    try:
        text, err = client.call("kb_status")
        assert (
            err and "no warehouse published" in text and "kb refresh" in text and "\n" not in text
        )
        shutil.copytree(built["data"], data)  # a build lands while the server runs
        text, err = client.call("kb_find", kind="route", query="*", project="acme-shop")
        assert not err and "POST /api/jp/contact" in text and "GET /api/v2/late" not in text
        _republish_with_extra_route(data, "GET /api/v2/late")
        text, err = client.call("kb_find", kind="route", query="*", project="acme-shop")
        assert not err and "GET /api/v2/late (acme-shop/api src/routes/new.ts:3)" in text
        text, err = client.call("kb_neighbors", node="GET /api/v2/late", project="acme-shop")
        assert not err and "no edge per the static graph" in text
    finally:
        client.close()


def test_a_vanished_build_is_one_line_and_serving_continues(tmp_path):
    built = synthetic.build(tmp_path)
    client = StdioClient(built["kb"], built["data"])
    try:
        assert not client.call("kb_trace", start="ContactForm", project="acme-shop")[1]
        build_dir = Warehouse(built["data"]).build_dir
        shutil.rmtree(build_dir)  # mid-publish / pruned under our feet
        for tool, args in [
            ("kb_trace", {"start": "ContactForm", "project": "acme-shop"}),
            ("kb_sql", {"sql": "select 1", "project": "acme-shop"}),
            ("kb_find", {"kind": "package", "query": "*"}),
        ]:
            text, err = client.call(tool, **args)
            assert err and "\n" not in text and ("missing" in text or "retry" in text), text
        _republish_missing(built)
        text, err = client.call("kb_trace", start="ContactForm", project="acme-shop")
        assert not err and "POST /api/jp/contact" in text
    finally:
        client.close()


def _republish_missing(built: dict[str, Path]) -> None:
    fresh = synthetic.build(built["kb"].parent / "again")
    shutil.rmtree(built["data"])
    shutil.copytree(fresh["data"], built["data"])


def test_edited_code_marks_answers_stale(synth, mcp):
    repo = synth["api_repo"]
    text, _ = mcp.call("kb_trace", start="ContactForm", project="acme-shop")
    assert "code_graph_stale" not in text
    target = repo / "src" / "services" / "zendesk.ts"
    original = target.read_text()
    target.write_text(original + "export const extra = 2;\n")
    try:
        deadline = time.monotonic() + 10  # the version check is cached ~2 s, refreshed aside
        while True:
            text, err = mcp.call("kb_trace", start="ContactForm", project="acme-shop")
            if "code_graph_stale" in text or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert not err
        stale = [
            ln
            for ln in text.splitlines()
            if ln.startswith("code_graph_stale: acme-shop/api built ")
        ]
        assert stale and ".dirty." in stale[0]
        text, _ = mcp.call("kb_status", project="acme-shop")
        assert "code_graph_stale: acme-shop/api built" in text
        text, _ = mcp.call("kb_trace", start="ContactForm", project="globex-portal")
        assert "code_graph_stale" not in text
    finally:
        target.write_text(original)
        deadline = time.monotonic() + 10
        while "code_graph_stale" in mcp.call("kb_status", project="acme-shop")[0]:
            assert time.monotonic() < deadline
            time.sleep(0.3)


def test_server_never_imports_dagster_assets_or_extractors(synth):
    code = (
        "import sys; from pathlib import Path\n"
        "from mcp_server.server import create_server\n"
        "import mcp_server.__main__\n"
        f"s = create_server(Path({str(synth['kb'])!r}), Path({str(synth['data'])!r}))\n"
        "from mcp_server import tools_trace, tools_admin, tools_catalog\n"
        "st = s.state\n"
        "st.answer(lambda a: tools_trace.trace(st, a, 'ContactForm', 'acme-shop', None, 'down', None, 6), None)\n"
        "st.answer(lambda a: tools_admin.sql(st, a, 'select 1', 'acme-shop'), None)\n"
        "st.answer(lambda a: tools_catalog.find(st, a, 'package', '*', '*'), None)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dagster', 'assets', 'extractors'))\n"
        "print(bad)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_kb_mcp_cli_serves_the_same_tools(synth):
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "cli",
            "mcp",
            "--kb",
            str(synth["kb"]),
            "--data-dir",
            str(synth["data"]),
        ],
        cwd=str(ROOT),
    )
    client = StdioClient(params=params)
    try:
        assert len(client.tools()) == 9
        text, err = client.call("kb_compare", kind="package", name="express")
        assert not err and "globex-portal/api | 4.19.2" in text
    finally:
        client.close()


@pytest.mark.skipif(
    shutil.which("npx") is None,
    reason="npx (Node.js) is not installed: MCP Inspector smoke test skipped",
)
@pytest.mark.slow
def test_mcp_inspector_cli_lists_and_calls_tools(synth):
    base = [
        "npx",
        "-y",
        "@modelcontextprotocol/inspector",
        "--cli",
        sys.executable,
        "-m",
        "mcp_server",
        "--kb",
        str(synth["kb"]),
        "--data-dir",
        str(synth["data"]),
    ]
    out = subprocess.run(
        [*base, "--method", "tools/list"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    names = {t["name"] for t in json.loads(out.stdout)["tools"]}
    assert len(names) == 9 and "kb_trace" in names
    out = subprocess.run(
        [
            *base,
            "--method",
            "tools/call",
            "--tool-name",
            "kb_trace",
            "--tool-arg",
            "start=ContactForm",
            "--tool-arg",
            "project=acme-shop",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "route POST /api/jp/contact" in json.loads(out.stdout)["content"][0]["text"]
