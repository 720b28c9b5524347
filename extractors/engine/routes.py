"""Routes, mounts, middleware and route-prefix settings from the engine's analysis."""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.engine.heuristic import MODEL as HEURISTIC
from extractors.engine.symbol_facts import symbol_attrs
from extractors.shared import CodeSymbols, EngineRun, StackHints

NAME = "engine_routes"
PROVIDES = (CodeSymbols, StackHints)
REQUIRES = (EngineRun,)


def extract(ctx: ComponentContext) -> None:
    analysis = ctx.shared.engine.result
    if analysis is None:
        return
    named = analysis.tree.routes()
    ctx.shared.stack.names.update(r.event.model for r in named)  # the frameworks routes came from
    made = analysis.emitter.routes(named)
    _low_confidence(ctx, named, made)
    events = [item.event for item in analysis.found]
    analysis.emitter.settings(events)
    analysis.emitter.own_prefixes(analysis.tree)
    analysis.emitter.never_mounted(analysis.tree)
    analysis.emitter.used_middleware(events)
    symbol_attrs(ctx, events)


def _low_confidence(ctx: ComponentContext, named, made: dict[int, list[str]]) -> None:
    """Routes of the heuristic tier (no model claims them) say so: `confidence: low`."""
    low = {node_id for i, r in enumerate(named) if r.event.model == HEURISTIC
           for node_id in made.get(i, [])}  # fmt: skip
    for node in ctx.facts.nodes if low else ():
        if node.id in low:
            node.attrs["confidence"] = "low"
