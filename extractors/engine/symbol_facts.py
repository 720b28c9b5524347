"""Attrs a library gives an exported function (`SymbolEvent`: a Firebase function's trigger,
region, secrets): set on the function's `symbol` node, made when the symbol extractors gave
the export none (`exports.api = onRequest(app)`)."""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.engine.events import SymbolEvent


def symbol_attrs(ctx: ComponentContext, events: list) -> None:
    done: set[tuple[str, str]] = set()
    for event in events:
        if not isinstance(event, SymbolEvent) or (event.site.rel, event.name) in done:
            continue
        done.add((event.site.rel, event.name))
        site = event.site
        node = ctx.find_node(ctx.node_id("symbol", f"{site.rel}#{event.local}"))
        if node is None:
            qualifier = f"{site.rel}#{event.name}"
            node_id = ctx.add_node("symbol", qualifier, event.name, site.rel, site.line,
                                   site.end_line, exported=True, symbol_kind="variable")  # fmt: skip
            ctx.add_edge(
                ctx.node_id("code_file", site.rel), node_id, "DEFINES", site.rel, site.line
            )
            node = ctx.find_node(node_id)
        if node is not None:
            node.attrs.update(dict(event.attrs))
