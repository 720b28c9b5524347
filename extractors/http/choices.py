"""A URL chosen at run time by a ternary (`'/articles' + (feed ? '/feed' : '')`): each
branch is a candidate template, and the choice itself is an `unresolved` row.

Only a choice that changes the *path* counts; a ternary inside the query string
(`?page=${p ? p : 1}`) is just a value and stays a `{param}`.
"""

from __future__ import annotations

from itertools import product

from tree_sitter import Node as TsNode

from extractors.http.urls import Evaluator, Url
from extractors.js.common import FUNCTION_TYPES
from extractors.source import SourceFile

MAX_TERNARIES = 2


def ternaries(node: TsNode) -> list[TsNode]:
    """Ternaries inside a URL expression (not inside a nested function)."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.type in FUNCTION_TYPES:
            continue
        if n.type == "ternary_expression":
            out.append(n)
        stack.extend(n.named_children)
    return sorted(out, key=lambda n: n.start_byte)


def variants(ev: Evaluator, sf: SourceFile, node: TsNode | None) -> tuple[list[Url], TsNode] | None:
    """(one URL per choice, the first ternary) when the path differs by choice, else None."""
    found = ternaries(node) if node is not None else []
    if not found or len(found) > MAX_TERNARIES:
        return None
    urls: dict[str, Url] = {}
    try:
        for combo in product((0, 1), repeat=len(found)):
            ev.choice = {t.start_byte: c for t, c in zip(found, combo, strict=True)}
            url = ev.js(sf, node)
            if url is not None and not url.starts_with_param:
                urls.setdefault(url.template, url)
    finally:
        ev.choice = {}
    paths = {t.split("?", 1)[0] for t in urls}
    return (list(urls.values()), found[0]) if len(paths) > 1 else None
