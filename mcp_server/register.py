"""`kb register <client>`: point an agent client at the kb-graph MCP server.

Writes the client's MCP config, merged into what is there (other servers and keys are
kept; a file that is not valid JSON is refused, never overwritten), the KB's
`AGENTS.md` with the layer-selection rules (inside a marked block, so the rest of the
file is the user's), and the client's one-line pointer file to AGENTS.md.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SERVER = "kb-graph"
CLIENTS = ("claude-code", "gemini", "copilot", "vscode")
BEGIN, END = "<!-- kb-graph:begin -->", "<!-- kb-graph:end -->"
POINTER = "Read AGENTS.md first: it says which kb-graph layer answers which question."

AGENTS_RULES = f"""{BEGIN}
# Working with this knowledge base (kb-graph)

Answer from the cheapest layer that can; read more only when it cannot.

| question | use |
| --- | --- |
| a single fact about one project (runtime, URL, GCP project, deploy, secret location) | `index/projects.yaml` — one file read |
| decisions, "why did we do this" | `index/decisions.md` (ADR summaries), then the ADR itself |
| "where does this button / call site post to, down to the handler and services" | `kb_trace(start=<path:line, component or call site>, project=)` — direction `down` |
| "who calls this route / handler?", "which frontend code reaches it?" | `kb_trace(start=<"METHOD /full/path" or handler>, project=, direction="up")` |
| "does X reach Y?" | `kb_trace(start=X, to=Y, project=)` |
| "what breaks if this secret / env var / route / middleware / file changes?" | `kb_impact(target=, project=)` — readers with `path:line`, routes behind a middleware that reads it, the call sites that reach those routes, deploy envs, docs; tests listed apart |
| "what does component C do?" (routes → handler + middleware, env vars read, outbound/inbound calls, secrets, runtime) | `kb_entity(name=<component>, project=)` |
| "what is in this file?" (routes, handlers, env reads, calls, importers) | `kb_entity(name=<path>, project=, component=)` |
| one route: its middleware chain in order, handler, what the handler calls, who calls it | `kb_entity(name="METHOD /full/path", project=, component=)` |
| one hop of edges of one node (e.g. only `USES_MIDDLEWARE`, only incoming `CALLS`) | `kb_neighbors(node=, edge_types=[...], direction=, project=)` |
| "is there a route / call / read X?" (negatives) | `kb_entity` or `kb_trace(to=)` on it: a missing one is answered "no — per the static graph" with the nearest routes (other method, one segment off) and the unresolved calls that could hide an edge |
| cross-project: "which projects use Nuxt", compare Express versions, runtimes | `kb_find` / `kb_compare` with `project="*"` (catalog only — the only tools that accept `*`) |
| which docs to read before a task | `kb_context(task, max_tokens, project=)` |
| anything else | `kb_sql` (read-only SQL, one project) |

Rules:
- Always pass `project=`; components of different projects share names (`api`, `web`).
  `project="*"` is refused by every tool except `kb_find` and `kb_compare`.
- Routes are named `METHOD /full/path` (every mount prefix included, the framework's own
  parameter syntax: `:id`, `{{id}}`, `<id>`, `[id]`).
- Code facts read `project/component path:line`; a middleware is shown at the line where
  that route gets it (with `defined …` when it lives elsewhere).
- The graph is static. "No edge per the static graph" is **not** proof of no relation:
  read the unresolved/dynamic calls listed with it, and check the code before concluding.
- An answer ending in `collapsed:` was cut to its budget: ask again with a larger
  `budget=` or a narrower question (one route, one file, `edge_types=`).
