"""Routes, mounts, middleware and route-prefix settings from the engine's analysis."""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.engine.heuristic import MODEL as HEURISTIC
from extractors.shared import CodeSymbols, EngineRun, ExpressApps, StackHints

NAME = "engine_routes"
PROVIDES = (CodeSymbols, ExpressApps, StackHints)
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
    _apps(ctx, named, made)


def _low_confidence(ctx: ComponentContext, named, made: dict[int, list[str]]) -> None:
    """Routes of the heuristic tier (no model claims them) say so: `confidence: low`."""
    low = {node_id for i, r in enumerate(named) if r.event.model == HEURISTIC
           for node_id in made.get(i, [])}  # fmt: skip
    for node in ctx.facts.nodes if low else ():
        if node.id in low:
            node.attrs["confidence"] = "low"


def _apps(ctx: ComponentContext, named, made: dict[int, list[str]]) -> None:
    """Each root app's routes by the symbol the app is kept in (`<rel>#app`): a serverless
    function that serves the app (Firebase's onRequest(app)) serves these routes."""
    by_line: dict[tuple[str, int], str] = {}
    for node in ctx.facts.nodes:
        if node.kind == "symbol" and node.file and node.line:
            by_line.setdefault((node.file, node.line), node.id.split(":symbol:", 1)[1])
    apps = ctx.shared.express.apps
    for i, route in enumerate(named):
        origin = getattr(route.root, "origin", None)
        key = by_line.get((origin.rel, origin.line)) if origin is not None else None
        if key is not None:
            apps.setdefault(key, []).extend(made.get(i, []))
