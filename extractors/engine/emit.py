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
from extractors.engine.evaluate import Evaluator
from extractors.engine.middleware import middleware_use
from extractors.engine.mounts import NamedRoute
from extractors.engine.operation_ids import OperationIds
from extractors.engine.paths import (
    HTTP_METHODS,
    compatible,
    condition_text,
    holes_of,
    options,
    path_text,
)
from extractors.engine.urls import url_template
from extractors.engine.values import (
    ArrLit,
    Choice,
    Config,
    Env,
    Ext,
    Func,
    Klass,
    Lit,
    Obj,
    Site,
    Value,
    describe,
    used_at,
)
from extractors.facts import CatalogRow
from extractors.js.resolve import package_name

MAX_EXPR = 120


@dataclass
class Emitter:
    ctx: ComponentContext
    ev: Evaluator
    _symbols: dict[tuple[str, int], list[tuple[int, str]]] | None = None
    _routes_seen: set[str] = field(default_factory=set)
    _registered: set[tuple[int, str]] = field(default_factory=set)  # (event, name) emitted
    _middleware: dict[str, str] = field(default_factory=dict)
    env_files: dict[str, tuple[str, int, str]] = field(default_factory=dict)
    namings: list = field(default_factory=list)  # NamingEvents: operation_ids.py
    _ids: OperationIds | None = None

    # --- symbols --------------------------------------------------------------------
    def symbol_for(self, fn: Func) -> str:
        """The symbol node of a function (the component's own symbol, else a new
        `<anonymous>` one at its line)."""
        if self._symbols is None:
            index: dict[tuple[str, int], list[tuple[int, str]]] = {}
            for node in self.ctx.facts.nodes:
                if node.kind == "symbol" and node.file and node.line:
                    index.setdefault((node.file, node.line), []).append(
                        (node.end_line or node.line, node.id)
                    )
            self._symbols = index
        site = fn.site
        found = self._symbols.get((site.rel, site.line))
        if found:
            exact = [i for end, i in found if end == site.end_line]
            return (exact or [found[0][1]])[0]
        qualifier = self._nested_name(fn) or f"{site.rel}#<anonymous>@{site.line}:{site.col + 1}"
        node_id = self.ctx.node_id("symbol", qualifier)
        if self.ctx.find_node(node_id) is None:
            self.ctx.add_node("symbol", qualifier, fn.name or "<anonymous>", site.rel, site.line,
                              site.end_line, exported=False, symbol_kind="anonymous")  # fmt: skip
            self.ctx.add_edge(
                self.ctx.node_id("code_file", site.rel), node_id, "DEFINES", site.rel, site.line
            )
            self._symbols.setdefault((site.rel, site.line), []).append((site.end_line, node_id))
        return node_id

    def _nested_name(self, fn: Func) -> str | None:
        """`<rel>#outer.<locals>.inner` for a named function inside another one."""
        a = self.ev.program.adapter(fn.site.rel)
        node = a.node_at(fn.site) if a is not None else None
        if a is None or node is None or not fn.name:
            return None
        names = [fn.name]
        outer = a.function_at(node)
        while outer is not None:
            name = a.function(outer).name
            if not name:
                return None
            names.insert(0, name + ".<locals>")
            outer = a.function_at(outer)
        return f"{fn.site.rel}#{'.'.join(names)}" if len(names) > 1 else None

    def handler_of(self, value: Value | None) -> Func | None:
        """The function a route runs: a wrapper's argument (`catchAsync(fn)`) unwrapped."""
        seen = 0
        while isinstance(value, Func) and value.act is not None and seen < 4:
            inner = next((v for _, v in value.act.values if isinstance(v, Func)), None)
            if inner is None:
                break
            value, seen = inner, seen + 1
        if isinstance(value, Choice):
            return next((v for v in value.options if isinstance(v, Func)), None)
        return value if isinstance(value, Func) else None

    # --- routes ---------------------------------------------------------------------
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
                if isinstance(option, Lit) and isinstance(option.value, str):
                    raw = option.value
                    name = aliases.get(raw, aliases.get(raw.lower(), raw)).upper()
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
        qualifier = name if name not in self._routes_seen else f"{name}@{site.rel}:{site.line}"
        if qualifier in self._routes_seen:
            return None
        self._routes_seen.add(qualifier)
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
                self._ids = OperationIds(self.ev, self.namings)
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

    def own_prefixes(self, tree) -> None:
        """A `setting` for each router's own prefix (`APIRouter(prefix="/items")`,
        `new Router({ prefix })`), at the line the prefix is written."""
        from extractors.engine.mounts import _PropSource

        for node in tree.nodes.values():
            value = node.value
            if not isinstance(value, Obj) or value.origin.rel.startswith("<"):
                continue
            own = tree.own_prefix(node)
            if own is None or not isinstance(own, Lit) or not str(own.value or "").strip("/"):
                continue
            at, name = self._prop_written(value, tree)
            qualifier = f"{at.rel}:{at.line}:{name}"
            if self.ctx.find_node(self.ctx.node_id("setting", qualifier)) is not None:
                continue
            node_id = self.ctx.add_node("setting", qualifier, name, at.rel, at.line, at.line,
                                        value=str(own.value), about=f"route prefix: {name}",
                                        source=value.model)  # fmt: skip
            self.ctx.add_edge(
                self.ctx.node_id("code_file", at.rel), node_id, "DECLARES", at.rel, at.line
            )
        del _PropSource

    def _prop_written(self, obj: Obj, tree) -> tuple[Site, str]:
        """Where a router's prefix prop is written: the maker's keyword or argument node."""
        a = self.ev.program.adapter(obj.origin.rel)
        node = a.node_at(obj.origin) if a is not None else None
        view = a.call_view(node) if a is not None and node is not None else None
        model = self.ev.library.by_id.get(obj.model)
        selector = model.router.get("prefix") if model is not None else None
        prop = next((t.key for t in selector.terms if t.kind == "prop"), None) if selector else None
        if view is not None and prop is not None:
            for makers in model.objects.values():
                for maker in makers:
                    chosen = maker.props.get(prop)
                    for term in chosen.terms if chosen is not None else ():
                        if term.kind == "kw" and term.key in view.kwargs:
                            return a.site(view.kwargs[term.key]), term.key
                        if term.kind == "arg" and int(term.key) < len(view.args):
                            found = view.args[int(term.key)]
                            return a.site(found), prop
        return obj.origin, prop or "prefix"

    def never_mounted(self, tree) -> None:
        """A router that has routes but that no app mounts: its routes keep only their own
        prefix, and an `unresolved` row says where the router is made."""
        for node in tree.nodes.values():
            value = node.value
            if (
                node.mounted
                or not node.routes
                or not isinstance(value, Obj)
                or value.origin.rel.startswith("<")
            ):
                continue
            model = self.ev.library.by_id.get(value.model)
            if model is None or value.role in model.roots or value.prop("unbound") is not None:
                continue  # (a router parameter nobody passes has its own row)
            self.ctx.unresolved(value.origin.rel, value.origin.line, "route_mount", value.role,
                                f"this {value.model} {value.role} is never mounted in the component: "
                                "its routes are named without the prefix an app would give them")  # fmt: skip

    def used_middleware(self, events: list) -> None:
        """Every middleware applied anywhere has its node (and catalog row), applied to a
        route or not (`app.use(express.json())` after the routes)."""
        from extractors.engine.events import UseEvent

        for event in events:
            if isinstance(event, UseEvent):
                for value, where in event.middleware:
                    self._middleware_node(value, where, self.phase_of(event.model, where))

    def settings(self, events: list) -> None:
        """A `setting` node per route prefix the code writes (a mount's path, a global prefix),
        at the line it is written: how the API is reached, for single-fact answers."""
        from extractors.engine.events import MountEvent, PrefixEvent

        files = {n.id for n in self.ctx.facts.nodes if n.kind == "code_file"}
        seen: dict[str, list[str]] = {}
        rows: dict[str, tuple] = {}
        for event in events:
            if not isinstance(event, (MountEvent, PrefixEvent)) or event.path_site is None:
                continue
            if event.path is None:
                continue
            value = with_env_defaults(event.path, self.env_files)
            if isinstance(value, Lit):
                text = str(value.value or "")
            elif isinstance(value, (Env, Config)) and isinstance(value.default, Lit):
                text = str(value.default.value or "")  # read as its default; the hole is in `holes`
            else:
                text = url_template(value)[0]
            if not text.strip("/"):
                continue
            where = event.path_site
            name = event.path_name or "prefix"
            for hole in holes_of(value):
                if "default" not in hole and hole["source"] != "param":
                    written = hole.get("expr") or self._written(where) or text
                    self.ctx.unresolved(where.rel, where.line, "route_prefix", written,
                                        f"route prefix part {{{hole['name']}}} ({hole['source']}) has no value "
                                        "in the component: the routes below are named with it")  # fmt: skip
            found = [(where, name)]
            origin = getattr(event.path, "site", None)
            if isinstance(event.path, (Env, Config)) and origin is not None:  # a settings field
                found.append(
                    (
                        origin,
                        event.path.name.lower() if isinstance(event.path, Env) else event.path.key,
                    )
                )
            for at, label in found:
                qualifier = f"{at.rel}:{at.line}:{label}"
                values = seen.setdefault(qualifier, [])
                if text not in values:
                    values.append(text)
                refers = self._refers_to(event.child) if isinstance(event, MountEvent) else None
                rows[qualifier] = (at, label, event.model, refers)
        for qualifier, (where, name, model, refers) in sorted(rows.items()):
            extra = {"refers_to": refers} if refers else {}
            node_id = self.ctx.add_node("setting", qualifier, name, where.rel, where.line, where.line,
                                        value=", ".join(seen[qualifier]), about=f"route prefix: {name}",
                                        source=model, **extra)  # fmt: skip
            file_id = self.ctx.node_id("code_file", where.rel)
            if file_id in files:
                self.ctx.add_edge(file_id, node_id, "DECLARES", where.rel, where.line)

    def _written(self, where: Site) -> str | None:
        a = self.ev.program.adapter(where.rel)
        node = a.node_at(where) if a is not None else None
        return " ".join(a.text(node).split())[:120] if node is not None and a is not None else None

    def _refers_to(self, child: Value) -> str | None:
        """The component symbol a prefix is given to: the router's binding or the function."""
        if isinstance(child, Func):
            symbol = self.symbol_for(self.handler_of(child) or child)
        elif isinstance(child, Obj | Klass) and not (
            site := getattr(child, "origin", None) or child.site
        ).rel.startswith("<"):
            symbol = self._symbol_at(site.rel, site.line)
        else:
            symbol = None
        return symbol.split(":symbol:", 1)[1] if symbol else None

    def _built_handler(self, where: Site | None) -> str | None:
        """A handler a call builds: the function a package wrapper wraps
        (`asyncHandler(fn)`), else the expression itself (`swaggerUi.setup(spec)`)."""
        a = self.ev.program.adapter(where.rel) if where is not None else None
        node = a.node_at(where) if a is not None and where is not None else None
        view = a.call_view(node) if node is not None and a is not None else None
        if view is None or a is None or node is None:
            return None
        for arg in reversed(view.args):
            value = self.handler_of(self.ev.eval(where.rel, arg, None))
            if value is not None:
                return self.symbol_for(value)
        callee = self.ev.eval(where.rel, view.callee, None)
        package = (
            package_name(callee.package)
            if isinstance(callee, Ext) and not callee.package.startswith("<")
            else None
        )
        qualifier = f"{where.rel}#<handler>@{where.line}:{where.col + 1}"
        node_id = self.ctx.node_id("symbol", qualifier)
        if self.ctx.find_node(node_id) is None:
            attrs = {"package": package} if package else {}
            name = " ".join(a.text(view.callee).split())[:60]
            self.ctx.add_node("symbol", qualifier, name, where.rel, where.line, where.end_line,
                              exported=False, symbol_kind="expression", **attrs)  # fmt: skip
            self.ctx.add_edge(
                self.ctx.node_id("code_file", where.rel), node_id, "DEFINES", where.rel, where.line
            )
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

    def _symbol_at(self, file: str, line: int) -> str | None:
        found = self._symbol_index().get((file, line))
        return found[0][1] if found else None

    def _symbol_index(self) -> dict[tuple[str, int], list[tuple[int, str]]]:
        if self._symbols is None:
            index: dict[tuple[str, int], list[tuple[int, str]]] = {}
            for node in self.ctx.facts.nodes:
                if node.kind == "symbol" and node.file and node.line:
                    index.setdefault((node.file, node.line), []).append(
                        (node.end_line or node.line, node.id)
                    )
            self._symbols = index
        return self._symbols

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
