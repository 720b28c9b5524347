"""Helpers for the JS-family/env/HTTP extractor tests: write a small repo, extract it for real."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from extractors.facts import Edge, Node
from extractors.registry import extract_component


class Facts:
    """Extracted facts keyed for assertions: nodes by `kind:qualifier`, edges by type."""

    def __init__(self, root: Path, project: str = "p", component: str = "c"):
        self.raw = extract_component(project, component, root)
        failed = [p for p in self.raw.problems if p.rule.startswith("extractor-")]
        assert not failed, failed
        self.nodes: dict[str, Node] = {n.id.split(":", 1)[1]: n for n in self.raw.nodes}
        self.problems = self.raw.problems
        self.unresolved = self.raw.unresolved
        self.catalog = self.raw.catalog

    def node(self, key: str) -> Node:
        assert key in self.nodes, (
            key,
            sorted(k for k in self.nodes if k.split(":")[0] == key.split(":")[0]),
        )
        return self.nodes[key]

    def kind(self, kind: str) -> dict[str, Node]:
        return {n.name: n for n in self.raw.nodes if n.kind == kind}

    def edges(self, type_: str) -> dict[tuple[str, str], Edge]:
        return {
            (e.src.split(":", 1)[1], e.dst.split(":", 1)[1]): e
            for e in self.raw.edges
            if e.type == type_
        }

    def chain(self, route: str) -> list[tuple[int, str, str]]:
        """(order, middleware name, usage file:line) of a route's USES_MIDDLEWARE edges."""
        src = f"{self.raw.nodes[0].project}/{self.raw.nodes[0].component}:route:{route}"
        return sorted(
            (e.attrs["order"], self.nodes[e.dst.split(":", 1)[1]].name, f"{e.file}:{e.line}")
            for e in self.raw.edges
            if e.type == "USES_MIDDLEWARE" and e.src == src
        )

    def where(self, key: str) -> str:
        n = self.node(key)
        return f"{n.file}:{n.line}"


def extract(tmp_path: Path, files: dict[str, str | bytes], **kw) -> Facts:
    for rel, body in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(dedent(body).lstrip("\n"))
    return Facts(tmp_path, **kw)
