"""kb_entity: one node — attributes, where it is defined, docs, ADRs, edge counts.

For a component also its entry points: routes with handler and middleware, exported
functions, and triggers (anything the extractors marked as one).
"""

from __future__ import annotations

from collections import Counter

from mcp_server.budget import Answer
from mcp_server.facts import is_test
from mcp_server.graph import ProjectGraph
from mcp_server.lookup import resolve_or_no
from mcp_server.render import ref, short, where
from mcp_server.resolve import candidates, describe, pick_project
from mcp_server.settings import KIND as SETTING
from mcp_server.settings import mentioning, section, setting_view
from mcp_server.state import State
from mcp_server.tools_impact import _docs
from mcp_server.tools_trace import ask_does_call
from mcp_server.views import component_view
from mcp_server.views_file import file_view
from mcp_server.views_node import call_view, env_view, route_view, symbol_view

# attrs a view already prints in words (the path built, the route's name)
SAID = {"repo_path", "segments", "mounts", "holes"}


def entity(
    state: State,
    ans: Answer,
    name: str,
    project: str | None,
    component: str | None,
    to: str | None = None,
) -> None:
    pg = state.graph(pick_project(state, project, name))
    if to:  # "does this node call that one?": the negatives engine, verdict first
        nid = resolve_or_no(pg, ans, name, component, "name")
        if nid is not None:
            ask_does_call(state, pg, ans, nid, to, False)
        return
    several = candidates(pg, (name or "").strip(), component) if name else []
    named = [n for n in several if pg.node(n).get("kind") == SETTING]
    if not [n for n in several if not is_test(pg.node(n).get("file"))]:
        named = mentioning(pg, name or "", component)  # `region` → the default region line
    if named and (len(several) > 1 or several != named):
        section(pg, ans, named, f"settings named or about '{short(name, 60)}' in {pg.project}", 1)
        others = [n for n in several if n not in named]
        if others:
            ans.add(f"also named so ({len(others)}; pass the id for one):", prio=5)
        for n in others[:8]:
            ans.add(describe(pg, n), prio=5, indent="  ")
        return
    nid = resolve_or_no(pg, ans, name, component, "name")
    if nid is None:
        return
    data = pg.node(nid)
    ans.touch(data.get("project"), data.get("component"))
    if is_test(data.get("file")) and not is_test(name):
        ans.add(
            f"only test code is named '{short(name, 60)}' here (no production node or setting "
            "is named or about it per the static graph) — answering for the test node:"
        )
    ans.add(f"{data.get('kind')} {short(data.get('name'))}")
    ans.add(f"id: {nid}")
    loc = where(pg, nid)
    if loc:
        ans.add(f"defined at: {loc}")
    kind = data.get("kind")
    view = VIEWS.get(str(kind))
    if kind == "component":

        def docs(a: Answer) -> None:
            _adrs_docs(pg, a, nid)
            _docs(state, a, pg.project, [str(data.get("name"))])

        component_view(pg, ans, str(data.get("name")), docs)
        return
    if view is not None:
        view(pg, ans, nid)
    for key, value in sorted(pg.attrs(nid).items()):
        if key in SAID or value in (None, "", [], {}):
            continue
        shown = ", ".join(map(str, value)) if isinstance(value, list) else value
        ans.add(f"{key}: {short(shown, 200)}", prio=24, group="attrs")
    outs = Counter(d["type"] for _, _, d in pg.g.out_edges(nid, data=True))
    ins = Counter(d["type"] for _, _, d in pg.g.in_edges(nid, data=True))
    counts = [f"out {t}={n}" for t, n in sorted(outs.items())] + [
        f"in {t}={n}" for t, n in sorted(ins.items())
    ]
    ans.add("edges: " + (", ".join(counts) if counts else "none per the static graph"), prio=35)
    _adrs_docs(pg, ans, nid)
    needles = [str(data.get("name"))]
    if kind == "code_file" and data.get("file"):
        needles.append(str(data["file"]).rsplit("/", 1)[-1])
    _docs(state, ans, pg.project, needles)


VIEWS = {
    "code_file": file_view,
    "route": route_view,
    "symbol": symbol_view,
    "middleware": symbol_view,
    "env_var": env_view,
    "http_call": call_view,
    SETTING: setting_view,
}


def _adrs_docs(pg: ProjectGraph, ans: Answer, nid: str) -> None:
    linked = []
    for u, _, d in pg.g.in_edges(nid, data=True):
        if d.get("type") in ("DECIDES", "DOCUMENTS"):
            linked.append(f"{d['type']}: {ref(pg, u)}")
    for line in sorted(linked):
        ans.add(line, prio=25, group="linked")
