"""How nodes, edges and rows read in an answer: short, one line each, `path:line`.

Code facts are `project/component path:line` (path relative to the component's
repo); knowledge nodes show the KB doc they come from when known.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_server.graph import ProjectGraph

MAX_CELL = 160


def where(pg: ProjectGraph, node_id: str) -> str:
    data = pg.node(node_id)
    file, line = data.get("file"), data.get("line")
    loc = f"{file}:{line}" if file and line else (file or "")
    project, component = data.get("project"), data.get("component")
    if component:
        prefix = f"{project}/{component}"
        return f"{prefix} {loc}".strip()
    if loc:
        return loc
    return ""


def ref(pg: ProjectGraph, node_id: str, kind: bool = True) -> str:
    data = pg.node(node_id)
    label = short(str(data.get("name") or node_id))
    if kind and data.get("kind"):
        label = f"{data['kind']} {label}"
    loc = where(pg, node_id)
    return f"{label} ({loc})" if loc else label


def attrs_text(data: dict[str, Any]) -> str:
    """Node or edge attrs as the JSON text the table stores them in (for text search)."""
    attrs = data.get("attrs")
    return json.dumps(attrs, sort_keys=True, default=str) if attrs else ""


def edge_label(data: dict[str, Any]) -> str:
    attrs = data.get("attrs") or {}
    bits = []
    written = attrs.get("expr") or attrs.get("call") or attrs.get("text")
    if isinstance(written, str) and written:
        bits.append(f"as {short(written, 60)}")  # the usage as written: auth('manageUsers')
    if attrs.get("via"):
        bits.append(f"via {attrs['via']}")
    envs = attrs.get("envs")
    if envs:
        bits.append("envs " + ("+".join(envs) if isinstance(envs, list) else str(envs)))
    if attrs.get("confidence") not in (None, "", "high", 1, 1.0):
        bits.append(f"confidence {attrs['confidence']}")
    extra = f" ({', '.join(bits)})" if bits else ""
    return f"--{data.get('type')}{extra}-->"


def short(value: Any, limit: int = MAX_CELL) -> str:
    """One-line rendering of a value, abbreviated (never a line break inside an answer)."""
    text = " ".join(str(value).split()) if value is not None else ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def unresolved_line(row: dict[str, Any]) -> str:
    return (
        f"unresolved {row.get('kind')} {short(row.get('expr'), 80)} "
        f"({row.get('project')}/{row.get('component')} {row.get('file')}:{row.get('line')}) "
        f"— {short(row.get('reason'), 80)}"
    )
