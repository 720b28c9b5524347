"""Turn what an agent typed into exactly one node — or say honestly why not.

One resolver for every tool. Accepted: a node id, `path:line`, `component/path:line`, a
route (`METHOD /path` or a path alone, with or without prefix holes), a name
(case-insensitive; an id's last qualifier; a member's own name: `addBook` for
`Books.addBook`; a handler nested in a function component: that component), or a file
path. `component` narrows. Where several nodes carry the
name, the kinds a person means first win, in this order: components, routes, files,
handlers (route handlers and UI event handlers), other symbols; below symbols (middleware,
call sites, env vars, settings, secrets, Terraform) a tie stays a tie. Several left
return the candidates with their projects; none returns the nearest names (difflib) —
both as one-line errors.
"""

from __future__ import annotations

import difflib
import re

import duckdb

from mcp_server.facts import is_test
from mcp_server.graph import ProjectGraph
from mcp_server.render import short, where
from mcp_server.route_names import best_routes, route_parts
from mcp_server.state import State, ToolFailure
from warehouse.reader import GLOBAL

MAX_ARG = 500
_PATH_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+)$")
# what a person means by a name, best first (a tie below `symbol` stays a tie)
TIER = {
    "component": 0,
    "route": 1,
    "code_file": 2,
    "handler": 3,
    "symbol": 4,
    "middleware": 5,
    "http_call": 6,
    "env_var": 7,
    "setting": 7,
    "secret": 8,
    "tf_resource": 8,
}
MEANT = TIER["symbol"]
UI_FILES = (".vue", ".svelte", ".jsx", ".tsx")
# by `path:line`, the narrowest thing on the line wins: a call site before its function
LINE_RANK = {
    "route": 0, "symbol": 1, "middleware": 2, "http_call": 3, "env_var": 4, "setting": 4,
    "tf_resource": 5, "component": 6, "secret": 7, "code_file": 9,
}  # fmt: skip


def is_handler(pg: ProjectGraph, node_id: str) -> bool:
    """A route handler (a ROUTES_TO lands on it) or a UI event handler (the extractor marks
    it `ui_handler`/`event`, or it is a member of a component in a UI file)."""
    data = pg.node(node_id)
    if data.get("kind") != "symbol":
        return False
    if any(d.get("type") == "ROUTES_TO" for _, _, d in pg.g.in_edges(node_id, data=True)):
        return True
    attrs = data.get("attrs") or {}
    if attrs.get("ui_handler") or attrs.get("event"):
        return True
    name = str(data.get("name") or "")
    return (
        str(data.get("file") or "").endswith(UI_FILES)
        and "." in name
        and attrs.get("symbol_kind") in ("method", "function", "arrow", "property", None)
    )


def tier(pg: ProjectGraph, node_id: str) -> int:
    kind = str(pg.node(node_id).get("kind"))
    if kind == "symbol" and is_handler(pg, node_id):
        return TIER["handler"]
    return TIER.get(kind, 9)


