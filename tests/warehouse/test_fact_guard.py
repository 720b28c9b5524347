"""The fact guard drops every fact read through a path that leaves the repo, whichever
part of the path leaves it (a linked folder, a linked file, `..`), and keeps the rest."""

from __future__ import annotations

import os
from pathlib import Path

from extractors.facts import ComponentFacts, Edge, Node
from warehouse.fact_guard import drop_outside_links


def _node(file: str) -> Node:
    return Node(f"p/c:code_file:{file}", "code_file", file, "p", "c", file=file, line=1)


def test_facts_from_outside_paths_are_dropped_with_their_edges(tmp_path: Path) -> None:
    outside, repo = tmp_path / "outside", tmp_path / "repo"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "stolen.ts").write_text("export const x = 1;\n")
    (repo / "src" / "inner").mkdir(parents=True)
    (repo / "src" / "ok.ts").write_text("export const ok = 1;\n")
    (repo / "src" / "inner" / "alias.ts").write_text("export const a = 1;\n")
    os.symlink(outside / "deep", repo / "linked")  # a folder that leaves
    os.symlink(outside / "deep" / "stolen.ts", repo / "src" / "leak.ts")  # a file that leaves
    os.symlink(repo / "src" / "ok.ts", repo / "src" / "inner" / "same.ts")  # stays inside
    files = [
        "src/ok.ts",
        "src/inner/same.ts",
        "src/inner/../ok.ts",
        "linked/stolen.ts",
        "src/leak.ts",
        "src/../../outside/deep/stolen.ts",
    ]
    nodes = [_node(f) for f in files]
    edges = [Edge(nodes[0].id, n.id, "IMPORTS", "p", "c", file="src/ok.ts") for n in nodes[1:]]
    kept = drop_outside_links(ComponentFacts(nodes=nodes, edges=edges), repo)
    assert [n.file for n in kept.nodes] == files[:3]
    assert [e.dst for e in kept.edges] == [n.id for n in nodes[1:3]]
    warned = sorted(p.path for p in kept.problems if p.rule == "symlink-outside-repo")
    assert warned == sorted(files[3:])
