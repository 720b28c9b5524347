"""Express, second half: what a registration's arguments are (handler, middleware nodes) and
the walk of the mount tree that names every route (see express.py for the node contract)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.js.common import (
    FUNCTION_TYPES,
    arguments,
    dotted_name,
    lookup_symbol,
    package_of,
    resolve_const,
    text,
    unwrap,
)
from extractors.js.model import ModuleInfo
from extractors.js.settings import Settings, receiver_name, router_label
from extractors.source import SourceFile

MAX_DEPTH = 16
MAX_EXPR = 120  # a middleware usage as written is kept up to this many characters
_CALLABLE = {"function", "method", "alias", "anonymous"}
_WRAPPER = re.compile(r"async|catch|wrap|handler|errors?$|safe|try", re.I)


@dataclass
class Entry:
    order: tuple
    kind: str  # "route" | "use" | "mount"
    rel: str
    line: int
    method: str = ""
    path: str = ""
    middleware: list[tuple[str, str, int, str]] = field(
        default_factory=list
    )  # (mw, rel, line, expr)
    handler: str | None = None
    child: str | None = None


class Parts:
    """Handlers and middleware of registrations: symbols, `<anonymous>` and expression nodes."""

    ctx: ComponentContext
    nodes: dict
    middleware: dict[str, str]

    def handler(self, mod: ModuleInfo, node: TsNode | None) -> str | None:
        node = unwrap(node)
        sf = mod.sf
        if node is None:
            return None
        if node.type in FUNCTION_TYPES:
            return mod.anonymous.get(node.start_byte) or self.anonymous(mod, node)
        if node.type == "call_expression":
            return self.call_handler(mod, node)
        dotted = dotted_name(sf, node)
        found = lookup_symbol(self.ctx, mod.rel, dotted) if dotted else None
        if found is None:
            self.ctx.unresolved(
                mod.rel,
                SourceFile.line(node),
                "handler",
                text(sf, node),
                "handler not found in the component",
            )
        return found

    def call_handler(self, mod: ModuleInfo, call: TsNode) -> str | None:
        """`catchAsync(ctrl.fn)` / `asyncHandler(async (req, res) => …)` → the wrapped
        function; `swaggerUi.setup(specs)` (a package's handler factory) → the call itself."""
        sf = mod.sf
        callee = dotted_name(sf, call.child_by_field_name("function")) or ""
        args = arguments(call)
        inner = unwrap(args[-1]) if args else None
        if inner is not None and inner.type in FUNCTION_TYPES:
            return self.handler(mod, inner)
        package = package_of(self.ctx, mod.rel, callee.split(".")[0]) if callee else None
        if inner is not None and (not package or _WRAPPER.search(callee)):
            dotted = dotted_name(sf, inner)
            found = lookup_symbol(self.ctx, mod.rel, dotted) if dotted else None
            node = self.nodes.get(found) if found else None
            if node is not None and node.attrs.get("symbol_kind") in _CALLABLE:
                return found
        own = lookup_symbol(self.ctx, mod.rel, callee) if callee and not package else None
        return own or self.expression(mod, call, callee, package)

    def expression(self, mod: ModuleInfo, call: TsNode, callee: str, package) -> str:
        """A handler built by an expression (`swaggerUi.setup(specs)`): its own symbol node."""
        line, col = call.start_point[0] + 1, call.start_point[1] + 1
        qualifier = f"{mod.rel}#<handler>@{line}:{col}"
        node_id = self.ctx.node_id("symbol", qualifier)
        if node_id not in self.nodes:
            attrs = {"package": package} if package else {}
            self.ctx.add_node(
                "symbol", qualifier, callee or text(mod.sf, call)[:60], mod.rel, line,
                SourceFile.end_line(call), exported=False, symbol_kind="expression", **attrs,
            )  # fmt: skip
            self.ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, line)
            self.nodes[node_id] = self.ctx.facts.nodes[-1]
        return node_id

    def anonymous(self, mod: ModuleInfo, fn: TsNode) -> str:
        line, col = fn.start_point[0] + 1, fn.start_point[1] + 1
        node_id = self.ctx.add_node(
            "symbol", f"{mod.rel}#<anonymous>@{line}:{col}", "<anonymous>", mod.rel, line,
            SourceFile.end_line(fn), exported=False, symbol_kind="anonymous",
        )  # fmt: skip
        self.ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, line)
        mod.anonymous[fn.start_byte] = node_id
        return node_id

    def middleware_of(
        self, mod: ModuleInfo, node: TsNode | None
    ) -> list[tuple[str, str, int, str]]:
        """(middleware node id, usage rel, usage line, usage as written) per middleware an
        argument holds — `validate(schema.login)` keeps its arguments, the node is `validate`."""
        node = unwrap(node)
        sf = mod.sf
        if node is None:
            return []
        line = SourceFile.line(node)
        expr = " ".join(text(sf, node).split())[:MAX_EXPR]
        if node.type == "array":
            return [m for item in node.named_children for m in self.middleware_of(mod, item)]
        if node.type in FUNCTION_TYPES:
            symbol = self.handler(mod, node)
            label = f"<anonymous>@{mod.rel}:{line}"
            mw = self.mw_node(mod, label, "<anonymous>", symbol, None, line)
            return [(mw, mod.rel, line, "<anonymous>")]
        if node.type == "call_expression":
            callee = dotted_name(sf, node.child_by_field_name("function"))
            if callee is None:
                return []
            symbol = lookup_symbol(self.ctx, mod.rel, callee)
            package = package_of(self.ctx, mod.rel, callee.split(".")[0])
            return [(self.mw_node(mod, callee, callee, symbol, package, line), mod.rel, line, expr)]
        dotted = dotted_name(sf, node)
        if dotted is None:
            return []
        symbol = lookup_symbol(self.ctx, mod.rel, dotted)
        package = package_of(self.ctx, mod.rel, dotted.split(".")[0]) or self.wrapped_package(
            mod, dotted
        )
        return [(self.mw_node(mod, dotted, dotted, symbol, package, line), mod.rel, line, expr)]

    def wrapped_package(self, mod: ModuleInfo, name: str) -> str | None:
        """`const rateLimit = expressRateLimit({...})` → express-rate-limit."""
        found = resolve_const(self.ctx, mod.rel, name) if "." not in name else None
        value = unwrap(found[1]) if found else None
        if value is None or value.type != "call_expression":
            return None
        callee = dotted_name(found[0], value.child_by_field_name("function"))
        return package_of(self.ctx, found[0].rel, callee.split(".")[0]) if callee else None

    def mw_node(
        self, mod, qualifier: str, name: str, symbol: str | None, package, line: int
    ) -> str:
        defined = self.nodes.get(symbol) if symbol else None
        if defined is not None:
            qualifier = defined.id.split(":symbol:", 1)[1]
        if qualifier in self.middleware:
            return self.middleware[qualifier]
        file, at = (defined.file, defined.line) if defined else (mod.rel, line)
        attrs = {k: v for k, v in {"package": package, "symbol": symbol}.items() if v}
        node_id = self.ctx.add_node("middleware", qualifier, name, file, at, **attrs)
        self.middleware[qualifier] = node_id
        if package:
            label = name if package == "express" else package  # express.json, express.static
            self.ctx.facts.catalog.append(
                CatalogRow(
                    "middleware",
                    self.ctx.project,
                    self.ctx.component,
                    label,
                    file,
                    at,
                    {"middleware": name, "package": package},
                )
            )
        return node_id


