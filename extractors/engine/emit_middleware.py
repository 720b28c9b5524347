"""Middleware as the graph holds it: one node (and catalog row) per middleware, whether a
function, a class or a package's, the chain of a route in the order its framework runs
it (the model's phases), and every middleware applied anywhere, to a route or not.
"""

from __future__ import annotations

from extractors.engine.middleware import middleware_use
from extractors.engine.values import (
    Site,
    Value,
    describe,
)
from extractors.facts import CatalogRow


class MiddlewareNodes:
    """`Emitter`'s middleware nodes and run order."""

    def used_middleware(self, events: list) -> None:
        """Every middleware applied anywhere has its node (and catalog row), applied to a
        route or not (`app.use(express.json())` after the routes)."""
        from extractors.engine.events import UseEvent

        for event in events:
            if isinstance(event, UseEvent):
                for value, where in event.middleware:
                    self._middleware_node(value, where, self.phase_of(event.model, where))

    def in_run_order(self, model_id: str, chain: list) -> list:
        """A chain in the order the framework runs it: by the model's phases (NestJS:
        middleware, guards, interceptors, pipes; FastAPI: ASGI middleware — the last added
        first — then dependencies), registration order within a phase."""
        model = self.ev.library.by_id.get(model_id)
        if model is None or not model.phases:
            return chain
        names = [p for p, _ in model.phases]
        tagged = []
        for i, (value, where) in enumerate(chain):
            phase = self.phase_of(model_id, where)
            rank = names.index(phase) if phase in names else len(names)
            reverse = rank < len(names) and model.phases[rank][1]
            tagged.append((rank, -i if reverse else i, (value, where)))
        return [item for _, _, item in sorted(tagged, key=lambda t: (t[0], t[1]))]

    def phase_of(self, model_id: str, where: Site) -> str | None:
        """The lifecycle phase a use runs in (`guard`, `pipe`), for models that have them."""
        model = self.ev.library.by_id.get(model_id)
        if model is None or not model.phases:
            return None
        default = model.default_phase or model.phases[0][0]
        return self.ev.library.phase_at(self.ev, where) or default

    def _middleware_node(
        self, value: Value, where: Site, role: str | None = None
    ) -> tuple[str | None, str]:
        """(middleware node id, the use as written) for one element of a route's chain."""
        use = middleware_use(self.ev, value, where)
        if use is None:
            return None, describe(value)
        if use.function is not None:
            symbol = self.symbol_for(self.handler_of(use.function) or use.function)
            found = self.ctx.find_node(symbol)
            if found is not None and found.name == "<anonymous>" and not use.function.name:
                qualifier, label = f"<anonymous>@{where.rel}:{where.line}", "<anonymous>"
                return self._mw(
                    qualifier, label, where.rel, where.line, None, symbol, role
                ), "<anonymous>"
            qualifier = symbol.split(":symbol:", 1)[1]
            file, line = (found.file, found.line) if found is not None else (where.rel, where.line)
            return self._mw(qualifier, use.name, file, line, None, symbol, role), use.expr
        if use.klass is not None:
            file, line = use.klass.site.rel, use.klass.site.line
            symbol = self._symbol_at(file, line)
            qualifier = symbol.split(":symbol:", 1)[1] if symbol else f"{file}#{use.name}"
            return self._mw(qualifier, use.name, file, line, None, symbol, role), use.expr
        file, line = use.defined or (where.rel, where.line)
        symbol = self._symbol_at(file, line) if use.defined else None
        qualifier = (
            symbol.split(":symbol:", 1)[1] if symbol else use.name
        )  # the component's own const
        return self._mw(qualifier, use.name, file, line, use.package, symbol, role), use.expr

    def _mw(self, qualifier: str, name: str, file: str, line: int, package, symbol,
            role: str | None = None) -> str:  # fmt: skip
        if qualifier in self._middleware:
            return self._middleware[qualifier]
        attrs = {k: v for k, v in {"package": package, "symbol": symbol, "role": role}.items() if v}
        node_id = self.ctx.add_node("middleware", qualifier, name, file, line, **attrs)
        self._middleware[qualifier] = node_id
        label = name if not package or package in {"express", "koa", "fastify"} else package
        extra = {"middleware": name, "package": package} if package else {"middleware": name}
        self.ctx.facts.catalog.append(CatalogRow("middleware", self.ctx.project, self.ctx.component,
                                                 label, file, line, extra))  # fmt: skip
        return node_id
