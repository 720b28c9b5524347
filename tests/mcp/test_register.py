"""`kb register` writes each client's config, merging, plus AGENTS.md and pointers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def kb_cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture()
def kbdir(tmp_path: Path) -> Path:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "kb.yaml").write_text("name: t\n", encoding="utf-8")
    return kb


@pytest.mark.parametrize(
    "client, rel, key, pointer",
    [
        ("claude-code", ".mcp.json", "mcpServers", "CLAUDE.md"),
        ("gemini", ".gemini/settings.json", "mcpServers", "GEMINI.md"),
        ("vscode", ".vscode/mcp.json", "servers", ".github/copilot-instructions.md"),
        ("copilot", None, "mcpServers", ".github/copilot-instructions.md"),
    ],
)
def test_register_merges_and_writes_agents_md(kbdir, tmp_path, client, rel, key, pointer):
    home = tmp_path / "home"
    home.mkdir()
    cfg = home / ".copilot" / "mcp-config.json" if rel is None else kbdir / rel
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(
        json.dumps({key: {"other": {"command": "other-server"}}, "theme": "dark"}), encoding="utf-8"
    )
    (kbdir / "AGENTS.md").write_text("# Team notes\nkeep me\n", encoding="utf-8")
    out = kb_cli("register", client, "--kb", str(kbdir), home=home)
    assert out.returncode == 0, out.stderr
    data = json.loads(cfg.read_text(encoding="utf-8"))
    assert data["theme"] == "dark" and data[key]["other"] == {"command": "other-server"}
    entry = data[key]["kb-t"]
    assert entry["args"][:3] == ["mcp", "--kb", str(kbdir.resolve())] or "mcp" in entry["args"]
    agents = (kbdir / "AGENTS.md").read_text(encoding="utf-8")
    assert agents.startswith("# Team notes\nkeep me\n")
    assert (
        "index/projects.yaml" in agents and "index/decisions.md" in agents and "kb_find" in agents
    )
    assert "not** proof of no relation" in agents
    assert 'direction="up"' in agents and "kb_impact(target=" in agents  # per question class
    assert "AGENTS.md" in (kbdir / pointer).read_text(encoding="utf-8")
    # idempotent: a second run changes nothing
    before = {p: p.read_text(encoding="utf-8") for p in (cfg, kbdir / "AGENTS.md", kbdir / pointer)}
    assert kb_cli("register", client, "--kb", str(kbdir), home=home).returncode == 0
    assert before == {p: p.read_text(encoding="utf-8") for p in before}


def test_registered_command_starts_the_server(kbdir, tmp_path):
    home = tmp_path / "home"
    assert kb_cli("register", "claude-code", "--kb", str(kbdir), home=home).returncode == 0
    entry = json.loads((kbdir / ".mcp.json").read_text())["mcpServers"]["kb-t"]
    from mcp import StdioServerParameters

    from tests.support.mcp_stdio import StdioClient

    params = StdioServerParameters(command=entry["command"], args=entry["args"], cwd=str(tmp_path))
    client = StdioClient(params=params)
    try:
        assert len(client.tools()) == 9
        text, err = client.call("kb_status")
        assert err and "kb refresh" in text  # no warehouse yet: one line, still serving
        text, err = client.call("kb_find", kind="package", query="*")
        assert err and "kb refresh" in text
    finally:
        client.close()


def test_print_writes_nothing(kbdir, tmp_path):
    out = kb_cli("register", "vscode", "--print", "--kb", str(kbdir), home=tmp_path)
    assert out.returncode == 0
    assert '"servers"' in out.stdout and "kb-t" in out.stdout and "AGENTS.md" in out.stdout
    assert not (kbdir / ".vscode").exists() and not (kbdir / "AGENTS.md").exists()


def test_invalid_json_is_refused_not_clobbered(kbdir, tmp_path):
    (kbdir / ".mcp.json").write_text("{not json", encoding="utf-8")
    out = kb_cli("register", "claude-code", "--kb", str(kbdir), home=tmp_path)
    assert out.returncode == 1 and "not valid JSON" in out.stderr
    assert (kbdir / ".mcp.json").read_text(encoding="utf-8") == "{not json"