def emit(state) -> None:
    """Walk the mount tree from every root (an app, or a router nobody mounts)."""
    apps = state.ctx.shared.express.apps
    roots = [k for k in sorted(state.routers) if k not in state.mounted]
    settings = Settings(state.ctx)
    for root in roots:
        apps[root] = []
        walk = _Walk(state, apps[root], settings)
        walk.walk(root, "", [], 0, (root,), ())
    settings.emit()


@dataclass
class _Walk:
    state: object
    out: list
    settings: Settings

    def walk(self, key: str, prefix: str, inherited: list, depth: int, stack: tuple, mounts):
        """`mounts`: the `file:line` of every mount with a path on the way down to `key`."""
        if depth > MAX_DEPTH:
            return
        state = self.state
        active = list(inherited)  # (mw id, rel, line, expr, scope path)
        for entry in sorted(state.entries[key], key=lambda e: e.order):
            full = join_path(prefix, entry.path)
            if entry.kind == "use":
                active += [(*m, full) for m in entry.middleware]
            elif entry.kind == "mount" and entry.child and entry.child not in stack:
                applies = [m for m in active if _under(full, m[4]) or _under(m[4], full)]
                here = mounts
                if entry.path.strip("/"):
                    here = (*mounts, f"{entry.rel}:{entry.line}")
                    if depth == 0:  # a root app's mount: the prefix the API is reached under
                        self.settings.add(
                            entry.rel, entry.line, f"{receiver_name(key)}.use", entry.path,
                            f"route prefix mounted for {router_label(entry.child)}", "express",
                            refers_to=entry.child,
                        )  # fmt: skip
                self.walk(entry.child, full, applies, depth + 1, (*stack, entry.child), here)
            elif entry.kind == "route":
                chain = [m for m in active if _under(full, m[4])]
                chain += [(*m, full) for m in entry.middleware]
                self.out.append(_route(state, key, entry, full, chain, mounts))


def _route(state, key: str, entry: Entry, full: str, chain: list, mounts: tuple) -> str:
    name = f"{entry.method} {full}"
    qualifier = name if name not in state.seen else f"{name}@{entry.rel}:{entry.line}"
    state.seen.add(qualifier)
    extra = {"mounts": list(mounts)} if mounts else {}
    node_id = state.ctx.add_node(
        "route", qualifier, name, entry.rel, entry.line, entry.line,
        method=entry.method, path=full, framework="express", router=key, **extra,
    )  # fmt: skip
    if entry.handler:
        state.ctx.add_edge(node_id, entry.handler, "ROUTES_TO", entry.rel, entry.line)
    for order, (mw, rel, line, expr, _) in enumerate(chain, start=1):
        state.ctx.add_edge(node_id, mw, "USES_MIDDLEWARE", rel, line, order=order, expr=expr)
    return node_id


def join_path(prefix: str, path: str) -> str:
    prefix = prefix.rstrip("/")
    path = path or "/"
    if path == "/":
        return prefix or "/"
    return prefix + (path if path.startswith("/") else "/" + path)


def _under(path: str, scope: str) -> bool:
    scope = scope.rstrip("/")
    return not scope or path == scope or path.startswith(scope + "/")
