"""Lookups that find nothing: a plain "no — per the static graph", never a bare error.

A route the graph does not have (`GET /v1/auth/login` where only `POST` exists) is
answered by the negatives engine's route evidence: the routes one method, segment or
mount prefix away and the placeholder-prefix routes that could be it; a file it does not
have, by the nearest files and their routes; `path:line` on a line where nothing
starts, by the enclosing node with a note. A name with several meanings stays an error
listing the candidates (the caller must pick).
"""

from __future__ import annotations

import difflib
import re

from mcp_server.budget import Answer
from mcp_server.graph import ProjectGraph, hiding
from mcp_server.negatives import NO, route_evidence
from mcp_server.render import unresolved_line, where
from mcp_server.resolve import NEAR_KINDS, off_span, resolve
from mcp_server.route_names import route_parts, segments
from mcp_server.state import ToolFailure

_PATH_LINE = re.compile(r"^(.+?):(\d+)$")


def plain_no(pg: ProjectGraph, ans: Answer, text: str, component: str | None, what: str) -> None:
    parts = route_parts(text)
    scope = pg.project + (f"/{component}" if component else "")
    kind = "route" if parts else what
    ans.add(f"{NO}: no {kind} '{text}' in {scope}.")
    if parts:
        route_evidence(pg, ans, parts[0], parts[1], component)
    same = [
        n
        for n in pg.by_name.get(text.lower(), [])
        if pg.node(n).get("project") == pg.project
        and (not component or pg.node(n).get("component") != component)
    ]
    if same:
        ans.add("same name elsewhere in the project:")
        for n in same[:8]:
            ans.add(
                f"{pg.node(n).get('kind')} {pg.node(n).get('name')} ({where(pg, n)})",
                prio=6,
                indent="  ",
            )
    rows, _ = hiding(pg, component)
    if rows:
        ans.add(f"unresolved/dynamic calls that could hide an edge ({len(rows)}):")
        for row in rows[:8]:
            ans.add(unresolved_line(row), prio=20, group="unresolved", indent="  ")


def _path_like(text: str) -> bool:
    return " " not in text and ("/" in text or "." in text) and not text.startswith("/")


def no_such_file(pg: ProjectGraph, ans: Answer, text: str, component: str | None) -> None:
    """A file the graph does not have: say no, and show the nearest files with their routes."""
    path = _PATH_LINE.sub(r"\1", text)
    first, _, rest = path.partition("/")
    if component is None and rest and first in pg.components:
        component, path = first, rest
    scope = pg.project + (f"/{component}" if component else "")
    ans.add(f"{NO}: no code file '{path}' in {scope}.")
    files = sorted(
        {
            str(pg.node(n).get("file"))
            for f, ids in pg.by_file.items()
            for n in ids
            if pg.node(n).get("kind") == "code_file"
            and (not component or pg.node(n).get("component") == component)
        }
    )
    near = difflib.get_close_matches(path, files, n=5, cutoff=0.6)
    if near:
        ans.add("nearest files:")
    for f in near:
        routes = [
            n
            for n in pg.by_file.get(f, [])
            if pg.node(n).get("kind") == "route"
            and (not component or pg.node(n).get("component") == component)
        ]
        comp = component or next((pg.node(n).get("component") for n in pg.by_file.get(f, [])), None)
        shown = "; ".join(f"route {pg.node(r).get('name')} ({where(pg, r)})" for r in routes[:4])
        ans.add(
            f"{pg.project}/{comp} {f}" + (f" — declares {shown}" if shown else ""),
            prio=5,
            indent="  ",
        )


def off_line_note(pg: ProjectGraph, ans: Answer, text: str, node: str) -> None:
    """`path:line` answered by the enclosing node: say plainly nothing sits on that line."""
    match = _PATH_LINE.match(text.strip())
    data = pg.node(node)
    if not match or not _path_like(match[1]) or data.get("line") == int(match[2]):
        return
    loc = f"{pg.project}/{data.get('component')} {data.get('file')}:{match[2]}"
    if off_span(data, int(match[2])) > 0 and data.get("kind") in NEAR_KINDS:
        ans.add(
            f"nothing starts on {loc}: answering for the {data.get('kind')} registered "
            f"{'above' if (data.get('line') or 0) < int(match[2]) else 'below'} it, "
            f"{data.get('name')} ({where(pg, node)})"
        )
        return
    what = "the file" if data.get("kind") == "code_file" else f"the enclosing {data.get('kind')}"
    ans.add(
        f"{NO}: nothing is declared on {loc} (no call site, route, read or symbol starts "
        f"there); answering for {what} {data.get('name')} ({where(pg, node)})"
    )


