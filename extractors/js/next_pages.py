"""Next.js details for nextjs.py: the methods a pages-router API handler accepts, a default
export that is an expression, and `basePath` from next.config.*."""

from __future__ import annotations

import re

from extractors.base import ComponentContext
from extractors.js.model import ModuleInfo
from extractors.js.settings import Settings
from extractors.source import SourceFile

_VERB = r"['\"](GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['\"]"
_NOT = re.compile(r"\.method\s*!==?\s*" + _VERB + r"|" + _VERB + r"\s*!==?\s*\w+\.method")
_IS = re.compile(r"\.method\s*===?\s*" + _VERB + r"|" + _VERB + r"\s*===?\s*\w+\.method")
_CASE = re.compile(r"case\s+" + _VERB + r"\s*:")
_BASE_PATH = re.compile(r"""\bbasePath\s*:\s*['"`](/[^'"`]*)['"`]""")
_CONFIGS = ("next.config.js", "next.config.mjs", "next.config.ts", "next.config.cjs")


def pages_methods(
    ctx: ComponentContext, mod: ModuleInfo, handler: str | None
) -> tuple[list[str], dict[str, str]]:
    """`if (req.method !== 'POST') return 405` → [POST]; `switch (req.method) { case 'GET' }`
    or `req.method === 'GET'` branches → those methods; otherwise [ALL]. With the guard as
    route attrs: `method_guard` (the line as written) and `method_guard_at` (`file:line`)."""
    node = ctx.find_node(handler) if handler else None
    if node is None or not node.line:
        return ["ALL"], {}
    lines = mod.sf.text.splitlines()[node.line - 1 : node.end_line or node.line]
    body = "\n".join(lines)
    guards = list(_NOT.finditer(body))
    only = {m.group(1) or m.group(2) for m in guards}
    if len(only) == 1:
        return sorted(only), _guard(mod, node.line, lines, body, guards[0])
    found = list(_IS.finditer(body))
    found += list(_CASE.finditer(body)) if "switch" in body else []
    named = {m.group(1) or m.group(2) for m in found}
    if not named:
        return ["ALL"], {}
    return sorted(named), _guard(mod, node.line, lines, body, min(found, key=lambda m: m.start()))


def _guard(mod: ModuleInfo, first: int, lines: list[str], body: str, found) -> dict[str, str]:
    offset = body.count("\n", 0, found.start())
    written = " ".join(lines[offset].split())
    return {"method_guard": written[:120], "method_guard_at": f"{mod.rel}:{first + offset}"}


def default_expression(ctx: ComponentContext, mod: ModuleInfo) -> str | None:
    """`export default NextAuth(authOptions)`: an `expression` symbol for the handler."""
    value = mod.consts.get("default") if mod.exports.get("default") == "default" else None
    if value is None or value.type not in {"call_expression", "new_expression"}:
        return None
    line = SourceFile.line(value)
    name = mod.sf.node_text(value)
    name = name if len(name) <= 60 else name[:57] + "..."
    node_id = ctx.add_node(
        "symbol", f"{mod.rel}#default", name, mod.rel, line, SourceFile.end_line(value),
        exported=True, symbol_kind="expression",
    )  # fmt: skip
    ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, line)
    return node_id


def node_line(ctx: ComponentContext, node_id: str | None) -> int | None:
    if node_id is None:
        return None
    found = ctx.find_node(node_id, last=True)
    return found.line if found is not None else None


def base_path(ctx: ComponentContext) -> str:
    """`basePath: '/docs'` in next.config.* ('' when none), also a `setting` `basePath`."""
    for rel in _CONFIGS:
        sf = ctx.files.get(rel)
        found = _BASE_PATH.search(sf.text) if sf is not None else None
        if found:
            settings = Settings(ctx)
            line = sf.text.count("\n", 0, found.start()) + 1
            settings.add(rel, line, "basePath", found.group(1), "route prefix of every page and "
                         "API route", "nextjs")  # fmt: skip
            settings.emit()
            return found.group(1).rstrip("/")
    return ""
