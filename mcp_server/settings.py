"""`setting` nodes in answers: one config/deploy statement at its `file:line`.

A setting (package.json `engines.node`, `.nvmrc`, a compose `image`, a Hosting rewrite, a
Terraform variable default, an app mount or global prefix, an API base URL constant …)
reads `name = value (project/component file:line) — about`. The component view, the
file view, the route view (mount/prefix lines of its path), kb_entity on a setting,
kb_impact (settings that name the target) and kb_find (runtime/host/integration settings
across projects) all render it through this module.
"""

from __future__ import annotations

import re
from typing import Any

from mcp_server.budget import Answer
from mcp_server.graph import ProjectGraph
from mcp_server.render import short, where
from mcp_server.state import State
from warehouse.reader import dict_rows

KIND = "setting"
SHOWN_ATTRS = ("value", "about", "source", "refers_to")


def is_setting(pg: ProjectGraph, node: str) -> bool:
    return pg.node(node).get("kind") == KIND


def settings_of(pg: ProjectGraph, comp: str | None, path: str | None = None) -> list[str]:
    """The settings of a component (or of one of its files), in file/line order."""
    if path is not None:
        ids = [n for n in pg.by_file.get(path, []) if is_setting(pg, n)]
    else:
        ids = list(pg.kind_index(KIND))
    ids = [n for n in ids if comp is None or pg.node(n).get("component") == comp]
    return sorted(ids, key=lambda n: (pg.node(n).get("file") or "", pg.node(n).get("line") or 0))


def text_of(attrs: dict[str, Any], name: str, loc: str, limit: int = 90) -> str:
    """`name = value (loc) — about [source]` (→ refers_to when it points at something)."""
    value = attrs.get("value")
    head = (
        f"{short(name, 60)} = {short(value, limit)}" if value not in (None, "") else short(name, 60)
    )
    text = f"{head} ({loc})" if loc else head
    if attrs.get("about"):
        text += f" — {short(attrs['about'], 70)}"
    refers = attrs.get("refers_to")
    if refers:
        shown = ", ".join(map(str, refers)) if isinstance(refers, list) else str(refers)
        text += f" → {short(shown, 60)}"
    return text


def line_of(pg: ProjectGraph, node: str) -> str:
    text = text_of(pg.attrs(node), str(pg.node(node).get("name") or node), where(pg, node))
    return text + value_from(pg, node)


_ATTR_EXPR = re.compile(r"^[A-Za-z_][\w.]*\.([A-Za-z_]\w*)$")


def value_from(pg: ProjectGraph, node: str) -> str:
    """Where a setting written as `settings.api_prefix` gets its value: the settings field
    of that name in the same component (a pydantic/env-backed field, `API_PREFIX`)."""
    m = _ATTR_EXPR.match(str(pg.attrs(node).get("expr") or ""))
    if not m:
        return ""
    comp = pg.node(node).get("component")
    for n in pg.by_name.get(m.group(1).lower(), []):
        d = pg.node(n)
        if d.get("kind") == "env_var" and d.get("component") == comp and d.get("file"):
            return f"; value from field {m.group(1)} ({d['file']}:{d.get('line')})"
    return ""


def section(
    pg: ProjectGraph,
    ans: Answer,
    ids: list[str],
    title: str,
    prio: int,
    group: str | None = "setting",
) -> None:
    """A titled list of settings; group=None keeps every line out of the budget's
    per-type grouping (a component's few settings are its facts, not a catalog)."""
    if not ids:
        return
    ans.add(f"{title} ({len(ids)}): name = value (file:line) — what it sets", prio=prio)
    for n in ids:
        ans.touch(pg.project, pg.node(n).get("component"))
        ans.add(line_of(pg, n), prio=prio, group=group, indent="  ")


def setting_view(pg: ProjectGraph, ans: Answer, node: str) -> None:
    """kb_entity on a setting: its value at file:line, what it refers to, who refers to it,
    and the project's other settings with the same value (its attrs follow in the entity)."""
    a = pg.attrs(node)
    ans.add(f"setting: {line_of(pg, node)}")
    referrers = [
        (u, d) for u, _, d in pg.g.in_edges(node, data=True) if d.get("type") != "DECLARES"
    ]
    targets = [(v, d) for _, v, d in pg.g.out_edges(node, data=True)]
    for label, items in (("referred to by", referrers), ("refers to", targets)):
        if items:
            ans.add(f"{label} ({len(items)}):", prio=5)
        for other, d in items[:20]:
            loc = f"{d.get('file')}:{d.get('line')}" if d.get("file") else where(pg, other)
            ans.add(
                f"{d.get('type')} {pg.node(other).get('kind')} {short(pg.node(other).get('name'), 80)} ({loc})",
                prio=5,
                group=label,
                indent="  ",
            )
    value = str(a.get("value") or "")
    same = [n for n in naming(pg, [value]) if n != node] if len(value) >= 2 else []
    if same:
        section(pg, ans, same, "settings with the same value", 8)


def _word(needle: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.-]){re.escape(needle)}(?![\w-])", re.I)


def blob(attrs: dict[str, Any], fields: tuple[str, ...] = ("value", "refers_to")) -> str:
    parts = []
    for key in fields:
        v = attrs.get(key)
        if isinstance(v, list):
            parts += map(str, v)
        elif v not in (None, ""):
            parts.append(str(v))
    return " ".join(parts)


