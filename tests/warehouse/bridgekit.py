"""Helpers for bridge tests: a KB written by the test and code facts shaped like the
extractors' output (nodes and edges with their attrs), bridged by the real warehouse code."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import yaml

from extractors.facts import ComponentFacts, Edge, Node
from extractors.parts import complete
from kb.loader import load_kb
from warehouse.bridges import build_project_graph
from warehouse.catalog import component_frames


def write_kb(root: Path, projects: dict[str, dict[str, dict]]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "kb.yaml").write_text("name: t\nrepos_root: repos\n")
    for pid, comps in projects.items():
        pdir = root / "projects" / pid
        pdir.mkdir(parents=True)
        (pdir / "project.md").write_text(f"---\nkind: project\nid: {pid}\ntitle: {pid}\n---\n")
        for cid, fm in comps.items():
            (pdir / cid).mkdir()
            front = {"kind": "component", "project": pid, "id": cid, "repo": f"{pid}/{cid}"}
            front.update(fm)
            text = "---\n" + yaml.safe_dump(front, sort_keys=False) + "---\n"
            (pdir / cid / "component.md").write_text(text)
    return root


class Facts:
    """Builds one component's facts the way extractors emit them."""

    def __init__(self, project: str, component: str):
        self.p, self.c, self.facts = project, component, ComponentFacts()

    def node(self, kind: str, qual: str, name: str, file: str = "f", line: int = 1, **attrs):
        nid = f"{self.p}/{self.c}:{kind}:{qual}"
        self.facts.nodes.append(Node(nid, kind, name, self.p, self.c, file, line, None, attrs))
        return nid

    def route(self, method: str, path: str, line: int = 1, file: str = "routes.ts", **attrs):
        name = f"{method} {path}"
        return self.node("route", name, name, file, line, method=method, path=path, **attrs)

    def call(
        self, qual: str, method: str, template: str, *, file: str = "call.ts", line: int = 7,
        **attrs,
    ) -> str:  # fmt: skip
        name = f"{method} {template}"
        return self.node(
            "http_call", qual, name, file, line, method=method, url_template=template, **attrs
        )

    def edge(self, src: str, dst: str, type_: str, file: str = "f", line: int = 1) -> None:
        self.facts.edges.append(Edge(src, dst, type_, self.p, self.c, file, line, {}))


def graph(kb_root: Path, project: str, *facts: Facts) -> dict[str, pl.DataFrame]:
    kb = load_kb(kb_root)
    for f in facts:  # typed parts, as the extractors' last pass writes them
        complete(f.facts.nodes)
    tables = {f"{f.p}/{f.c}": component_frames(f.facts) for f in facts}
    return build_project_graph(kb, project, tables)


def calls_of(out: dict[str, pl.DataFrame]) -> list[dict]:
    rows = out["edges"].filter(pl.col("type") == "CALLS").to_dicts()
    for r in rows:
        r["attrs"] = json.loads(r["attrs"])
    return rows


def extracted(tmp_path: Path, projects: dict, files: dict[str, str], project: str) -> dict:
    """Write `files` (`project/component/rel` → text) as repos, extract every component for
    real and bridge `project`; returns its partition tables."""
    from extractors.registry import extract_component

    kb_root = write_kb(tmp_path / "kb", projects)
    for rel, text in files.items():
        path = kb_root / "repos" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    kb = load_kb(kb_root)
    tables = {
        c.key: component_frames(extract_component(c.project, c.id, c.repo_path))
        for c in kb.components()
        if c.repo_path and c.repo_path.is_dir()
    }
    return build_project_graph(kb, project, tables)


def bridged(out: dict) -> list[tuple[str, str, str]]:
    """Every CALLS edge as (call site `file:line`, target route name, via), sorted."""
    return sorted(
        (f"{e['file']}:{e['line']}", e["dst"].split(":route:", 1)[1], e["attrs"]["via"])
        for e in calls_of(out)
    )


def reasons(out: dict) -> dict[str, str]:
    """Unresolved http_call rows: call site `file:line` → reason."""
    rows = out["unresolved"].filter(pl.col("kind") == "http_call").to_dicts()
    return {f"{r['file']}:{r['line']}": r["reason"] for r in rows}
