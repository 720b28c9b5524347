"""The one emitter: named routes and requests -> the graph's nodes, edges, `unresolved`
rows and catalog rows, in the contract the warehouse reads (docs/ARCHITECTURE.md): route
nodes `METHOD /path` with ROUTES_TO and ordered USES_MIDDLEWARE; http_call nodes with their
URL template and typed parts; CALLS_HTTP from the enclosing symbol. Typed parts travel as
attrs (`segments`, `holes`), never a string to parse back."""

from __future__ import annotations

from dataclasses import dataclass, field

from extractors.base import ComponentContext
from extractors.engine.chains import site_line
from extractors.engine.config_sources import with_env_defaults
from extractors.engine.decorators import Decorators
from extractors.engine.emit_middleware import MiddlewareNodes
from extractors.engine.emit_settings import Settings
from extractors.engine.emit_symbols import Symbols
from extractors.engine.evaluate import Evaluator
from extractors.engine.mounts import NamedRoute
from extractors.engine.operation_ids import OperationIds
from extractors.engine.paths import (
    HTTP_METHODS,
    compatible,
    condition_text,
    holes_of,
    method_word,
    options,
    path_text,
)
from extractors.engine.values import (
    ArrLit,
    Klass,
    Lit,
    Obj,
    Site,
    Value,
    used_at,
)

MAX_EXPR = 120


@dataclass
class Emitter(Symbols, Settings, MiddlewareNodes):
    """Routes -> nodes and edges; symbols (emit_symbols.py), prefix settings
    (emit_settings.py) and middleware (emit_middleware.py) are its parts."""

    ctx: ComponentContext
    ev: Evaluator
    decorators: Decorators  # the interpreter's decorator index (operation ids read it)
    _symbols: dict[tuple[str, int], list[tuple[int, str]]] | None = None
    _symbol_sites: dict[str, Site] = field(default_factory=dict)  # symbols made for a function
    _routes_seen: set[str] = field(default_factory=set)  # route names emitted
    _route_places: set[str] = field(default_factory=set)  # `name@file:line` emitted
    _registered: set[tuple[int, str]] = field(default_factory=set)  # (event, name) emitted
    _middleware: dict[str, str] = field(default_factory=dict)
    env_files: dict[str, tuple[str, int, str]] = field(default_factory=dict)
    namings: list = field(default_factory=list)  # NamingEvents: operation_ids.py
    _ids: OperationIds | None = None

    def routes(self, named: list[NamedRoute]) -> dict[int, list[str]]:
        """Emit every named route; returns the route node ids of each (by index)."""
        made: dict[int, list[str]] = {}
        for i, route in enumerate(named):
            event = route.event
            full = with_env_defaults(route.path, self.env_files)
            for method, m_choices in self._methods(event.method, event.model):
                for path, p_choices in options(full):
                    if compatible(m_choices, p_choices):
                        node_id = self._route(
                            route, method, path, condition_text(m_choices + p_choices)
                        )
                        if node_id is not None:
                            made.setdefault(i, []).append(node_id)
        return made

    def _methods(self, value: Value, model: str) -> list[tuple[str, str | None]]:
        aliases = self.ev.library.by_id[model].aliases if model in self.ev.library.by_id else {}
        out = []
        items = value.items if isinstance(value, ArrLit) else (value,)
        for item in items:
            for option, choices in options(item):
                raw = method_word(option)
                for one in raw.split(",") if raw is not None else ():  # `'GET,POST'`: both
                    one = one.strip()
                    name = aliases.get(one, aliases.get(one.lower(), one)).upper()
                    if name in HTTP_METHODS:
                        out.append((name, choices))
        return out

    def _route(
        self, route: NamedRoute, method: str, path: Value, condition: str | None
    ) -> str | None:
        event = route.event
        text, parts = path_text(path)
        site = self.display_site(event.site)
        name = f"{method} {text}"
        if (id(event), name) in self._registered:
            return None  # one registration reached twice (a module imported by two modules)
        self._registered.add((id(event), name))
        # one name at one place is one route, however many readings reached it (a function
        # registering routes read where it is and again where it is called); the same name
        # at another place is a second route, told apart by its place
        at = f"{name}@{site.rel}:{site.line}"
        if at in self._route_places:
            return None
        self._route_places.add(at)
        qualifier = at if name in self._routes_seen else name
        self._routes_seen.add(name)
        attrs: dict = {"method": method, "path": text, "framework": event.model,
                       "segments": [p.as_dict() for p in parts], **dict(event.attrs)}  # fmt: skip
        holes = holes_of(path)
        if holes:
            attrs["holes"] = holes
        if route.mounts:
            attrs["mounts"] = [self._mount_text(at, value) for at, value in route.mounts]
        if condition:
            attrs["condition"] = condition
        if isinstance(event.router, Klass | Obj) and event.router.name:
            attrs["controller"] = event.router.name  # a class-based controller owns the route
        if not self._served(route.root):
            attrs["mounted"] = False  # no app serves this router: its path may lack a prefix
        if "operation_id" not in attrs:
            if self._ids is None:
                self._ids = OperationIds(self.ev, self.namings, self.decorators)
            attrs.update(self._ids.attrs(route, method, text))
        node_id = self.ctx.add_node(
            "route", qualifier, name, site.rel, site.line, site.line, **attrs
        )
        handler = self.handler_of(event.handler)
        target = self.symbol_for(handler) if handler is not None else None
        made = (
            event.handler.site
            if isinstance(event.handler, Klass)
            else getattr(event.handler, "origin", None)
        )
        if target is None and made is not None and not made.rel.startswith("<"):
            target = self._symbol_at(made.rel, made.line)  # a class (an inherited action), an app
        if target is None and handler is None:
            target = self._built_handler(event.handler_site)
        if target is not None:
            self.ctx.add_edge(node_id, target, "ROUTES_TO", site.rel, site.line)
        for order, (value, where) in enumerate(
            self.in_run_order(event.model, route.middleware), start=1
        ):
            mw, expr = self._middleware_node(value, where, self.phase_of(event.model, where))
            if mw is not None:
                rel, line = used_at(where)
                named = self.ctx.find_node(mw)
                extra = {"expr": expr} if expr and (named is None or expr != named.name) else {}
                self.ctx.add_edge(node_id, mw, "USES_MIDDLEWARE", rel, line, order=order, **extra)
        for hole in holes_of(with_env_defaults(event.path, self.env_files)):  # the route's own path
            if "default" not in hole and hole["source"] != "param":
                expr = hole.get("expr") or name
                self.ctx.unresolved(site.rel, site.line, "route", expr,
                                    f"path part {{{hole['name']}}} ({hole['source']}) is not known statically")  # fmt: skip
        return node_id

    def _mount_text(self, at: Site, value: Value) -> str:
        """`file:line /prefix`, and ` = expression` when the prefix is computed."""
        text, _ = path_text(with_env_defaults(value, self.env_files))
        out = f"{at.where} {text}"
        if not isinstance(value, Lit):
            a = self.ev.program.adapter(at.rel)
            node = a.node_at(at) if a is not None else None
            if node is not None and a.call_view(node) is None:
                out += " = " + " ".join(a.text(node).split())[:80]
        return out

    def _served(self, root: Value) -> bool:
        if not isinstance(root, Obj):
            return True
        model = self.ev.library.by_id.get(root.model)
        return model is None or root.role in model.roots

    def display_site(self, site: Site) -> Site:
        a = self.ev.program.adapter(site.rel)
        node = a.node_at(site) if a is not None else None
        if node is None or a is None:
            return site
        if a.call_view(node) is not None:
            return site_line(a, node)
        return site
