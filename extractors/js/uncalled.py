"""Calls in a function nothing calls: an http_call whose enclosing function is private to
its module (not exported), is no target of a call or alias in the graph, and whose name
appears nowhere else in its file — not even as a value (`setTimeout(f)`, `{ methods: { f }
}`) — gets `uncalled: <function>`. The bridge keeps such a call's edge at low confidence,
said as dead code (warehouse/deadcode.py). A single-file component's template can name a
function the script never mentions again, so `.vue` / `.svelte` files are never judged."""

from __future__ import annotations

import re

from extractors.base import ComponentContext

NAME = "js.uncalled"
PROVIDES = ()
REQUIRES = ()
AFTER_ALL = True  # after every extractor that adds calls, symbols and CALLS_FN edges

_JS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")


def extract(ctx: ComponentContext) -> None:
    facts = ctx.facts
    owner = {e.dst: e.src for e in facts.edges if e.type == "CALLS_HTTP"}
    if not owner:
        return
    used = {e.dst for e in facts.edges if e.type != "DEFINES"}
    used |= {str(n.attrs["target"]) for n in facts.nodes if n.attrs.get("target")}
    symbols = {n.id: n for n in facts.nodes if n.kind == "symbol"}
    for node in facts.nodes:
        sym = symbols.get(owner.get(node.id, ""))
        if node.kind != "http_call" or sym is None or not (node.file or "").endswith(_JS):
            continue
        name = sym.id.rsplit("#", 1)[-1]
        if (sym.attrs.get("symbol_kind") != "function" or sym.attrs.get("exported")
                or sym.id in used or not re.fullmatch(r"[A-Za-z_$][\w$]*", name)):  # fmt: skip
            continue
        sf = ctx.files.get(node.file or "")
        text = getattr(sf, "text", None)
        if (
            text is not None
            and len(re.findall(rf"(?<![\w$.]){re.escape(name)}(?![\w$])", text)) == 1
        ):
            node.attrs["uncalled"] = name