def naming(pg: ProjectGraph, needles: list[str], component: str | None = None) -> list[str]:
    """Settings whose name, value or refers_to names a needle as a whole word."""
    pats = [_word(n) for n in {x.strip() for x in needles} if len(n) >= 2]
    if not pats:
        return []
    found = []
    for n in settings_of(pg, component):
        text = f"{pg.node(n).get('name')} {blob(pg.attrs(n))}"
        if any(p.search(text) for p in pats):
            found.append(n)
    return found


def mentioning(pg: ProjectGraph, text: str, component: str | None = None) -> list[str]:
    """Settings whose name or `about` names the text as a whole word (`region` → the
    Terraform line whose about is "default region")."""
    if len(text.strip()) < 2:
        return []
    pat = _word(text.strip())
    return [
        n
        for n in settings_of(pg, component)
        if pat.search(f"{pg.node(n).get('name')} {pg.attrs(n).get('about') or ''}")
    ]


def _segments(path: str) -> list[str]:
    return [s for s in path.strip("/").split("/") if s]


_AT = re.compile(r"([\w./\[\]{}()@-]+):(\d+)")


def route_mounts(pg: ProjectGraph, route: str) -> list[str]:
    """Settings that build the route's path: those at the `file:line`s its mount attrs name,
    else those of its component whose value is a run of the path's segments (an app mount
    `/v1`, a router prefix, a probe path)."""
    data = pg.node(route)
    a = pg.attrs(route)
    named = {
        (f, int(n))
        for key in ("mounts", "mount", "prefix", "prefixes")
        for item in (a.get(key) if isinstance(a.get(key), list) else [a.get(key)])
        if isinstance(item, str)
        for f, n in _AT.findall(item)
    }
    own = settings_of(pg, data.get("component"))
    if named:
        return [n for n in own if (pg.node(n).get("file"), pg.node(n).get("line")) in named]
    path = _segments(str(data.get("name") or "").split(" ", 1)[-1])
    found = []
    for n in own:
        value = str(pg.attrs(n).get("value") or "").strip()
        segs = _segments(value)
        if not value.startswith("/") or not segs:
            continue
        k = len(segs)
        if any(path[i : i + k] == segs for i in range(len(path) - k + 1)):
            found.append(n)
    return found


def route_paths(pg: ProjectGraph, route: str) -> list[str]:
    """Settings of the project whose value or refers_to is the route (`GET /ready`) or its
    path (`/ready`) — a probe, a rewrite source — in any component (a Terraform probe names
    the API's route)."""
    full = " ".join(str(pg.node(route).get("name") or "").split())
    path = full.split(" ", 1)[-1].rstrip("/")
    if not path.startswith("/") or len(path) < 2:
        return []
    wanted = {full.lower(), path.lower()}
    found = []
    for n in settings_of(pg, None):
        a = pg.attrs(n)
        refs = a.get("refers_to")
        refs = refs if isinstance(refs, list) else [refs]
        values = [a.get("value"), *refs]
        if any(str(v or "").strip().rstrip("/").lower() in wanted for v in values):
            found.append(n)
    return found


def env_settings(pg: ProjectGraph, ans: Answer, envname: str) -> None:
    """Settings that name an env var (a build-time constant for it, a Secret Manager
    mapping), then the settings naming their path or URL value (the Hosting rewrite of
    the `/api` a build constant sets)."""
    first = naming(pg, [envname])
    values = [
        str(pg.attrs(n).get("value") or "")
        for n in first
        if str(pg.attrs(n).get("value") or "").startswith(("/", "http"))
    ]
    second = [n for n in naming(pg, values) if n not in first] if values else []
    section(pg, ans, first, "settings that name it", 3)
    section(pg, ans, second, "settings naming those values", 4)


# -- across projects (kb_find): settings are deploy facts, read from each partition --------


def all_settings(state: State) -> list[dict[str, Any]]:
    """Every project's setting rows (project, component, name, file, line, attrs)."""

    def make() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for p in state.projects():
            df = state.read(p, "nodes")
            if not df.height or "kind" not in df.columns:
                continue
            rows = df.filter(df["kind"] == KIND)
            if rows.height:
                out += dict_rows(rows)
        return out

    return state.cached("settings", make)


FIND_FIELDS = ("name", "value", "about", "source", "refers_to")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.I)


def find_rows(state: State, kind: str, query: str, project: str | None) -> list[dict[str, Any]]:
    """Settings matching a kb_find query: value/about/name/source mention it; for `*`
    only kind=host lists settings (those whose value is a URL)."""
    q = query.strip().lower()
    out = []
    for row in all_settings(state):
        if project and row.get("project") != project:
            continue
        a = row.get("attrs") or {}
        if q in ("", "*"):
            if kind == "host" and _URL.match(str(a.get("value") or "")):
                out.append(row)
            continue
        text = f"{row.get('name')} {blob(a, FIND_FIELDS[1:])}".lower()
        if q.replace("*", "") and q.replace("*", "") in text:
            out.append(row)
    return sorted(
        out,
        key=lambda r: (
            r["project"],
            r.get("component") or "",
            r.get("file") or "",
            r.get("line") or 0,
        ),
    )


def find_section(ans: Answer, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    ans.add(f"settings (config/deploy statements) mentioning it: {len(rows)}", prio=4)
    for r in rows:
        loc = f"{r['project']}/{r.get('component')} {r.get('file')}:{r.get('line')}"
        ans.add(
            text_of(r.get("attrs") or {}, str(r.get("name")), loc),
            prio=6,
            group="setting",
            indent="  ",
        )
