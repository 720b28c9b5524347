"""`Emitter`: how the deploy-file readers (`infra.deploy`, `deploy_*`) add a `setting` or an
env declaration to a component's facts, merged with the nodes other extractors made."""

from __future__ import annotations

import re
from typing import Any

from extractors.base import ComponentContext
from extractors.facts import CatalogRow, Node
from extractors.infra.env import PUBLIC_PREFIXES, SECRET_NAME, keep_value
from extractors.source import SourceFile

ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


class Emitter:
    """Adds settings and env declarations to one component's facts, merging with the
    code_file and env_var nodes and `env_vars` catalog rows other extractors made."""

    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.nodes: dict[str, Node] = {}
        for node in ctx.facts.nodes:
            if node.kind in {"code_file", "env_var"}:
                self.nodes.setdefault(node.id, node)
        self.rows = {r.name: r for r in ctx.facts.catalog if r.table == "env_vars"}
        self.seen: set[str] = set()

    def code_file(self, sf: SourceFile, language: str) -> str:
        node_id = self.ctx.node_id("code_file", sf.rel)
        if node_id not in self.nodes:
            end = sf.data.count(b"\n") + 1
            node = Node(node_id, "code_file", sf.rel, self.ctx.project, self.ctx.component,
                        sf.rel, 1, end, {"language": language})  # fmt: skip
            self.ctx.facts.nodes.append(node)
            self.nodes[node_id] = node
        return node_id

    def setting(
        self,
        sf: SourceFile,
        line: int | None,
        name: str,
        value: Any,
        about: str,
        source: str,
        language: str,
        **attrs: Any,
    ) -> None:
        if line is None or value in (None, "", [], {}):
            return
        qualifier = f"{sf.rel}:{line}:{name}"
        if qualifier in self.seen:
            return
        self.seen.add(qualifier)
        file_id = self.code_file(sf, language)
        node_id = self.ctx.add_node(
            "setting", qualifier, name, sf.rel, line,
            value=str(value), about=about, source=source,
            **{k: v for k, v in attrs.items() if v not in (None, "", [], {})},
        )  # fmt: skip
        self.ctx.add_edge(file_id, node_id, "DECLARES", sf.rel, line)

    def env(
        self,
        sf: SourceFile,
        line: int | None,
        name: str,
        value: Any,
        via: str,
        language: str,
        **attrs: Any,
    ) -> None:
        """One declaration of env var `name` at `sf.rel:line` (value kept only if harmless)."""
        if line is None or not ENV_NAME.match(name):
            return
        if f"{sf.rel}:{line}:env:{name}" in self.seen:
            return
        self.seen.add(f"{sf.rel}:{line}:env:{name}")
        ctx, rel = self.ctx, sf.rel
        file_id = self.code_file(sf, language)
        node_id = ctx.node_id("env_var", name)
        kept = {rel: str(value)} if isinstance(value, str) and keep_value(name, value) else {}
        node = self.nodes.get(node_id)
        if node is None:
            node = Node(node_id, "env_var", name, ctx.project, ctx.component, rel, line, None,
                        {"declared_in": [], "public": name.startswith(PUBLIC_PREFIXES),
                         "secret_like": bool(SECRET_NAME.search(name))})  # fmt: skip
            ctx.facts.nodes.append(node)
            self.nodes[node_id] = node
        declared = list(node.attrs.get("declared_in") or [])
        node.attrs["declared_in"] = sorted({*declared, rel})
        if kept:
            node.attrs["values"] = dict(
                sorted({**(node.attrs.get("values") or {}), **kept}.items())
            )
        ctx.add_edge(file_id, node_id, "DECLARES", rel, line, via=via, **attrs)
        row = self.rows.get(name)
        if row is None:
            row = CatalogRow("env_vars", ctx.project, ctx.component, name, rel, line,
                             {"declared": True, "read": False})  # fmt: skip
            ctx.facts.catalog.append(row)
            self.rows[name] = row
        row.attrs["declared"] = True
