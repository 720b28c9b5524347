"""A callee chosen at run time: `const req = liked ? api.a.unlike : api.a.like; req(slug)`,
or looked up by a run-time key in a map of functions (`const q = queries[typename];
q.fetcher(vars)`).

The call itself gets an `unresolved` row naming the choice whenever a branch makes an HTTP
request. Where a branch is a summary that needs this call's arguments to become concrete (an
SDK method, a wrapper), each branch is also an http_call *candidate* (`candidate: true`) at
the line that names it, with the arguments of the call; a branch whose requests are already
concrete elsewhere (a function that calls the API itself) adds nothing more.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.http.summaries import substitute
from extractors.js.common import (
    arguments,
    lookup_symbol,
    modules,
    object_props,
    resolve_const,
    text,
    unwrap,
)
from extractors.js.index import call_names, file_index, local_value
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
    http_owners = reaching_http(ctx)
    for rel, mod in sorted(modules(ctx).items()):
        sf = mod.sf
        decls = file_index(ctx, sf).decls  # both branches need a local `head = value`
        for call, fn, dotted in call_names(ctx, sf):
            if dotted is None or dotted.partition(".")[0] not in decls:
                continue
            if fn is None or call.type != "call_expression":
                continue
            if fn.type == "member_expression" and dotted.count(".") == 1:
                _map_lookup(calls, sf, call, dotted, http_owners)
                continue
            if fn.type != "identifier":
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


def reaching_http(ctx) -> set[str]:
    """Symbols that make an HTTP call themselves or through the functions they call."""
    callers: dict[str, set[str]] = {}
    reach: set[str] = set()
    for e in ctx.facts.edges:
        if e.type == "CALLS_HTTP":
            reach.add(e.src)
        elif e.type == "CALLS_FN":
            callers.setdefault(e.dst, set()).add(e.src)
    todo = list(reach)
    while todo:
        for src in callers.get(todo.pop(), ()):
            if src not in reach:
                reach.add(src)
                todo.append(src)
    return reach


def _map_lookup(calls, sf: SourceFile, call: TsNode, dotted: str, http_owners: set[str]) -> None:
    """`q.fetcher(...)` with `q = MAP[key]`: a function picked from a map at run time."""
    head = dotted.split(".")[0]
    value = unwrap(local_value(calls.ctx, sf, call, head))
    if value is None or value.type != "subscript_expression":
        return
    index = value.child_by_field_name("index")
    if index is None or index.type in {"string", "number"}:
        return
    obj = text(sf, value.child_by_field_name("object"))
    found = resolve_const(calls.ctx, sf.rel, obj) if obj.isidentifier() else None
    table = unwrap(found[1]) if found else None
    if table is None or table.type != "object":
        return
    where, member = found[0].rel, dotted.split(".")[1]
    names = [text(found[0], v) for v in object_props(found[0], table).values()]
    hits = [n for n in names if _member_requests(calls.ctx, where, n, member, http_owners)]
    if hits:
        calls.out.dynamic(
            sf.rel, SourceFile.line(call), text(sf, call).split("(")[0],
            f"callee looked up in {obj} by `{text(sf, index)}` at run time: one of "
            f"{', '.join(hits[:4])}{', …' if len(hits) > 4 else ''} ({len(hits)} make requests)",
        )  # fmt: skip


def _member_requests(ctx, rel: str, name: str, member: str, http_owners: set[str]) -> bool:
    """Whether `name.member` (`useThing.fetcher = (v) => fetcher(doc, v)`, assigned where
    `name` is defined) calls something that makes a request."""
    symbol = member_symbol(ctx, rel, name)
    mod = modules(ctx).get(symbol.split(":symbol:", 1)[1].split("#")[0]) if symbol else None
    if mod is None:
        return False
    if (hit := mod.symbols.get(f"{name.split('.')[-1]}.{member}")) is not None:
        return hit in http_owners
    for stmt in mod.sf.tree.root_node.named_children:
        expr = stmt.named_children[0] if stmt.type == "expression_statement" else None
        if expr is None or expr.type != "assignment_expression":
            continue
        if text(mod.sf, expr.child_by_field_name("left")) != f"{name.split('.')[-1]}.{member}":
            continue
        right = expr.child_by_field_name("right")
        for call, _, dotted in call_names(ctx, mod.sf):
            inside = right is not None and right.start_byte <= call.start_byte < right.end_byte
            if inside and dotted and lookup_symbol(ctx, mod.rel, dotted) in http_owners:
                return True
    return False
