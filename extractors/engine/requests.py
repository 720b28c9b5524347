"""HTTP calls (http_call nodes, CALLS_HTTP edges, hosts catalog rows) from the engine's
analysis."""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.engine.calls_emit import CallEmitter
from extractors.engine.sdk_hosts import sdk_hosts
from extractors.engine.transform_order import transform_order
from extractors.shared import CodeSymbols, EngineRun

NAME = "engine_requests"
PROVIDES = ()
REQUIRES = (EngineRun, CodeSymbols)


def extract(ctx: ComponentContext) -> None:
    sdk_hosts(ctx)
    analysis = ctx.shared.engine.result
    if analysis is None:
        return
    emitter = analysis.emitter
    calls = CallEmitter(ctx, emitter.ev, emitter.display_site, analysis.generated)
    calls.requests(analysis.found)
    calls.chosen_callees(analysis.found)
    calls.config_values()
    calls.catalog()
    transform_order(ctx, emitter.ev, analysis.transforms)
