"""How nodes, edges and rows read in an answer: short, one line each, `path:line`.

Code facts are `project/component path:line` (path relative to the component's
repo); knowledge nodes show the KB doc they come from when known.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_server.graph import ProjectGraph

MAX_CELL = 160


def span(data: dict[str, Any]) -> str:
    """`file:12-18` when the node spans lines, `file:12` when it sits on one, the bare path
    for a whole file (its span is the file), '' when it has no place in code."""
    file, line, end = data.get("file"), data.get("line"), data.get("end_line")
    if not file:
        return ""
    if not line or data.get("kind") == "code_file":
        return str(file)
    if isinstance(end, int) and end > line:
        return f"{file}:{line}-{end}"
    return f"{file}:{line}"


def _registration(pg: ProjectGraph, node_id: str, data: dict[str, Any]) -> dict[str, Any]:
    """A route whose node spans its decorated handler is registered on the lines above the
    handler (`@router.post(...)` and its decorators): print those, not the handler's body."""
    end = data.get("end_line")
    if data.get("kind") != "route" or not isinstance(end, int) or end <= (data.get("line") or 0):
        return data
    starts = [
        pg.node(v).get("line") or 0
        for _, v, d in pg.g.out_edges(node_id, data=True)
        if d.get("type") == "ROUTES_TO" and pg.node(v).get("file") == data.get("file")
    ]
    inside = [s for s in starts if data["line"] < s <= end]
    return {**data, "end_line": min(inside) - 1} if inside else data


def where(pg: ProjectGraph, node_id: str) -> str:
    data = pg.node(node_id)
    loc = span(_registration(pg, node_id, data))
    project, component = data.get("project"), data.get("component")
    if component:
        prefix = f"{project}/{component}"
        return f"{prefix} {loc}".strip()
    if loc:
        return loc
    return ""


TF_BLOCKS = {"variable", "output", "provider", "data", "module", "locals", "terraform"}


def kind_label(data: dict[str, Any]) -> str:
    """The kind as a reader means it: a Terraform `variable` block is a variable, not a
    resource (the extractor files every block under tf_resource, with its `block`)."""
    kind = str(data.get("kind") or "")
    block = (data.get("attrs") or {}).get("block") if kind == "tf_resource" else None
    if block in TF_BLOCKS:
        return f"terraform {block}"
    return kind


def ref(pg: ProjectGraph, node_id: str, kind: bool = True) -> str:
    data = pg.node(node_id)
    label = short(str(data.get("name") or node_id))
    if kind and data.get("kind"):
        label = f"{kind_label(data)} {label}"
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
    said = confidence_words(attrs)
    if said:
        bits.append(said)
    if data.get("type") == "CALLS":
        bits += calls_tail(attrs)
    extra = f" ({', '.join(bits)})" if bits else ""
    return f"--{data.get('type')}{extra}-->"


def calls_tail(attrs: dict[str, Any]) -> list[str]:
    """A CALLS hop's resolution kind, the link between call and route it rests on (first
    evidence item past the call site) and the run-time condition of an alternative."""
    out = []
    evidence = [e for e in attrs.get("evidence") or [] if isinstance(e, str)]
    link = next((e for e in evidence[1:-1] if ":" in e.split(" ", 1)[0]), "")
    if attrs.get("resolution") and attrs.get("confidence") in (None, "high"):
        out.append(f"{attrs['resolution']}" + (f" by {short(link, 70)}" if link else ""))
    if attrs.get("condition"):
        out.append(f"when {short(attrs['condition'], 50)}")
    return out


MATCH_WORDS = {
    "param": "the path matched through route parameters",
    "loose": "a call template matched a literal route segment",
    "suffix": "only the path's tail matched (the base is unknown)",
    "heuristic": "a verb-named call with a URL-shaped argument",
}


def confidence_words(attrs: dict[str, Any]) -> str:
    """A low- or medium-confidence edge said in words, with how it was matched and why it
    was written; '' for a high-confidence edge (the default an agent may assume)."""
    level = attrs.get("confidence")
    if isinstance(level, int | float) and not isinstance(level, bool):
        level = "high" if level >= 0.8 else "medium" if level >= 0.5 else "low"
    if level in (None, "", "high"):
        return ""
    text = f"{level} confidence"
    how = MATCH_WORDS.get(str(attrs.get("match") or ""))
    if how:
        text += f" — {how}"
    if attrs.get("resolution"):
        text += f"; resolved by {short(attrs.get('how') or attrs['resolution'], 90)}"
    return text


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
