"""kb_trace and kb_neighbors: walking the per-project graph, with honest negatives."""

from __future__ import annotations

import difflib
import re
from typing import Any

from mcp_server.budget import Answer
from mcp_server.call_ends import routes_of
from mcp_server.catalog_routes import foreign_lookup
from mcp_server.facts import callers_http, mw_text, order_of
from mcp_server.graph import ProjectGraph, folder_of, hiding
from mcp_server.lookup import resolve_or_no, unused_middleware
from mcp_server.negatives import NO, does_call, no_callers, no_route_for_call
from mcp_server.provenance import tail
from mcp_server.relations import inbound_section, outbound_section
from mcp_server.render import edge_label, ref, short, unresolved_line
from mcp_server.resolve import candidates, pick_project
from mcp_server.route_names import route_parts
from mcp_server.sections import plan
from mcp_server.settings import section, settings_of
from mcp_server.state import State, ToolFailure
from vocab import ALL_EDGE_TYPES

TRACE_ORDER = [
    "CALLS_HTTP",
    "CALLS",
    "USES_MIDDLEWARE",
    "ROUTES_TO",
    "CALLS_FN",
    "READS_ENV",
    "RESOLVES_TO",
]
TRACE_TYPES = set(TRACE_ORDER)
USAGE_TYPES = {"CALLS_FN", "READS_ENV"}  # edges whose own line (the call/read) is shown
ENTRY_TYPES = {"DEFINES", "HAS_CODE"}  # first hop only, from a file or a component
KEY_KINDS = {"route", "symbol", "env_var", "http_call", "middleware", "secret"}
EDGE_TYPES = list(ALL_EDGE_TYPES)
CAVEAT = "caveats: static trace — runtime middleware/DI and dynamic dispatch do not appear"


def _edges(pg: ProjectGraph, node: str, up: bool, types: set[str]) -> list[tuple[str, dict]]:
    it = pg.g.in_edges(node, data=True) if up else pg.g.out_edges(node, data=True)
    out = [((u if up else v), d) for u, v, d in it if d.get("type") in types]

    def key(item: tuple[str, dict]) -> tuple[Any, ...]:
        other, data = item
        order = (data.get("attrs") or {}).get("order")
        rank = TRACE_ORDER.index(data["type"]) if data["type"] in TRACE_TYPES else 99
        return (
            rank,
            order if isinstance(order, int) else 999,
            pg.node(other).get("line") or 0,
            other,
        )

    return sorted(out, key=key)


def _label(data: dict, up: bool) -> str:
    label = edge_label(data)
    return "<" + label[:-1] if up else label


def _tail_line(pg: ProjectGraph, ans: Answer, node: str, prio: int, indent: str) -> None:
    """How the node's value was built (URL base and wrapper hops, mount chain), one line."""
    text = tail(pg, node)
    if text:
        ans.add(f"↳ {short(text, 260)}", prio=prio, group="tail", indent=indent + "  ")


def _walk(
    pg: ProjectGraph, ans: Answer, start: str, up: bool, max_depth: int
) -> tuple[set[str], set[str]]:
    seen = {start}
    files: set[str] = set()

    def visit(node: str, depth: int) -> None:
        data = pg.node(node)
        ans.touch(data.get("project"), data.get("component"))
        if data.get("file"):
            files.add(data["file"])
        if depth >= max_depth:
            return
        types = TRACE_TYPES | (ENTRY_TYPES if depth == 0 else set())
        edges = _edges(pg, node, up, types)
        indent = "  " * (depth + 1)
        mids = [(o, d) for o, d in edges if d["type"] == "USES_MIDDLEWARE"]
        if mids:
            parts = []
            for n, (other, d) in enumerate(mids, 1):
                parts.append(mw_text(pg, other, d, n))
                seen.add(other)
            ans.add(
                # the chain's own elements say how each is written; the hop label stays plain
                f"{_label({'type': 'USES_MIDDLEWARE'}, up)} {' '.join(parts)}",
                prio=depth * 10 + 1,
                group="USES_MIDDLEWARE",
                indent=indent,
            )
        for other, d in edges:
            if d["type"] == "USES_MIDDLEWARE":
                continue
            kind = pg.node(other).get("kind")
            leaf = other in seen or depth + 1 >= max_depth or not _edges(pg, other, up, TRACE_TYPES)
            prio = depth * 10 + (1 if kind in KEY_KINDS else 6) + (3 if leaf else 0)
            fold = folder_of(pg.node(other).get("file")) if kind == "code_file" else None
            text = f"{_label(d, up)} {ref(pg, other)}"
            if d["type"] in USAGE_TYPES and d.get("line"):
                text += f" [at {d.get('file')}:{d['line']}]"
            if other in seen:
                ans.add(
                    text + " (see above)", prio=prio + 2, group=d["type"], fold=fold, indent=indent
                )
                continue
            seen.add(other)
            ans.add(text, prio=prio, group=d["type"], fold=fold, indent=indent)
            _tail_line(pg, ans, other, prio + 4, indent)
            visit(other, depth + 1)

    visit(start, 0)
    return files, seen


