"""One unwrapping of JS/TS expressions for every extractor: `(x)`, `await x`, `x as T`,
`x!` and the older `<T>x` assertion all read as `x` (the type of `<T>x` comes first)."""

from __future__ import annotations

import pytest

from extractors.js.common import unwrap
from extractors.lang.js_views import unwrapped
from extractors.source import parser_for


@pytest.mark.parametrize(
    "source",
    [
        "(client)",
        "await client",
        "client as Api",
        "client!",
        "<Api>client",
        "(<Api>(client as Api))",
    ],
)
def test_every_wrapper_reads_as_the_expression_inside(source: str) -> None:
    tree = parser_for("typescript").parse(f"async function f() {{ const a = {source}; }}".encode())
    [decl] = [n for n in _walk(tree.root_node) if n.type == "variable_declarator"]
    value = decl.child_by_field_name("value")
    assert unwrapped(value).text == b"client"
    assert unwrap(value).text == b"client"  # the older extractors' helper agrees


def _walk(node):
    yield node
    for child in node.children:
        yield from _walk(child)
