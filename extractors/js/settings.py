"""`setting` nodes of JS servers: the route prefixes that tell how an API is reached.

- Express: a mount with a path on a root app (`app.use('/v1', routes)`) — name `app.use`
  (the receiver as written + `.use`), value the prefix, attrs `refers_to` (the mounted
  router, `<rel>#<name>`), source `express`.
- NestJS: `app.setGlobalPrefix('api')` — name `setGlobalPrefix`, value the prefix, source
  `nestjs`.
Each setting is declared by its code_file (DECLARES at the statement's line). One node per
(file, line, name): a mount inside a loop over a route table gives one setting whose value
lists every prefix the loop mounts.
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


def receiver_name(router_key: str) -> str:
    """`src/app.js#app` → `app`; an inline or parameter router keeps its written name."""
    name = router_key.split("#", 1)[-1].split("@", 1)[0]
    return name if name and name != "default" else "app"


def router_label(router_key: str) -> str:
    """`src/routes/v1/index.js#router` → `router of src/routes/v1/index.js`."""
    rel, _, name = router_key.partition("#")
    name = name.split("@", 1)[0] or "router"
    return f"{'router' if name == 'default' else name} of {rel}"
