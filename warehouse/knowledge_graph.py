"""The knowledge layer as graph data (spec/mcp-tools.md): nodes, edges, docs, adrs.

Built from the parsed KB only; it lands in the `_global` partition. Ids follow
docs/ENGINEERING.md: `<project>:<kind>:<qualifier>`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import polars as pl

from extractors.facts import Edge, Node
from kb.indexes import plain_value
from kb.model import Component, KnowledgeBase
from warehouse.tables import frame


def kid(project: str, kind: str, qualifier: str) -> str:
    return f"{project}:{kind}:{qualifier}"


@dataclass
class _Graph:
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)

    def node(
        self,
        project: str,
        kind: str,
        qualifier: str,
        name: str,
        file: str | None = None,
        line: int | None = None,
        **attrs: Any,
    ) -> str:
        node_id = kid(project, kind, qualifier)
        if node_id not in self.nodes:
            self.nodes[node_id] = Node(node_id, kind, name, project, None, file, line, None, attrs)
        return node_id

    def edge(
        self,
        src: str,
        dst: str,
        type: str,
        project: str,
        file: str | None = None,
        line: int | None = None,
        **attrs: Any,
    ) -> None:
        self.edges.append(Edge(src, dst, type, project, None, file, line, attrs))


def _component(g: _Graph, comp: Component, project_node: str) -> None:
    p, doc = comp.project, comp.doc
    fm = doc.frontmatter
    attrs = {
        k: plain_value(fm[k]) for k in ("role", "repo", "stack", "tags") if fm.get(k) is not None
    }
    attrs["title"] = fm.get("title")
    if comp.repo_path is not None:
        attrs["repo_path"] = str(comp.repo_path)
    cnode = g.node(p, "component", comp.id, comp.id, doc.path, doc.line_of("id"), **attrs)
    g.edge(project_node, cnode, "HAS_COMPONENT", p, doc.path, doc.line_of("id"))
    for env, values in sorted(comp.envs.items()):
        line = doc.line_of(f"envs.{env}")
        env_node = g.node(
            p,
            "env_instance",
            f"{comp.id}/{env}",
            f"{comp.id} {env}",
            doc.path,
            line,
            env=env,
            component=comp.id,
            **{k: plain_value(v) for k, v in values.items()},
        )
        g.edge(cnode, env_node, "HAS_ENV", p, doc.path, line)
        if values.get("runtime"):
            rt = g.node(p, "runtime", str(values["runtime"]), str(values["runtime"]))
            g.edge(env_node, rt, "RUNS_ON", p, doc.path, doc.line_of(f"envs.{env}.runtime"))
        if values.get("gcp_project"):
            gcp = g.node(p, "gcp_project", str(values["gcp_project"]), str(values["gcp_project"]))
            g.edge(
                env_node, gcp, "IN_GCP_PROJECT", p, doc.path, doc.line_of(f"envs.{env}.gcp_project")
            )
    for i, name in enumerate(comp.list_field("integrations")):
        integ = g.node(p, "integration", str(name), str(name))
        g.edge(cnode, integ, "INTEGRATES", p, doc.path, doc.line_of(f"integrations.{i}"))
    for i, secret in enumerate(comp.list_field("secrets")):
        if not isinstance(secret, dict) or not secret.get("name"):
            continue
        keep = {
            k: plain_value(secret[k])
            for k in ("store", "ref", "env_var", "hint", "sha256_prefix")
            if k in secret
        }
        line = doc.line_of(f"secrets.{i}")
        snode = g.node(
            p, "secret", str(secret["name"]), str(secret["name"]), doc.path, line, **keep
        )
        g.edge(cnode, snode, "USES_SECRET", p, doc.path, line, env_var=secret.get("env_var"))


def knowledge_tables(kb: KnowledgeBase) -> dict[str, pl.DataFrame]:
    """nodes, edges, docs and adrs of the knowledge layer for the `_global` partition."""
    g = _Graph()
    for pid, project in sorted(kb.projects.items()):
        if project.doc is None:
            continue
        pnode = g.node(
            pid,
            "project",
            pid,
            project.title,
            project.doc.path,
            1,
            tags=plain_value(project.doc.frontmatter.get("tags") or []),
        )
        for _, comp in sorted(project.components.items()):
            _component(g, comp, pnode)
    for adr in kb.adrs:
        anode = g.node(
            adr.project,
            "adr",
            adr.number,
            adr.title,
            adr.path,
            1,
            status=adr.status,
            date=adr.date,
            summary=adr.summary,
        )
        if adr.project in kb.projects:
            g.edge(
                anode, kid(adr.project, "project", adr.project), "DECIDES", adr.project, adr.path, 1
            )
        if adr.supersedes:
            g.edge(
                anode,
                kid(adr.project, "adr", adr.supersedes),
                "SUPERSEDES",
                adr.project,
                adr.path,
                adr.doc.line_of("supersedes"),
            )
    for doc in kb.docs:
        if doc.kind != "doc" or not doc.project or doc.project not in kb.projects:
            continue
        snode = g.node(
            doc.project,
            "source_doc",
            doc.path,
            doc.title or doc.path,
            doc.path,
            1,
            type=doc.frontmatter.get("type"),
            source=plain_value(doc.frontmatter.get("source") or []),
            verification=plain_value(doc.verification),
        )
        target = (
            kid(doc.project, "component", doc.component)
            if doc.component
            else kid(doc.project, "project", doc.project)
        )
        if target in g.nodes:
            g.edge(snode, target, "DOCUMENTS", doc.project, doc.path, 1)
    docs = [
        {
            "path": d.path,
            "project": d.project,
            "component": d.component,
            "kind": d.kind,
            "type": d.frontmatter.get("type"),
            "title": d.title,
            "verification_status": d.verification.get("status"),
            "verified_against": plain_value(d.verification.get("verified_against")),
            "verified_at": plain_value(d.verification.get("verified_at")),
            "frontmatter": plain_value(d.frontmatter),
        }
        for d in sorted(kb.docs, key=lambda d: d.path)
    ]
    adrs = [
        {
            "id": a.id,
            "project": a.project,
            "status": a.status,
            "date": a.date,
            "summary": a.summary,
            "path": a.path,
        }
        for a in kb.adrs
    ]
    return {
        "nodes": frame("nodes", sorted(g.nodes.values(), key=lambda n: n.id)),
        "edges": frame("edges", g.edges),
        "docs": frame("docs", docs),
        "adrs": frame("adrs", adrs),
    }