def _caveats(pg: ProjectGraph, ans: Answer, components: set[str | None], files: set[str]) -> None:
    ans.add(CAVEAT)
    rows: list[dict] = []
    imports = 0
    for comp in sorted(c for c in components if c):
        calls, skipped = hiding(pg, comp, files)
        rows.extend(calls[:5])
        imports += skipped
    for row in rows[:10]:
        ans.add(unresolved_line(row), prio=40, group="unresolved", indent="  ")
    if imports:
        ans.add(f"  (+{imports} unresolved imports not listed)", prio=41)


def trace(
    state: State,
    ans: Answer,
    start: str,
    project: str | None,
    component: str | None,
    direction: str,
    to: str | None,
    max_depth: int,
) -> None:
    if direction not in ("down", "up"):
        raise ToolFailure(f"direction must be 'down' or 'up', not '{direction}'")
    max_depth = max(1, min(int(max_depth or 6), 12))
    pg = state.graph(pick_project(state, project, start))
    up = direction == "up"
    several = _few_same_kind(pg, start, component)
    if several:
        kind = pg.node(several[0]).get("kind")
        verb = "each asked" if to else "each traced"
        ans.add(f"'{start}' matches {len(several)} {kind}s — {verb} (pass the id to pick one):")
        for node in several:
            ans.section += 1
            if to:
                ask_does_call(state, pg, ans, node, to, up)
            else:
                _trace_from(pg, ans, node, up, max_depth)
        return
    src = resolve_or_no(pg, ans, start, component, "start node")
    if src is None:
        return
    if to:
        ask_does_call(state, pg, ans, src, to, up)
        return
    _trace_from(pg, ans, src, up, max_depth)


def ask_does_call(
    state: State, pg: ProjectGraph, ans: Answer, node: str, to: str, up: bool
) -> None:
    """ "Does `node` call `to`?" (up: does `to` call `node`?) through the negatives engine.
    `to` may name a node of this project, or a node or route of another project."""
    other = to.strip()
    foreign = _FOREIGN_ID.match(other)
    dst = None
    if not (foreign and foreign.group(1) != pg.project):
        found = candidates(pg, other, None)
        if len(found) > 1:
            resolve_or_no(pg, ans, other, None, "to node")  # one line listing the candidates
        dst = found[0] if found else None
    if dst is None:
        if up:
            raise ToolFailure(
                f"unknown node '{short(other, 80)}' in {pg.project} — pass a node of this project"
            )
        text = other.split(":route:", 1)[-1] if foreign else other
        parts = route_parts(text)
        if foreign and foreign.group(1) != pg.project:
            others = [foreign.group(1)]
        else:
            others = foreign_lookup(state, pg.project)(*parts) if parts else []
        does_call(pg, ans, node, None, text, others)
        return
    src, dst = (dst, node) if up else (node, dst)
    for n in (src, dst):
        ans.touch(pg.node(n).get("project"), pg.node(n).get("component"))
    does_call(pg, ans, src, dst, other, [])


# a node id: `project/component:kind:qualifier` or `project:kind:qualifier`
_FOREIGN_ID = re.compile(
    r"^([\w.-]+)(?:/[\w.-]+)?:(?:route|component|symbol|http_call|code_file|middleware):"
)


