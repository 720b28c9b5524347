"""A damaged warehouse file is named over MCP (not an opaque internal error)."""

from __future__ import annotations

import json
from pathlib import Path

from mcp_fixtures import StdioClient, mcp_synthetic


def test_tools_name_the_damaged_file(tmp_path: Path) -> None:
    synth = mcp_synthetic.build(tmp_path / "synthetic")
    data = synth["data"]
    build = data / json.loads((data / "manifest.json").read_text())["path"]
    nodes = build / "partition=acme-shop" / "nodes.parquet"
    nodes.write_bytes(nodes.read_bytes()[: nodes.stat().st_size // 2])
    client = StdioClient(synth["kb"], data)
    try:
        for tool, args in [
            ("kb_trace", {"start": "ContactForm", "project": "acme-shop"}),
            ("kb_sql", {"sql": "select count(*) from nodes", "project": "acme-shop"}),
        ]:
            text, err = client.call(tool, **args)
            assert err and "\n" not in text, text
            if tool == "kb_trace":
                assert "partition=acme-shop/nodes.parquet" in text and "kb refresh" in text, text
    finally:
        client.close()