def _check_text(text: str | None, what: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ToolFailure(f"empty {what} — pass a node id, name or path:line")
    if len(text) > MAX_ARG:
        raise ToolFailure(
            f"{what} is {len(text)} characters (max {MAX_ARG}) — pass a node id, name or path:line"
        )
    return text


def _in_component(pg: ProjectGraph, ids: list[str], component: str | None) -> list[str]:
    if not component:
        return ids
    return [
        i for i in ids if pg.node(i).get("component") == component or i.endswith(f":{component}")
    ]


def _rank(pg: ProjectGraph, node_id: str) -> int:
    return LINE_RANK.get(str(pg.node(node_id).get("kind")), 8)


NEAR_LINES = 2  # a registration written over several lines: `{` above `method:`/`path:`
NEAR_KINDS = ("route", "http_call")


def _files_at(pg: ProjectGraph, path: str, component: str | None) -> list[str]:
    ids = pg.by_file.get(path)
    if ids is None:
        ids = [i for f, v in pg.by_file.items() if f.endswith("/" + path) for i in v]
    return _in_component(pg, ids, component)


def _by_location(pg: ProjectGraph, path: str, line: int | None, component: str | None) -> list[str]:
    first, _, rest = path.partition("/")
    ids: list[str] = []
    if component is None and rest and first in pg.components:
        ids = _files_at(pg, rest, first)  # `api/src/x.ts`: component api, file src/x.ts
    if not ids:  # …unless the component's name is the file's own first folder (`api/x.ts`)
        ids = _files_at(pg, path, component)
    if line is None:
        files = [i for i in ids if pg.node(i).get("kind") == "code_file"]
        return files[:1] or ids
    facts = [i for i in ids if pg.node(i).get("kind") != "code_file"]
    exact = [i for i in facts if pg.node(i).get("line") == line]
    if exact:  # several call sites on one line (a ternary URL) are all meant
        best = min(_rank(pg, i) for i in exact)
        return sorted(i for i in exact if _rank(pg, i) == best)
    spans = [
        i
        for i in facts
        if (pg.node(i).get("line") or 0) <= line <= (pg.node(i).get("end_line") or -1)
    ]

    def narrowest(pool: list[str]) -> list[str]:
        return [
            min(pool, key=lambda i: (pg.node(i)["end_line"] - pg.node(i)["line"], _rank(pg, i)))
        ]

    sites = [i for i in spans if pg.node(i).get("kind") in NEAR_KINDS]
    if sites:
        return narrowest(sites)
    near = nearest_registrations(pg, facts, line)
    if near:
        return near
    if spans:
        return narrowest(spans)
    return [i for i in ids if pg.node(i).get("kind") == "code_file"][:1]


def off_span(data: dict, line: int) -> int:
    """How many lines `line` lies outside the node's span (0: inside)."""
    start = data.get("line") or 0
    end = data.get("end_line") if isinstance(data.get("end_line"), int) else start
    return max(start - line, line - max(end, start), 0)


def nearest_registrations(pg: ProjectGraph, facts: list[str], line: int) -> list[str]:
    """Routes and call sites registered a line or two from `line` (nothing starts on it):
    one written over several lines is meant from any of them (`{` / `method:` / `path:`)."""
    dist = {i: off_span(pg.node(i), line) for i in facts if pg.node(i).get("kind") in NEAR_KINDS}
    dist = {i: d for i, d in dist.items() if d <= NEAR_LINES}
    if not dist:
        return []
    best = min(dist.values())
    at = {pg.node(i).get("line") for i, d in dist.items() if d == best}
    above = min(at)  # equally near above and below: the registration that opened above
    return sorted(i for i, d in dist.items() if d == best and pg.node(i).get("line") == above)


def _members(pg: ProjectGraph, lower: str) -> list[str]:
    """Symbols whose own name is the text: `Books.addBook`, `TodoApp.handleAddTodo`."""
    tail = "." + lower
    return [
        i
        for name, ids in pg.by_name.items()
        if name.endswith(tail)
        for i in ids
        if pg.node(i).get("kind") in ("symbol", "middleware")
    ]


def inner_holders(pg: ProjectGraph) -> dict[str, list[str]]:
    """lower handler name → the function components declaring it in their body and binding
    it in their JSX (the extractor's `handlers` attr; cached on the graph)."""
    cached = getattr(pg, "_inner_holders", None)
    if cached is None:
        cached = {}
        for n, _ in pg.of_kind("symbol"):
            for name in pg.attrs(n).get("handlers") or {}:
                cached.setdefault(str(name).lower(), []).append(n)
        pg._inner_holders = cached  # type: ignore[attr-defined]
    return cached


def candidates(pg: ProjectGraph, text: str, component: str | None = None) -> list[str]:
    """Every node the text can mean, narrowed the way a person means it (see the module)."""
    if text in pg.g:
        return _in_component(pg, [text], component) or [text]
    match = _PATH_LINE.match(text)
    if match and ("/" in match["path"] or "." in match["path"]):
        return _by_location(pg, match["path"], int(match["line"]), component)
    lower = text.lower()
    ids = _in_component(pg, list(pg.by_name.get(lower, [])), component)
    if route_parts(text) is not None:
        routes = best_routes(pg, text, component)
        ids = [i for i in ids if pg.node(i).get("kind") == "route"] or routes or ids
    if not ids:
        ids = _in_component(pg, [i for i in pg.g if i.lower().endswith(":" + lower)], component)
    if not ids and re.fullmatch(r"[\w$]+", text):
        ids = _in_component(pg, _members(pg, lower), component)
    if not ids and re.fullmatch(r"[\w$]+", text):  # a handler nested in a function component
        ids = _in_component(pg, inner_holders(pg).get(lower, []), component)
    if not ids and ("/" in text or "." in text):
        ids = _by_location(pg, text, None, component)
    return narrow(pg, ids, text)


def one_per_registration(pg: ProjectGraph, ids: list[str]) -> list[str]:
    """Nodes of the same kind, name, file and line are one fact an extractor emitted twice:
    keep the one with the most edges (the other is a duplicate, not an ambiguity)."""
    best: dict[tuple, str] = {}
    for i in sorted(set(ids)):
        d = pg.node(i)
        key = (d.get("kind"), d.get("component"), d.get("name"), d.get("file"), d.get("line"))
        keep = best.get(key)
        if keep is None or pg.g.degree(i) > pg.g.degree(keep):
            best[key] = i
    return list(best.values())


def narrow(pg: ProjectGraph, ids: list[str], text: str) -> list[str]:
    """The nodes a person means among several that carry the text."""
    if len(ids) > 1:  # a catalog node only mirrors the project's own node of that name
        ids = [i for i in ids if not i.startswith("_global:")] or ids
    if len(ids) > 1:
        exact = [i for i in ids if pg.node(i).get("name") == text]
        ids = exact or ids
    if len(ids) > 1:  # a test fixture of the same name is never the one meant
        ids = [i for i in ids if not is_test(pg.node(i).get("file"))] or ids
    if len(set(ids)) > 1:  # one registration emitted twice (same name and line) is one route
        ids = one_per_registration(pg, ids)
    if len(set(ids)) > 1:  # a component before a route before a file before a symbol
        best = min(tier(pg, i) for i in ids)
        if best <= MEANT:
            ids = [i for i in ids if tier(pg, i) == best]
    return sorted(set(ids))


def describe(pg: ProjectGraph, node_id: str) -> str:
    data = pg.node(node_id)
    loc = where(pg, node_id)
    return f"{node_id} [{data.get('kind')}]" + (f" at {loc}" if loc else "")


def resolve(
    pg: ProjectGraph, text: str | None, component: str | None = None, what: str = "node"
) -> str:
    """Exactly one node id, or ToolFailure (ambiguous → candidates; unknown → nearest)."""
    text = _check_text(text, what)
    if component and component not in pg.components:
        near = difflib.get_close_matches(component, sorted(pg.components), n=3, cutoff=0.4)
        known = ", ".join(sorted(pg.components))
        hint = f" — did you mean {', '.join(near)}?" if near else ""
        raise ToolFailure(
            f"unknown component '{component}' in project {pg.project}{hint} (known: {known})"
        )
    ids = candidates(pg, text, component)
    if len(ids) == 1:
        return ids[0]
    if ids:
        shown = "; ".join(describe(pg, i) for i in ids[:8])
        more = f" (+{len(ids) - 8} more)" if len(ids) > 8 else ""
        raise ToolFailure(
            f"'{short(text, 80)}' matches {len(ids)} nodes — pass the id or component=: {shown}{more}"
        )
    names = [n for n in pg.by_name if n]
    near = difflib.get_close_matches(lower := text.lower(), names, n=5, cutoff=0.5)
    if not near:
        near = [n for n in names if lower in n][:5]
    hint = ", ".join(short(pg.node(pg.by_name[n][0]).get("name"), 60) for n in near)
    scope = f"{pg.project}" + (f"/{component}" if component else "")
    raise ToolFailure(
        f"unknown {what} '{short(text, 80)}' in {scope}"
        + (f" — nearest: {hint}" if hint else " — no similar names (try kb_find or kb_sql)")
    )


def refuse_all(project: str | None, tool: str = "this tool") -> None:
    """`project="*"` is for kb_find/kb_compare (catalog) only — one line, no answer."""
    if (project or "").strip() == "*":
        raise ToolFailure(
            f"project='*' is not allowed for {tool}: it reads one project's code — pass "
            "project=<name>; for cross-project questions use kb_find or kb_compare"
        )


def pick_project(state: State, project: str | None, text: str | None) -> str:
    """The project to answer from: the one given, or the only one; with several projects
    and none given, a refusal naming where the node argument is."""
    refuse_all(project)
    if project not in (None, ""):
        return state.check_project(project)  # type: ignore[return-value]
    known = state.projects()
    if len(known) == 1:
        return known[0]
    name = _check_text(text, "node")
    assert state.warehouse is not None
    paths = [p for p in (state.warehouse.table_path(k, "nodes") for k in known) if p is not None]
    if not paths:
        raise ToolFailure("the warehouse has no project nodes — run `kb refresh`")
    con = duckdb.connect(":memory:")
    try:
        rows = con.execute(
            "SELECT id, project, component, kind, file, line FROM read_parquet(?, union_by_name=true) "
            "WHERE id = ? OR lower(name) = lower(?) ORDER BY project, id LIMIT 20",
            [[p.as_posix() for p in paths], name, name],
        ).fetchall()
    finally:
        con.close()
    projects = sorted({r[1] for r in rows if r[1] and r[1] != GLOBAL})
    if len(projects) == 1:
        # Several projects: `project` is required (docs/mcp-tools.md) — a caller that
        # left it out gets told where the name is, never that project's code unasked
        raise ToolFailure(
            f"pass project= — '{short(name, 60)}' is in project {projects[0]}: "
            f"call again with project='{projects[0]}'"
        )
    if not projects:
        raise ToolFailure(
            f"pass project= to look '{short(name, 60)}' up (projects: {', '.join(sorted(known)[:20])})"
        )
    shown = "; ".join(
        f"{r[0]} [{r[3]}] project {r[1]}" + (f" at {r[2]} {r[4]}:{r[5]}" if r[4] else "")
        for r in rows[:8]
    )
    raise ToolFailure(
        f"'{short(name, 60)}' exists in {len(projects)} projects — pass project=: {shown}"
    )