def resolve_or_no(
    pg: ProjectGraph, ans: Answer, text: str, component: str | None, what: str
) -> str | None:
    """The node, or None after answering a plain no for a route or file that is not there."""
    try:
        node = resolve(pg, text, component, what)
    except ToolFailure as exc:
        if "matches" in str(exc):
            raise
        if route_parts(text or "") is not None:
            plain_no(pg, ans, text.strip(), component, what)
            return None
        if _path_like((text or "").strip()):
            no_such_file(pg, ans, text.strip(), component)
            return None
        raise
    off_line_note(pg, ans, text, node)
    inner_note(pg, ans, text, node)
    return node


def inner_note(pg: ProjectGraph, ans: Answer, text: str, node: str) -> None:
    """A handler nested in a function component answered by the component: say so."""
    inner = pg.attrs(node).get("handlers") or {}
    typed = (text or "").strip()
    line = next((v for k, v in inner.items() if str(k).lower() == typed.lower()), None)
    if line is None or str(pg.node(node).get("name")).lower() == typed.lower():
        return
    data = pg.node(node)
    ans.add(
        f"{typed} is a handler declared inside {data.get('name')} ({data.get('file')}:{line}) "
        f"and bound in its JSX: answering for {data.get('name')} (a nested function's calls "
        "are its component's)"
    )


def unused_middleware(
    pg: ProjectGraph, ans: Answer, route: str, has: set[str] | None = None
) -> None:
    """The component's middleware that other routes get and this one does not (`has`: the
    ones it does), each with its usage line(s) — the nearest candidates for "does X run
    for this route?"."""
    comp = pg.node(route).get("component")
    users: dict[str, dict[tuple[str, int], int]] = {}
    for n, d in pg.of_kind("middleware"):
        if d.get("component") != comp or n in (has or set()):
            continue
        for _, _, e in pg.g.in_edges(n, data=True):
            if e.get("type") == "USES_MIDDLEWARE":
                at = (str(e.get("file")), int(e.get("line") or 0))
                users.setdefault(n, {}).setdefault(at, 0)
                users[n][at] += 1
    if not users:
        return
    head = f"middleware other routes of {comp} get, not this one ({len(users)})"
    if has:  # the route has some: say plainly it has no edge to these
        head = f"no edge to the middleware other routes of {comp} get ({len(users)})"
    ans.add(head + ":")
    for m, sites in sorted(users.items(), key=lambda x: -sum(x[1].values())):
        ans.touch(pg.project, comp)
        used = ", ".join(f"{f}:{ln}" for f, ln in sorted(sites)[:3])
        ans.add(
            f"{pg.node(m).get('name')} — {sum(sites.values())} routes, usage at {pg.project}/{comp} {used}",
            prio=8,
            group="middleware",
            indent="  ",
        )


_NOT_URL = {"src", "app", "pages"}
_PARAM = re.compile(r"^(:\w+|\{[^}]*\}|<[^>]*>|\[[^\]]*\]|\*)$")


def _segments(path: str) -> list[str]:
    return [("{}" if _PARAM.match(s) else s.lower()) for s in segments(path)]


def routes_at_folder(pg: ProjectGraph, path: str, component: str | None) -> list[str]:
    """Routes whose URL path is the file's folder (file-based routers: `app/api/x/route.ts`
    serves /api/x; a file beside it that declares nothing is asked about by that path)."""
    folders = [
        s
        for s in path.split("/")[:-1]
        if s not in _NOT_URL and not (s.startswith("(") and s.endswith(")"))
    ]
    want = _segments("/".join(folders))
    if not want:
        return []
    found = []
    for n, d in pg.of_kind("route"):
        if d.get("component") != component:
            continue
        parts = route_parts(str(d.get("name") or ""))
        if parts and _segments(parts[1]) == want and d.get("file") != path:
            found.append(n)
    return sorted(found)[:6]
