"""`kb register <client> --target DIR` for each client in its documented config format,
into the code repo where the agent runs, one entry per KB named after it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tests.support.checks import output
from tests.support.portfolio import kb_cli

# client -> (config file relative to the target, or ~ for the user's home; servers key)
CLIENTS = {
    "claude-code": (".mcp.json", "mcpServers"),
    "gemini": (".gemini/settings.json", "mcpServers"),
    "vscode": (".vscode/mcp.json", "servers"),
    "cursor": (".cursor/mcp.json", "mcpServers"),
    "codex": (".codex/config.toml", "mcp_servers"),
    "copilot": ("~/.copilot/mcp-config.json", "mcpServers"),
}


def _kb(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "kb.yaml").write_text(f"name: {name}\n", encoding="utf-8")
    return folder


def _servers(path: Path, key: str) -> dict:
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    return data[key]


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_target_gets_config_pointer_and_kb_graph_file(tmp_path: Path, client: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    payments = _kb(tmp_path / "payments-kb", "payments")
    platform = _kb(tmp_path / "platform-kb", "Platform Team")
    code = tmp_path / "code" / "shop-api"
    code.mkdir(parents=True)
    rel, key = CLIENTS[client]
    config = home / rel[2:] if rel.startswith("~/") else code / rel
    for kb in (payments, platform):
        done = kb_cli(
            "register", client, "--kb", str(kb), "--target", str(code), env={"HOME": str(home)}
        )
        assert done.returncode == 0, output(done)
    servers = _servers(config, key)
    assert set(servers) == {"kb-payments", "kb-platform-team"}
    args = servers["kb-platform-team"]["args"]
    assert args[:3] == ["mcp", "--kb", str(platform.resolve())]
    assert Path(servers["kb-platform-team"]["command"]).name in {"kb", "python", "python3"}
    if client == "vscode":
        assert servers["kb-payments"]["type"] == "stdio"
    if client == "copilot":
        assert servers["kb-payments"]["type"] == "local" and servers["kb-payments"]["tools"] == [
            "*"
        ]
    # the code repo now finds its KB by itself, and its agent is told where the rules are
    assert (code / ".kb-graph").read_text(encoding="utf-8").strip() == str(platform.resolve())
    pointers = [p for p in code.rglob("*.md") if "AGENTS.md" in p.read_text(encoding="utf-8")]
    assert pointers and str(platform.resolve() / "AGENTS.md") in pointers[0].read_text()
    assert "layer" in (platform / "AGENTS.md").read_text(encoding="utf-8")


def test_codex_config_keeps_other_servers_and_comments(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    existing = '# my settings\nmodel = "o4"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n'
    (home / ".codex" / "config.toml").write_text(existing, encoding="utf-8")
    kb = _kb(tmp_path / "kb", "team")
    for _ in range(2):  # twice: the second run replaces its own entry, adds nothing
        done = kb_cli("register", "codex", "--kb", str(kb), env={"HOME": str(home)})
        assert done.returncode == 0, output(done)
    text = (home / ".codex" / "config.toml").read_text(encoding="utf-8")
    assert text.startswith(existing) and text.count("[mcp_servers.kb-team]") == 1
    assert set(tomllib.loads(text)["mcp_servers"]) == {"docs", "kb-team"}


def test_a_config_that_does_not_parse_is_refused_not_clobbered(tmp_path: Path) -> None:
    code = tmp_path / "code"
    (code / ".cursor").mkdir(parents=True)
    (code / ".cursor" / "mcp.json").write_text("{oops", encoding="utf-8")
    kb = _kb(tmp_path / "kb", "team")
    done = kb_cli("register", "cursor", "--kb", str(kb), "--target", str(code))
    assert done.returncode == 1 and "not valid JSON" in done.stderr
    assert (code / ".cursor" / "mcp.json").read_text(encoding="utf-8") == "{oops"
    assert not (code / ".kb-graph").exists()
