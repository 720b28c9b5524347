"""A callee chosen at run time: `const req = liked ? api.a.unlike : api.a.like; req(slug)`.

The call itself gets an `unresolved` row naming the choice whenever a branch makes an HTTP
request. Where a branch is a summary that needs this call's arguments to become concrete (an
SDK method, a wrapper), each branch is also an http_call *candidate* (`candidate: true`) at
the line that names it, with the arguments of the call; a branch whose requests are already
concrete elsewhere (a function that calls the API itself) adds nothing more.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.http.summaries import substitute
from extractors.js.common import arguments, lookup_symbol, modules, text, unwrap
from extractors.js.index import call_names, local_value
from extractors.source import SourceFile

_BRANCHES = ("consequence", "alternative")


def member_symbol(ctx, rel: str, dotted: str) -> str | None:
    """Symbol id of `a.b` / `ns.Obj.fn` as written in `rel`, also through a default-exported
    object literal (`export default { Articles }` → `Articles.fn`)."""
    found = lookup_symbol(ctx, rel, dotted) if dotted.count(".") <= 1 else None
    if found is not None or dotted.count(".") != 2:
        return found
    head, prop, member = dotted.split(".")
    mod = modules(ctx).get(rel)
    binding = mod.imports.get(head) if mod is not None else None
    target = modules(ctx).get(binding.target) if binding and binding.target else None
    if target is None or binding.imported != "default":
        return None
    for stmt in target.sf.tree.root_node.named_children:
        value = stmt.child_by_field_name("value") if stmt.type == "export_statement" else None
        value = unwrap(value)
        if value is None or value.type != "object":
            continue
        for child in value.named_children:
            if child.type == "shorthand_property_identifier" and text(target.sf, child) == prop:
                return target.symbols.get(f"{prop}.{member}")
    return None


def chosen_callees(calls, sdk) -> None:
    ctx = calls.ctx
    http_owners = {e.src for e in ctx.facts.edges if e.type == "CALLS_HTTP"}
    for rel, mod in sorted(modules(ctx).items()):
        sf = mod.sf
        for call, fn, dotted in call_names(ctx, sf):
            if fn is None or fn.type != "identifier" or call.type != "call_expression":
                continue
            value = unwrap(local_value(ctx, sf, call, dotted))
            if value is None or value.type != "ternary_expression":
                continue
            branches = [unwrap(value.child_by_field_name(f)) for f in _BRANCHES]
            names = [text(sf, b) for b in branches if b is not None]
            if len(names) != 2:
                continue
            http = 0
            for node, name in zip(branches, names, strict=True):
                found = sdk.resolve(sf, name) if "." in name else None
                symbol = member_symbol(ctx, rel, name) if found is None else None
                wrapper = calls.wrappers.get(symbol) if symbol else None
                if found is not None:
                    sdk.emit(sf, node, found, arguments(call), call, candidate=True)
                elif wrapper is not None:
                    _wrapper_candidate(calls, sf, node, call, symbol, wrapper)
                elif symbol is None or symbol not in http_owners:
                    continue
                http += 1
            if http:
                cond = text(sf, value.child_by_field_name("condition"))
                calls.out.dynamic(
                    rel, SourceFile.line(call), text(sf, call),
                    f"callee chosen at run time by `{cond}`: {names[0]} or {names[1]}",
                )  # fmt: skip


def _wrapper_candidate(calls, sf, node: TsNode, call: TsNode, symbol: str, w) -> None:
    url = substitute(calls.eval, sf, w, arguments(call))
    if url is None or url.starts_with_param:
        return
    owner = modules(calls.ctx)[sf.rel].enclosing(call.start_byte)
    calls.out.emit(
        sf, node, w.method, url, w.base, w.client, "wrapper",
        wrapper=symbol, owner=owner, hops=list(w.hops), candidate=True, **w.extra,
    )  # fmt: skip
