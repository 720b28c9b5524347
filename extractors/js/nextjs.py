"""Next.js file-system routes: pages router and app router, with the `src/` prefix.

- pages router: `pages/**.{js,jsx,ts,tsx}` → `GET /path` (page) — `_app`, `_document`,
  `_error` skipped; `pages/api/**` → `ALL /api/path` (one handler takes every method),
  or one route per method when the handler says which it accepts (`if (req.method !==
  'POST') return …`, `switch (req.method)`, `req.method === 'GET'`). ROUTES_TO the default
  export — a function, or the expression it is (`export default NextAuth(authOptions)`,
  an `expression` symbol at its line).
- `basePath` from next.config.* prefixes every route.
- app router: `app/**/page.*` → `GET /path`; `app/**/route.*` → one route per exported HTTP
  method function (`export async function POST`, `export const GET = ...`), ROUTES_TO it.
  Route groups `(group)` and parallel slots `@slot` dropped, `_private` folders skipped.
- dynamic segments keep the framework's own syntax: `[slug]`, `[...slug]`, `[[...slug]]`.
- `middleware.{ts,js}` at the root (or `src/`) becomes a middleware node applied (order 1)
  to routes its `config.matcher` covers (every route without a matcher); the edge's line
  is the `matcher`'s.

route attrs: `method`, `path`, `framework="nextjs"`, `router` ("app" | "pages"),
`route_kind` ("page" | "api"); a pages API route whose handler tests `req.method` also has
`method_guard` (that line as written) and `method_guard_at` (`file:line`). Runs only when the component depends on `next`.
"""

from __future__ import annotations

import posixpath
import re

from extractors.base import ComponentContext
from extractors.js.common import (
    js_files,
    modules,
    object_props,
    string_value,
)
from extractors.js.model import ModuleInfo
from extractors.js.next_pages import (
    base_path,
    default_expression,
    pages_methods,
)
from extractors.js.next_pages import (
    node_line as _node_line,
)
from extractors.shared import JsSymbols

NAME = "nextjs"
PROVIDES = ()
REQUIRES = (JsSymbols,)
HTTP_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_EXT = re.compile(r"\.(tsx|ts|jsx|js|mjs)$")
_SPECIAL_PAGES = {"_app", "_document", "_error"}


def _uses_next(ctx: ComponentContext) -> bool:
    for rel, sf in ctx.files.items():
        name = posixpath.basename(rel)
        if name.startswith("next.config."):
            return True
        if name == "package.json" and b'"next"' in sf.data:
            return True
    return False


def _route_path(segments: list[str]) -> str:
    kept = [
        s for s in segments if not (s.startswith("(") and s.endswith(")")) and not s.startswith("@")
    ]
    return "/" + "/".join(kept)


def _classify(rel: str) -> tuple[str, str, str] | None:
    """(router, kind, path) for a route file, else None."""
    stem = _EXT.sub("", rel)
    if stem == rel:
        return None
    parts = stem.split("/")
    if parts[0] == "src":
        parts = parts[1:]
    if len(parts) < 2 or parts[0] not in {"pages", "app"}:
        return None
    if parts[0] == "pages":
        if parts[-1] in _SPECIAL_PAGES or any(p.startswith("_") for p in parts[1:]):
            return None
        segs = parts[1:-1] + ([] if parts[-1] == "index" else [parts[-1]])
        kind = "api" if parts[1] == "api" else "page"
        return "pages", kind, _route_path(segs)
    if any(p.startswith("_") for p in parts[1:-1]) or parts[-1] not in {"page", "route"}:
        return None
    return "app", "page" if parts[-1] == "page" else "api", _route_path(parts[1:-1])


def _handler(mod: ModuleInfo, exported: str) -> str | None:
    local = mod.exports.get(exported)
    return mod.symbols.get(local) if local else None


def extract(ctx: ComponentContext) -> None:
    if not _uses_next(ctx):
        return
    mods = modules(ctx)
    lines = {n.id: n.line for n in ctx.facts.nodes if n.kind == "symbol"}
    middleware = _middleware(ctx, mods, lines)
    base = base_path(ctx)
    for sf in js_files(ctx):
        found = _classify(sf.rel)
        mod = mods.get(sf.rel)
        if found is None or mod is None:
            continue
        router, kind, path = found
        guard: dict[str, str] = {}
        if router == "app" and kind == "api":
            methods = [(m, _handler(mod, m)) for m in HTTP_METHODS if m in mod.exports]
        else:
            handler = _handler(mod, "default") or default_expression(ctx, mod)
            verbs, guard = pages_methods(ctx, mod, handler) if kind == "api" else (["GET"], {})
            methods = [(verb, handler) for verb in verbs]
        for method, handler in methods:
            full = (base + path).rstrip("/") or "/" if base else path
            name = f"{method} {full}"
            line = (lines.get(handler) if handler else None) or _node_line(ctx, handler) or 1
            route = ctx.add_node(
                "route", name, name, sf.rel, line, line,
                method=method, path=full, framework="nextjs", router=router, route_kind=kind,
                **guard,
            )  # fmt: skip
            if handler:
                ctx.add_edge(route, handler, "ROUTES_TO", sf.rel, line)
            if middleware and _matches(path, middleware[1]):
                node, _, rel, at = middleware
                ctx.add_edge(route, node, "USES_MIDDLEWARE", rel, at, order=1)


def _middleware(ctx: ComponentContext, mods: dict[str, ModuleInfo], lines: dict[str, int | None]):
    """(node id, matcher prefixes, rel) of `middleware.ts`, if the app has one."""
    for rel in ("middleware.ts", "middleware.js", "src/middleware.ts", "src/middleware.js"):
        mod = mods.get(rel)
        if mod is None:
            continue
        symbol = _handler(mod, "middleware") or _handler(mod, "default")
        line = (lines.get(symbol) if symbol else None) or 1
        matchers: list[str] = []
        matcher_line = None  # where routes get the middleware: its `matcher`
        config = mod.consts.get("config")
        if config is not None and config.type == "object":
            value = object_props(mod.sf, config).get("matcher")
            matcher_line = value.start_point[0] + 1 if value is not None else None
            items = value.named_children if value is not None and value.type == "array" else [value]
            matchers = [s for s in (string_value(mod.sf, i) for i in items if i is not None) if s]
        attrs = {"symbol": symbol} if symbol else {}
        node = ctx.add_node(
            "middleware", f"{rel}#middleware", "middleware", rel, line, matcher=matchers, **attrs
        )
        return node, matchers, rel, matcher_line or line
    return None


def _matches(path: str, matchers: list[str]) -> bool:
    if not matchers:
        return True
    for matcher in matchers:
        prefix = re.split(r"[:(\[*]", matcher, maxsplit=1)[0].rstrip("/")
        if not prefix or path == prefix or path.startswith(prefix + "/"):
            return True
    return False
