"""`setting` nodes collected by the JS extractors outside the engine (config modules'
constants, Next.js page settings); the engine's emitter writes route prefixes and API
bases itself. Each setting is declared by its code_file (DECLARES at the statement's line).
One node per (file, line, name): values met twice on one line are joined.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from extractors.base import ComponentContext


@dataclass
class Settings:
    """Settings collected during a walk, emitted once (values of one line joined)."""

    ctx: ComponentContext
    found: dict[str, dict] = field(default_factory=dict)  # qualifier -> node fields

    def add(self, rel: str, line: int, name: str, value: str, about: str, source: str, **attrs):
        qualifier = f"{rel}:{line}:{name}"
        row = self.found.setdefault(
            qualifier,
            {"rel": rel, "line": line, "name": name, "values": [], "about": about,
             "source": source, "attrs": attrs},
        )  # fmt: skip
        if value not in row["values"]:
            row["values"].append(value)

    def emit(self) -> None:
        ctx = self.ctx
        files = {n.id for n in ctx.facts.nodes if n.kind == "code_file"}
        for qualifier, row in sorted(self.found.items()):
            node_id = ctx.add_node(
                "setting", qualifier, row["name"], row["rel"], row["line"], row["line"],
                value=", ".join(row["values"]), about=row["about"], source=row["source"],
                **row["attrs"],
            )  # fmt: skip
            file_id = ctx.node_id("code_file", row["rel"])
            if file_id in files:
                ctx.add_edge(file_id, node_id, "DECLARES", row["rel"], row["line"])
        self.found.clear()
