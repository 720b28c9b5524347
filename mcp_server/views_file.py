"""kb_entity on a code file: its relationships first, planned as whole sections.

Routes declared here (handler and route-level middleware, the chain they share once, and
what each handler calls), routes elsewhere its handlers serve, outbound calls by target
component → route → handler, inbound calls to its routes, env reads, its functions with
their spans, settings declared here, importers and imports.
"""

from __future__ import annotations

from mcp_server.budget import Answer
from mcp_server.facts import at, ins, is_test, name, outs
from mcp_server.graph import ProjectGraph, folder_of
from mcp_server.lookup import routes_at_folder
from mcp_server.relations import inbound_section, outbound_section, routes_section
from mcp_server.render import short, span, where
from mcp_server.sections import Section, levels, plan
from mcp_server.settings import settings_of
from mcp_server.views import settings_section


def _line_of(pg: ProjectGraph, n: str) -> str:
    return where(pg, n).split(" ", 1)[-1]


def _no_routes(pg: ProjectGraph, path: str, comp: str | None) -> list[str]:
    lines = ["routes: no edge per the static graph — no route is declared in this file"]
    folder = folder_of(path)
    siblings = sorted(
        n
        for f, ids in pg.by_file.items()
        if f != path and folder_of(f) == folder
        for n in ids
        if pg.node(n).get("kind") == "route" and pg.node(n).get("component") == comp
    )
    for r in siblings[:6]:
        lines.append(f"  route in the same folder: {name(pg, r, 90)} ({where(pg, r)})")
    for r in routes_at_folder(pg, path, comp):
        if r not in siblings:
            lines.append(
                f"  route serving this folder's URL path: {name(pg, r, 90)} ({where(pg, r)})"
            )
    return lines


def file_view(pg: ProjectGraph, ans: Answer, file_node: str) -> None:
    data = pg.node(file_node)
    path, comp = data.get("file") or data.get("name"), data.get("component")
    ans.touch(pg.project, comp)
    here = [n for n in pg.by_file.get(path, []) if pg.node(n).get("component") == comp]
    label = f"{pg.project}/{comp} {path}"
    kinds = {k: sorted((n for n in here if pg.node(n).get("kind") == k), key=lambda n: pg.node(n).get("line") or 0)
             for k in ("route", "http_call")}  # fmt: skip
    routes = kinds["route"]
    parts: list[Section | None] = [routes_section(pg, label, routes, 100, callees=True)]
    served = [(r, h) for h in here for r, _ in ins(pg, h, "ROUTES_TO") if r not in routes]
    if served:
        lines = [f"handlers here serve ({len(served)}):"] + [
            f"  {name(pg, r, 90)} ({where(pg, r)}) → {name(pg, h, 60)} ({_line_of(pg, h)})"
            for r, h in served
        ]
        compact = lines[:1] + [f"  {name(pg, r, 80)}" for r, _ in served]
        parts.append(Section("served routes", levels(full=lines, compact=compact), 98))
    serves = any(d.get("component") == comp for _, d in pg.of_kind("route"))
    if not routes and not served and serves:
        parts.append(Section("routes", levels(full=_no_routes(pg, str(path), comp)), 99))
    parts.append(outbound_section(pg, kinds["http_call"], 95))
    parts.append(inbound_section(pg, routes, 90))
    reads = [
        (v, d)
        for n in [file_node, *here]
        for v, d in outs(pg, n, "READS_ENV")
        if d.get("file") in (None, path)
    ]
    if reads:
        reads.sort(key=lambda x: x[1].get("line") or 0)
        lines = [f"env reads ({len(reads)}):"] + [
            f"  {name(pg, v, 60)} at {at(pg, v, d)}" for v, d in reads
        ]
        summary = f"env reads ({len(reads)}): " + ", ".join(
            sorted({name(pg, v, 40) for v, _ in reads})
        )
        parts.append(Section("env reads", levels(full=lines, summary=[summary]), 80))
    syms = sorted(
        (n for n in here if pg.node(n).get("kind") in ("symbol", "middleware")),
        key=lambda n: pg.node(n).get("line") or 0,
    )
    if syms:
        lines = [f"functions and symbols ({len(syms)}):"]
        for s in syms:
            kind = "middleware " if pg.node(s).get("kind") == "middleware" else ""
            lines_at = span(pg.node(s)).rsplit(":", 1)[-1]
            word = "lines" if "-" in lines_at else "line"
            lines.append(f"  {kind}{name(pg, s, 80)} ({word} {lines_at})")
        compact = [
            lines[0],
            "  " + ", ".join(f"{name(pg, s, 50)}:{pg.node(s).get('line')}" for s in syms),
        ]
        summary = [f"functions and symbols: {len(syms)}"]
        parts.append(Section("symbols", levels(full=lines, compact=compact, summary=summary), 45))
    parts.append(settings_section(pg, settings_of(pg, comp, path), "settings declared here", 85))
    importers = ins(pg, file_node, "IMPORTS")
    if importers:
        prod = sorted(
            ((u, d) for u, d in importers if not is_test(pg.node(u).get("file"))),
            key=lambda x: str(pg.node(x[0]).get("file")),
        )
        head = f"imported by ({len(prod)}, +{len(importers) - len(prod)} tests):"
        full = [head] + [f"  {at(pg, u, d)}" for u, d in prod]
        folders: dict[str, int] = {}
        for u, _ in prod:
            f = folder_of(pg.node(u).get("file"))
            folders[f] = folders.get(f, 0) + 1
        grouped = [head + " " + ", ".join(f"{f}/ ({n})" for f, n in sorted(folders.items()))]
        parts.append(Section("importers", levels(full=full, grouped=grouped), 40))
    imports = outs(pg, file_node, "IMPORTS")
    if imports:
        line = f"imports ({len(imports)}): " + ", ".join(
            short(pg.node(v).get("name"), 50) for v, _ in imports
        )
        summary = [f"imports: {len(imports)}"]
        parts.append(
            Section("imports", levels(full=[short(line, 1500)], summary=summary), 30, keep=False)
        )
    plan(ans, [p for p in parts if p is not None])
