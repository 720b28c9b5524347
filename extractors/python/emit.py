"""Route and middleware nodes for every Python web framework (python.routes, python.django).

A route node's name is `METHOD /full/path`; attrs `method`, `path`, `framework`, `router`,
`mounted`, `mounts` (the prefixes that build the full path: `file:line /prefix[ = expr]`).
ROUTES_TO goes to the handler symbol; USES_MIDDLEWARE edges carry `order` (1 = runs first),
`scope` and `expr` (the call as written, when it has arguments), at the file:line where this
route gets that middleware. A middleware node is one per definition (its symbol when it is
the component's own code, else per name and first use), with a CALLS_FN edge to its symbol
and a `middleware` catalog row.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.python.deps import Mw


@dataclass
class Route:
    framework: str
    rel: str
    line: int
    end: int
    path: str
    method: str
    handler: str | None
    mws: list[Mw] = field(default_factory=list)
    router: str = ""
    mounted: bool = True
    mounts: list[dict] = field(default_factory=list)  # {prefix, file, line, how[, expr]}


class Emitter:
    def __init__(self, ctx: ComponentContext) -> None:
        self.ctx = ctx
        self.mw_nodes: dict[str, str] = {}
        self.taken: set[str] = set()
        self.names: dict[tuple[str, str], str] = {}  # (name, kind) -> qualifier, no symbol

    def route(self, r: Route) -> str:
        ctx = self.ctx
        path = r.path or "/"
        qual = f"{r.method} {path}"
        if ctx.node_id("route", qual) in self.taken:
            qual = f"{qual}@{r.rel}:{r.line}"
        route = ctx.add_node("route", qual, f"{r.method} {path}", r.rel, r.line, r.end,
                             method=r.method, path=path, framework=r.framework,
                             router=r.router, mounted=r.mounted,
                             **({"mounts": [_mount(m) for m in r.mounts]} if r.mounts else {}))  # fmt: skip
        self.taken.add(route)
        if r.handler:
            ctx.add_edge(route, r.handler, "ROUTES_TO", r.rel, r.line)
        for order, mw in enumerate(r.mws, start=1):
            node = self.middleware(mw, r.framework)
            extra = {"expr": mw.expr[:160]} if mw.expr else {}
            ctx.add_edge(route, node, "USES_MIDDLEWARE", mw.rel, mw.line, order=order,
                         scope=mw.kind, **extra)  # fmt: skip
        return route

    def middleware(self, mw: Mw, framework: str) -> str:
        ctx = self.ctx
        qual = mw.symbol.split(":", 2)[2] if mw.symbol else f"{mw.name}@{mw.rel}:{mw.line}"
        if not mw.symbol:
            qual = self.names.setdefault((mw.name, mw.kind), qual)
        if qual not in self.mw_nodes:
            node_id = ctx.add_node("middleware", qual, mw.name, mw.rel, mw.line, framework=framework,
                                   middleware_kind=mw.kind, symbol=mw.symbol)  # fmt: skip
            self.mw_nodes[qual] = node_id
            if mw.symbol:
                ctx.add_edge(node_id, mw.symbol, "CALLS_FN", mw.rel, mw.line)
            ctx.facts.catalog.append(
                CatalogRow(
                    "middleware",
                    ctx.project,
                    ctx.component,
                    mw.name,
                    mw.rel,
                    mw.line,
                    {"framework": framework, "kind": mw.kind},
                )  # fmt: skip
            )
        return self.mw_nodes[qual]


def _mount(m: dict) -> str:
    """`file:line prefix` (`= expr` when written as an expression), outermost first."""
    expr = f" = {m['expr']}" if m.get("expr") else ""
    return f"{m['file']}:{m['line']} {m['prefix'] or '(no prefix)'}{expr}"


def join(prefix: str, path: str) -> str:
    """URL join of a mount prefix and a path: exactly one `/` between, leading `/` kept."""
    if not path:
        return prefix
    if not prefix:
        return path if path.startswith("/") else "/" + path
    return prefix.rstrip("/") + (path if path.startswith("/") else "/" + path)