def _few_same_kind(pg: ProjectGraph, start: str, component: str | None) -> list[str]:
    """Same-kind nodes a start means together, traced one after the other: 2–3 that share a
    name (two `Home` pages), or every route / call site registered on one `path:line` (a
    viewset's routes, a ternary URL)."""
    text = (start or "").strip()
    try:
        ids = candidates(pg, text, component)
    except ToolFailure:
        return []
    kinds = {pg.node(i).get("kind") for i in ids}
    limit = LINE_STARTS if _AT_LINE.match(text) else 3
    if 2 <= len(ids) <= limit and len(kinds) == 1 and kinds & {"symbol", "http_call", "route"}:
        return ids
    return []


_AT_LINE = re.compile(r"^\S+:\d+$")
LINE_STARTS = 8  # routes or call sites of one line traced together


def _trace_from(pg: ProjectGraph, ans: Answer, src: str, up: bool, max_depth: int) -> None:
    ans.add(ref(pg, src))
    _tail_line(pg, ans, src, 3, "")
    before = len(ans.lines)
    files, seen = _walk(pg, ans, src, up, max_depth)
    kind = pg.node(src).get("kind")
    if up:
        routes = routes_of(pg, src) if kind in ("route", "symbol", "middleware") else []
        uncalled = [r for r in routes if r in seen | {src} and not callers_http(pg, r)]
        if uncalled and not any(callers_http(pg, r) for r in routes):
            no_callers(pg, ans, uncalled)
            ans.add(CAVEAT)
            return
    elif kind == "http_call" and not any(
        d.get("type") == "CALLS" for _, _, d in pg.g.out_edges(src, data=True)
    ):
        no_route_for_call(pg, ans, src)
    if len(ans.lines) == before:
        ans.add(
            f"  no edge per the static graph: no {'callers' if up else 'calls'} via {', '.join(TRACE_ORDER)}"
        )
    comps = {pg.node(src).get("component")}
    _caveats(pg, ans, comps, files)


def _not_http(pg: ProjectGraph, ans: Answer, comp: object) -> None:
    """Calls of the component that reach a managed backend through an SDK (Firestore,
    Auth, Genkit …): the nearest candidates for "does it call an HTTP route?"."""
    sdk = sorted(
        (
            n
            for n, d in pg.g.nodes(data=True)
            if d.get("component") == comp
            and d.get("project") == pg.project
            and (
                "sdk" in str(d.get("kind"))
                or "not an http call" in str((d.get("attrs") or {}).get("about") or "").lower()
            )
        ),
        key=lambda n: (pg.node(n).get("file") or "", pg.node(n).get("line") or 0),
    )
    if sdk:
        ans.add(f"calls that are not HTTP calls (SDK to a managed backend, {len(sdk)}):")
    for n in sdk:
        ans.add(ref(pg, n), prio=20, group="sdk call", indent="  ")


