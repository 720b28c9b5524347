"""The order request transforms run in, as a `setting`: one per registration call
(`withInterceptors([a, b])`) and one per file of provider literals registering them
(`{ provide: HTTP_INTERCEPTORS, useClass: X }` in source order) — the order every request
passes through them, which a person asks about when one rewrites what another reads."""

from __future__ import annotations

from extractors.base import ComponentContext
from extractors.engine.events import TransformEvent
from extractors.engine.values import Func, Instance, Klass, Site, Value
from extractors.js.common import owner_at
from extractors.lang.expr import EObject


def transform_order(ctx: ComponentContext, ev, transforms: list[TransformEvent]) -> None:
    groups: dict[tuple[str, int], tuple[str, Site, list[Value]]] = {}
    for t in transforms:
        if t.fn is None:
            continue  # a configuring call (`setConfig`): no function runs
        a = ev.program.adapter(t.site.rel)
        node = a.node_at(t.site) if a is not None else None
        if a is None or node is None:
            continue
        view = a.call_view(node)
        if view is not None:  # a registration call: its own list, in order
            key, name = (t.site.rel, t.site.start), a.terminal(view.callee) or ""
        else:  # a provider literal: the file's providers of that token, in source order
            key, name = (t.site.rel, -1), _token(a, node)
        if key not in groups:
            groups[key] = (name, t.site, [])
        entry = groups[key]
        if t.site.start < entry[1].start:
            groups[key] = (entry[0], t.site, entry[2])
        groups[key][2].append((t.site.start, t.fn))
    for name, site, fns in groups.values():
        fns.sort(key=lambda p: p[0])
        names = [_name(f) for _, f in fns]
        symbols = [s for s in (_symbol(ctx, ev, f) for _, f in fns) if s]
        node_id = ctx.add_node("setting", f"{site.rel}:{site.line}:{name}", name, site.rel,
                               site.line, value=", ".join(names),
                               about="request interceptors in order", interceptors=symbols)  # fmt: skip
        file_id = ctx.node_id("code_file", site.rel)
        ctx.add_edge(file_id, node_id, "DECLARES", site.rel, site.line)
        a = ev.program.adapter(site.rel)
        at = a.node_at(site) if a is not None else None
        owner = owner_at(ctx, site.rel, at) if at is not None else file_id
        if owner != file_id:
            ctx.add_edge(owner, node_id, "DECLARES", site.rel, site.line)


def _token(a, node) -> str:
    view = a.view(node)
    if isinstance(view, EObject):
        for entry in view.entries:
            if entry.key == "provide":
                return " ".join(a.text(entry.value).split())
    return "providers"


def _name(fn: Value) -> str:
    if isinstance(fn, Instance):
        fn = fn.klass
    if isinstance(fn, (Func, Klass)):
        return fn.name or "?"
    return "?"


def _symbol(ctx: ComponentContext, ev, fn: Value) -> str | None:
    """The symbol a transform is defined as (its function's or class's own symbol)."""
    if isinstance(fn, Instance):
        fn = fn.klass
    if not isinstance(fn, (Func, Klass)):
        return None
    a = ev.program.adapter(fn.site.rel)
    node = a.node_at(fn.site) if a is not None else None
    owner = owner_at(ctx, fn.site.rel, node) if node is not None else None
    return owner if owner is not None and ":symbol:" in owner else None