- An answer with `code_graph_stale:` was built from older code: say so, or run `kb refresh`.
- Secrets are never stored; the KB holds their name, location and hint only.
{END}
"""

POINTER_FILES = {
    "claude-code": "CLAUDE.md",
    "gemini": "GEMINI.md",
    "copilot": ".github/copilot-instructions.md",
    "vscode": ".github/copilot-instructions.md",
}


class RegisterError(Exception):
    """One line for the user (unknown client, unreadable config)."""


@dataclass
class Planned:
    path: Path
    content: str


def server_command(kb: Path, data_dir: Path | None = None) -> tuple[str, list[str]]:
    """The command a client runs: this environment's `kb mcp --kb <abs kb>`."""
    script = Path(sys.executable).parent / "kb"
    args = ["mcp", "--kb", str(kb.resolve())]
    if data_dir is not None:
        args += ["--data-dir", str(data_dir.resolve())]
    if script.exists():
        return str(script), args
    return sys.executable, ["-m", "cli", *args]


def config_path(client: str, kb: Path) -> Path:
    if client == "claude-code":
        return kb / ".mcp.json"
    if client == "gemini":
        return kb / ".gemini" / "settings.json"
    if client == "copilot":
        home = Path(os.environ.get("HOME") or Path.home())
        return home / ".copilot" / "mcp-config.json"
    if client == "vscode":
        return kb / ".vscode" / "mcp.json"
    raise RegisterError(f"unknown client '{client}' — one of: {', '.join(CLIENTS)}")


def _entry(client: str, command: str, args: list[str]) -> dict[str, Any]:
    if client == "vscode":
        return {"type": "stdio", "command": command, "args": args}
    if client == "copilot":
        return {"type": "local", "command": command, "args": args, "tools": ["*"]}
    return {"command": command, "args": args}


def _load_json(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise RegisterError(
            f"{path}: not valid JSON ({exc.__class__.__name__}) — fix or move it; not overwritten"
        ) from None
    if not isinstance(data, dict):
        raise RegisterError(f"{path}: expected a JSON object — fix or move it; not overwritten")
    return data


def _merged_config(client: str, path: Path, entry: dict[str, Any]) -> str:
    data = _load_json(path)
    key = "servers" if client == "vscode" else "mcpServers"
    servers = data.get(key)
    if servers is None:
        servers = {}
    if not isinstance(servers, dict):
        raise RegisterError(f"{path}: '{key}' is not an object — fix it; not overwritten")
    servers[SERVER] = entry
    data[key] = servers
    return json.dumps(data, indent=2) + "\n"


def _with_block(existing: str | None) -> str:
    if not existing:
        return AGENTS_RULES
    if BEGIN in existing and END in existing:
        head, rest = existing.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        return head + AGENTS_RULES.rstrip("\n") + tail
    return existing.rstrip("\n") + "\n\n" + AGENTS_RULES


def _with_pointer(existing: str | None) -> str:
    if not existing:
        return POINTER + "\n"
    if POINTER in existing:
        return existing
    return existing.rstrip("\n") + "\n\n" + POINTER + "\n"


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def plan(client: str, kb: Path, data_dir: Path | None = None) -> list[Planned]:
    """The files `register` writes, with their new content."""
    if client not in CLIENTS:
        raise RegisterError(f"unknown client '{client}' — one of: {', '.join(CLIENTS)}")
    if not (kb / "kb.yaml").is_file():
        raise RegisterError(f"{kb}: not a KB (no kb.yaml) — pass --kb DIR")
    command, args = server_command(kb, data_dir)
    cfg = config_path(client, kb)
    agents = kb / "AGENTS.md"
    pointer = kb / POINTER_FILES[client]
    return [
        Planned(cfg, _merged_config(client, cfg, _entry(client, command, args))),
        Planned(agents, _with_block(_read(agents))),
        Planned(pointer, _with_pointer(_read(pointer))),
    ]


def write(planned: list[Planned]) -> None:
    for item in planned:
        item.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = item.path.with_name(item.path.name + f".tmp-{os.getpid()}")
        tmp.write_text(item.content, encoding="utf-8")
        os.replace(tmp, item.path)
