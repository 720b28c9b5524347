"""Each agent client's MCP config, in the format its documentation gives.

One server entry per KB, named after it (`kb-<kb.yaml name>`), so two KBs registered
with the same client coexist. A config is merged into what is there: other servers and
keys are kept, and a file that does not parse is refused, never overwritten.

| client | project file (KB or --target) | user file |
| --- | --- | --- |
| claude-code | `.mcp.json` `mcpServers` | — |
| gemini | `.gemini/settings.json` `mcpServers` | — |
| copilot | — | `~/.copilot/mcp-config.json` `mcpServers` (type local, tools) |
| vscode | `.vscode/mcp.json` `servers` (type stdio) | — |
| cursor | `.cursor/mcp.json` `mcpServers` | — |
| codex | `.codex/config.toml` `[mcp_servers.<name>]` with --target | `~/.codex/config.toml` |
"""

from __future__ import annotations

import json
import os
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

CLIENTS = ("claude-code", "gemini", "copilot", "vscode", "cursor", "codex")
LEGACY_NAME = "kb-graph"  # the one shared entry name before entries were named per KB


class ClientConfigError(Exception):
    """One line for the user: unknown client, or a config file that does not parse."""


def server_name(kb: Path) -> str:
    """`kb-<name>`: kb.yaml's `name:` (else the folder name), lowercase letters/digits/-."""
    name = ""
    try:
        for line in (kb / "kb.yaml").read_text(encoding="utf-8").splitlines():
            match = re.match(r"name:\s*['\"]?([^'\"#]+?)['\"]?\s*(#.*)?$", line)
            if match:
                name = match.group(1)
                break
    except OSError:
        pass
    slug = re.sub(r"[^a-z0-9]+", "-", (name or kb.resolve().name).lower()).strip("-")
    return f"kb-{slug or 'kb'}"


def server_command(kb: Path, data_dir: Path | None = None) -> tuple[str, list[str]]:
    """The command a client runs: this environment's `kb mcp --kb <abs kb>`."""
    script = Path(sys.executable).parent / "kb"
    args = ["mcp", "--kb", str(kb.resolve())]
    if data_dir is not None:
        args += ["--data-dir", str(data_dir.resolve())]
    if script.exists():
        return str(script), args
    return sys.executable, ["-m", "cli", *args]


def portable_command(kb: Path, folder: Path, data_dir: Path | None = None) -> tuple[str, list[str]]:
    """The command for a config a team commits: `kb` found on PATH and the KB named relative
    to `folder`, the project folder the client starts the server in."""
    args = ["mcp", "--kb", os.path.relpath(kb.resolve(), folder.resolve())]
    if data_dir is not None:
        args += ["--data-dir", os.path.relpath(data_dir.resolve(), folder.resolve())]
    return "kb", args


def _home() -> Path:
    return Path(os.environ.get("HOME") or Path.home())


def config_path(client: str, folder: Path, target: bool) -> Path:
    """Where `client` reads MCP servers: `folder` is the KB, or the --target code repo."""
    if client == "claude-code":
        return folder / ".mcp.json"
    if client == "gemini":
        return folder / ".gemini" / "settings.json"
    if client == "copilot":
        return _home() / ".copilot" / "mcp-config.json"
    if client == "vscode":
        return folder / ".vscode" / "mcp.json"
    if client == "cursor":
        return folder / ".cursor" / "mcp.json"
    if client == "codex":
        if target:
            return folder / ".codex" / "config.toml"  # read in trusted projects only
        return Path(os.environ.get("CODEX_HOME") or _home() / ".codex") / "config.toml"
    raise ClientConfigError(f"unknown client '{client}' — one of: {', '.join(CLIENTS)}")


def entry(client: str, command: str, args: list[str]) -> dict[str, Any]:
    if client == "vscode":
        return {"type": "stdio", "command": command, "args": args}
    if client == "copilot":
        return {"type": "local", "command": command, "args": args, "tools": ["*"]}
    return {"command": command, "args": args}


def _same_kb(old: Any, new: dict[str, Any]) -> bool:
    """An old shared `kb-graph` entry that served this same KB (replaced, not kept twice)."""
    if not isinstance(old, dict) or not isinstance(old.get("args"), list):
        return False
    kb_args = new["args"][new["args"].index("--kb") : new["args"].index("--kb") + 2]
    return any(old["args"][i : i + 2] == kb_args for i in range(len(old["args"])))


def _merged_json(client: str, path: Path, name: str, new: dict[str, Any]) -> str:
    data: Any = {}
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8") or "{}")
        except json.JSONDecodeError as exc:
            raise ClientConfigError(
                f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg}) — fix it there "
                "or move the file; not overwritten"
            ) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ClientConfigError(
                f"{path}: not valid JSON ({exc.__class__.__name__}) — fix or move it; not overwritten"
            ) from None
    if not isinstance(data, dict):
        raise ClientConfigError(f"{path}: expected a JSON object — fix or move it; not overwritten")
    key = "servers" if client == "vscode" else "mcpServers"
    servers = data.get(key) or {}
    if not isinstance(servers, dict):
        raise ClientConfigError(f"{path}: '{key}' is not an object — fix it; not overwritten")
    if name != LEGACY_NAME and _same_kb(servers.get(LEGACY_NAME), new):
        del servers[LEGACY_NAME]
    servers[name] = new
    data[key] = servers
    return json.dumps(data, indent=2) + "\n"


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def _merged_toml(path: Path, name: str, new: dict[str, Any]) -> str:
    """Codex's config.toml with `[mcp_servers.<name>]` replaced or appended; the rest of the
    text (comments, other tables) is kept byte for byte."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ClientConfigError(
            f"{path}: not valid TOML ({exc}) — fix or move it; not overwritten"
        ) from None
    header = re.compile(rf"^\[mcp_servers\.(\"{re.escape(name)}\"|{re.escape(name)})(\.[^\]]+)?\]")
    kept: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("["):
            skipping = bool(header.match(line.strip()))
        if not skipping:
            kept.append(line)
    body = "".join(kept).rstrip("\n")
    block = (
        f"[mcp_servers.{name}]\n"
        f"command = {_toml_string(new['command'])}\n"
        f"args = [{', '.join(_toml_string(a) for a in new['args'])}]\n"
    )
    return (body + "\n\n" if body else "") + block


def merged_config(client: str, path: Path, name: str, command: str, args: list[str]) -> str:
    """The config file's new text with this KB's entry set (everything else kept)."""
    new = entry(client, command, args)
    if client == "codex":
        return _merged_toml(path, name, new)
    return _merged_json(client, path, name, new)
