"""Helpers for the Python server-side tests: write a small repo, extract it for real, and read
the graph back the way a user asks (route → handler, chain, service calls, env reads)."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from extractors.registry import extract_component


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, body in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(body).lstrip("\n"))
    return root


class Graph:
    def __init__(self, root: Path, project: str = "p", component: str = "api"):
        self.facts = extract_component(project, component, root)
        failed = [p for p in self.facts.problems if p.rule.startswith("extractor-")]
        assert not failed, failed
        self.nodes = {n.id: n for n in self.facts.nodes}
        self.unresolved = self.facts.unresolved

    def _route(self, name: str):
        found = [n for n in self.facts.nodes if n.kind == "route" and n.name == name]
        assert len(found) == 1, (name, self.routes())
        return found[0]

    def routes(self) -> list[str]:
        return sorted(n.name for n in self.facts.nodes if n.kind == "route")

    def route_at(self, name: str) -> str:
        node = self._route(name)
        return f"{node.file}:{node.line}"

    def handler(self, name: str) -> str:
        """`name@file:line` of the symbol the route runs."""
        route = self._route(name)
        [edge] = [e for e in self.facts.edges if e.src == route.id and e.type == "ROUTES_TO"]
        target = self.nodes[edge.dst]
        return f"{target.name}@{target.file}:{target.line}"

    def chain(self, name: str) -> list[str]:
        """`middleware@file:line` in run order, each at the line where this route gets it."""
        route = self._route(name)
        edges = sorted(
            (e for e in self.facts.edges if e.src == route.id and e.type == "USES_MIDDLEWARE"),
            key=lambda e: e.attrs["order"],
        )
        return [f"{self.nodes[e.dst].name}@{e.file}:{e.line}" for e in edges]

    def calls(self, caller: str) -> list[str]:
        """`callee-qualifier@call line` of the CALLS_FN edges from symbol `file#name`."""
        return sorted(
            f"{e.dst.split(':', 2)[2]}@{e.line}"
            for e in self.facts.edges
            if e.type == "CALLS_FN" and e.src.split(":", 2)[2] == caller
        )

    def reads(self) -> list[str]:
        """`NAME@file:line` of every READS_ENV edge."""
        return sorted(
            f"{self.nodes[e.dst].name}@{e.file}:{e.line}"
            for e in self.facts.edges
            if e.type == "READS_ENV"
        )


def at(files: dict[str, str], rel: str, snippet: str) -> str:
    """`rel:line` of the one line of a written file that contains `snippet`."""
    lines = dedent(files[rel]).lstrip("\n").splitlines()
    found = [i for i, line in enumerate(lines, start=1) if snippet in line]
    assert len(found) == 1, (rel, snippet, found)
    return f"{rel}:{found[0]}"
