"""The verification report's bridge coverage line: per calling component, its call sites,
how many reached a route (by confidence) and why the others did not."""

from __future__ import annotations

import yaml

from extractors.facts import ComponentFacts, Node
from extractors.parts import complete
from kb.loader import load_kb
from verification.bridging import bridge_rows
from warehouse.bridges import build_project_graph
from warehouse.catalog import component_frames


def _kb(root, comps: dict) -> None:
    (root / "kb.yaml").write_text("name: t\nrepos_root: repos\n")
    pdir = root / "projects" / "zoo"
    pdir.mkdir(parents=True)
    (pdir / "project.md").write_text("---\nkind: project\nid: zoo\ntitle: zoo\n---\n")
    for cid, fm in comps.items():
        (pdir / cid).mkdir()
        front = {"kind": "component", "project": "zoo", "id": cid, "repo": f"zoo/{cid}", **fm}
        (pdir / cid / "component.md").write_text("---\n" + yaml.safe_dump(front) + "---\n")


def _node(comp: str, kind: str, name: str, line: int, **attrs) -> Node:
    return Node(
        f"zoo/{comp}:{kind}:{name}@{line}", kind, name, "zoo", comp, "a.ts", line, None, attrs
    )


def test_one_line_per_frontend_with_reasons_by_kind(tmp_path):
    _kb(tmp_path, {"web": {"role": "frontend", "calls": [{"path": "/api", "component": "api"}]},
                   "api": {"role": "api"}})  # fmt: skip
    web, api = ComponentFacts(), ComponentFacts()
    for line, path in ((1, "/api/animals"), (2, "/api/nothing"), (3, "/elsewhere")):
        web.nodes.append(
            _node("web", "http_call", f"GET {path}", line, method="GET", url_template=path)
        )
    api.nodes.append(
        _node("api", "route", "GET /api/animals", 9, method="GET", path="/api/animals")
    )
    complete(web.nodes + api.nodes)
    kb = load_kb(tmp_path)
    out = build_project_graph(
        kb, "zoo", {"zoo/web": component_frames(web), "zoo/api": component_frames(api)}
    )
    [row] = bridge_rows(kb, "zoo", out)
    assert row["location"] == "zoo/web"
    assert row["message"] == (
        "3 call sites, 1 bridged (high 1); unresolved: no route matches 1, "
        "relative URL, nothing serves it 1"
    )
