"""Django settings as a route's chain, and middleware that answers some paths itself.

`MIDDLEWARE` entries in order, each at its own line (its symbol when the class is the
component's own); `REST_FRAMEWORK` `DEFAULT_*_CLASSES` by setting name. A MIDDLEWARE class's
`__call__` with `if request.path == "/healthy": return self.healthy(request)` is a route (GET
when under `if request.method == "GET"`, else ANY), handled by the method it calls, behind
the middleware listed before it."""

from __future__ import annotations

from typing import Protocol

from tree_sitter import Node as TsNode

from extractors.python.deps import Mw
from extractors.python.emit import Emitter, Route
from extractors.python.model import PyModule
from extractors.python.scope import calls_in, nodes_of
from extractors.python.symbols import text
from extractors.python.values import Cls, Values
from extractors.source import SourceFile


class Django(Protocol):
    """What these helpers read of the Django scan (a protocol, so django.py is not imported back)."""

    values: Values
    by_name: dict[str, str]
    mods: dict[str, PyModule]
    middleware: list[Mw]
    emitter: Emitter


def middleware(django: Django, mod: PyModule, node: TsNode) -> list[Mw]:
    out = []
    for item in node.named_children if node.type in {"list", "tuple"} else []:
        value = django.values.string(mod.rel, item, None)
        if value is None:
            continue
        sym = class_symbol(django, value.text)
        out.append(
            Mw(
                value.text.rsplit(".", 1)[-1],
                mod.rel,
                SourceFile.line(item),
                "django_middleware",
                sym,
            )
        )
    return out


def class_symbol(django: Django, dotted: str) -> str | None:
    module, _, name = dotted.rpartition(".")
    rel = django.by_name.get(module)
    return django.mods[rel].symbols.get(name) if rel else None


def drf_defaults(django: Django, mod: PyModule, node: TsNode) -> dict[str, list[Mw]]:
    out: dict[str, list[Mw]] = {}
    for pair in node.named_children if node.type == "dictionary" else []:
        if pair.type != "pair":
            continue
        key = django.values.string(mod.rel, pair.child_by_field_name("key"), None)
        value = pair.child_by_field_name("value")
        if key is None or value is None or value.type not in {"list", "tuple"}:
            continue
        for item in value.named_children:
            dotted = django.values.string(mod.rel, item, None)
            if dotted is not None:
                name = dotted.text.rsplit(".", 1)[-1]
                out.setdefault(key.text, []).append(
                    Mw(
                        name,
                        mod.rel,
                        SourceFile.line(item),
                        key.text.lower(),
                        class_symbol(django, dotted.text),
                    )
                )
    return out


# ---- URLconfs ---------------------------------------------------------------------


def middleware_routes(django: Django) -> None:
    """Routes a middleware class of MIDDLEWARE answers itself (`request.path == "/x"`)."""
    for i, mw in enumerate(django.middleware):
        if mw.symbol is None:
            continue
        qual = mw.symbol.split(":", 2)[2]
        rel, _, name = qual.partition("#")
        node = django.values.defs(rel).defs.get(f"{name}.__call__") if rel in django.mods else None
        if node is not None:
            _path_checks(django, django.mods[rel], (rel, name), node, django.middleware[:i])


def _path_checks(django: Django, mod: PyModule, cls: Cls, fn: TsNode, before: list[Mw]) -> None:
    for node in nodes_of(fn, "if_statement"):
        cond = node.child_by_field_name("condition")
        path = _compared(mod, cond, "request.path")
        if path is None:
            continue
        method = _enclosing_method(mod, node) or "ANY"
        handler = None
        body = node.child_by_field_name("consequence")
        for call in calls_in(body):
            callee = text(mod.sf, call.child_by_field_name("function"))
            if callee.startswith("self."):
                handler = django.values.method(cls, callee[5:])
                break
        handler = handler or mod.symbols.get(f"{cls[1]}.__call__")
        django.emitter.route(Route("django", mod.rel, SourceFile.line(node), SourceFile.end_line(node),
                                 path, method, handler, list(before)))  # fmt: skip


def _compared(mod: PyModule, cond: TsNode | None, subject: str) -> str | None:
    """ "/x" of `subject == "/x"` (either side)."""
    if cond is None or cond.type != "comparison_operator" or cond.named_child_count != 2:
        return None
    left, right = cond.named_children
    if "==" not in text(mod.sf, cond):
        return None
    if text(mod.sf, left) == subject and right.type == "string":
        return text(mod.sf, right)[1:-1]
    if text(mod.sf, right) == subject and left.type == "string":
        return text(mod.sf, left)[1:-1]
    return None


def _enclosing_method(mod: PyModule, node: TsNode) -> str | None:
    cur = node.parent
    while cur is not None and cur.type != "function_definition":
        if cur.type == "if_statement":
            method = _compared(mod, cur.child_by_field_name("condition"), "request.method")
            if method:
                return method.upper()
        cur = cur.parent
    return None