def component_neighbours(pg: ProjectGraph, ans: Answer, comp: str) -> None:
    """A component's neighbours that matter first: the components it calls (target →
    route → handler) and the ones that call it, each list whole; its own edges follow."""
    calls = [n for n, d in pg.of_kind("http_call") if d.get("component") == comp]
    routes = [n for n, d in pg.of_kind("route") if d.get("component") == comp]
    parts = [outbound_section(pg, calls, 95), inbound_section(pg, routes, 90)]
    plan(ans, [p for p in parts if p is not None], budget=ans.budget * 2 // 3)


def neighbors(
    state: State,
    ans: Answer,
    node: str,
    project: str | None,
    component: str | None,
    edge_types: list[str] | None,
    direction: str,
    to: str | None = None,
) -> None:
    if direction not in ("out", "in", "both"):
        raise ToolFailure(f"direction must be 'out', 'in' or 'both', not '{direction}'")
    wanted = {t.strip().upper() for t in (edge_types or []) if t and t.strip()}
    for t in sorted(wanted):
        if t not in EDGE_TYPES:
            near = difflib.get_close_matches(t, EDGE_TYPES, n=3, cutoff=0.5)
            hint = f" — did you mean {', '.join(near)}?" if near else ""
            raise ToolFailure(f"unknown edge type '{t}'{hint} (known: {', '.join(EDGE_TYPES)})")
    pg = state.graph(pick_project(state, project, node))
    nid = resolve_or_no(pg, ans, node, component, "node")
    if nid is None:
        return
    if to:
        ask_does_call(state, pg, ans, nid, to, direction == "in")
        return
    data = pg.node(nid)
    ans.touch(data.get("project"), data.get("component"))
    ans.add(ref(pg, nid))
    if data.get("kind") == "component" and not wanted:
        component_neighbours(pg, ans, str(data.get("name")))
    if data.get("kind") == "component" and (not wanted or "DECLARES" in wanted):
        own = settings_of(pg, str(data.get("name")))  # reached through HAS_CODE → DECLARES
        section(pg, ans, own, "settings its files declare", 5)
    groups: dict[tuple[str, str], list[str]] = {}
    sides = (
        [("out", False), ("in", True)] if direction == "both" else [(direction, direction == "in")]
    )
    for side, up in sides:
        it = pg.g.in_edges(nid, data=True) if up else pg.g.out_edges(nid, data=True)
        for u, v, d in it:
            if wanted and d.get("type") not in wanted:
                continue
            other = u if up else v
            groups.setdefault((side, d["type"]), []).append((other, d))  # type: ignore[arg-type]
    calls_in = not wanted or "CALLS" in wanted
    uncalled = data.get("kind") == "route" and direction != "out" and ("in", "CALLS") not in groups
    if uncalled and calls_in and (not groups or wanted == {"CALLS"}):
        ans.add(f"no edge per the static graph (CALLS, direction {direction})")
        no_callers(pg, ans, [nid])
        return
    if not groups:
        scope = f"{'/'.join(sorted(wanted)) or 'any type'}, direction {direction}"
        ans.add(f"no edge per the static graph ({scope})")
        if data.get("kind") == "route" and direction != "in" and wanted <= {"USES_MIDDLEWARE"}:
            unused_middleware(pg, ans, nid)
        if wanted & {"CALLS_HTTP", "CALLS"} or not wanted:
            _not_http(pg, ans, data.get("component") or data.get("name"))
        own = data.get("component") or (
            data.get("name") if data.get("kind") == "component" else None
        )
        rows = pg.unresolved_of(own, {data.get("file")} if data.get("file") else None)
        if rows:
            where = f"{pg.project}/{own}" if own else pg.project
            ans.add(f"unresolved/dynamic calls in {where} that could hide one:")
        for row in rows[:20]:
            ans.add(unresolved_line(row), prio=30, group="unresolved", indent="  ")
        return
    for (side, etype), items in sorted(groups.items()):
        arrow = "-->" if side == "out" else "<--"
        ans.add(f"{arrow} {etype} ({len(items)}):")
        ordered = etype == "USES_MIDDLEWARE"  # the chain in order, not by name
        for other, d in sorted(
            items,
            key=lambda x: (order_of(x[1]) if ordered else 0, str(pg.node(x[0]).get("name")), x[0]),
        ):
            odata = pg.node(other)
            ans.touch(odata.get("project"), odata.get("component"))
            kind = odata.get("kind")
            fold = folder_of(odata.get("file")) if kind == "code_file" else None
            extra = edge_label(d)[2:-3].removeprefix(etype).strip()
            ans.add(
                f"{ref(pg, other)} {extra}".rstrip(), prio=10, group=etype, fold=fold, indent="  "
            )
    mids = {o for o, _ in groups.get(("out", "USES_MIDDLEWARE"), [])}
    if data.get("kind") == "route" and mids and "USES_MIDDLEWARE" in wanted:
        unused_middleware(pg, ans, nid, mids)  # "does it go through X?": what it does not get
    if (
        data.get("kind") == "route"
        and direction != "out"
        and calls_in
        and ("in", "CALLS") not in groups
    ):
        ans.add(
            f"<-- CALLS (0): {NO} — no call site is bridged to it "
            "(kb_trace direction=up lists what could hide one)"
        )
