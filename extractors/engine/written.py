"""Where the value a model's selector took is written: the argument node of `arg0`, the
member node of `arg0.url` inside an object literal argument, the keyword of `kw.base_url`,
and for `prop.baseURL` the node it was read from at the call that made the object
(`axios.create({ baseURL: BASE })`). A request's URL and base keep this so the emitter can
name the constant they start with (extractors/engine/bases.py)."""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.engine.evaluate import Evaluator
from extractors.engine.values import Obj, Site
from extractors.lang.expr import EObject
from extractors.models.selectors import Selector, Term

MAX_HOPS = 3


def written_site(ev: Evaluator, rel: str, call: TsNode, selector: Selector | None,
                 obj: Obj | None, present=None) -> Site | None:  # fmt: skip
    """The site of the first term of `selector` that is written at `call` (and, when
    `present(term)` is given, that took a value there)."""
    a = ev.program.adapter(rel)
    view = a.call_view(call) if a is not None else None
    if selector is None or view is None:
        return None
    for term in selector.terms:
        if present is not None and not present(term):
            continue
        found = _term_node(ev, rel, view, term, obj, 0)
        if found is not None:
            where, node = found
            return ev.program.adapter(where).site(node)
    return None


def _term_node(
    ev: Evaluator, rel: str, view, term: Term, obj: Obj | None, hops: int
) -> tuple[str, TsNode] | None:
    a = ev.program.adapter(rel)
    node = None
    if term.kind == "arg" and int(term.key) < len(view.args):
        node = view.args[int(term.key)]
    elif term.kind == "kw":
        node = view.kwargs.get(term.key)
    elif term.kind == "prop" and obj is not None and hops < MAX_HOPS:
        return _prop_node(ev, obj, term, hops)
    for key in term.path if node is not None else ():
        shape = a.view(a.unwrap(node))
        entry = (
            next((e for e in shape.entries if e.key == key), None)
            if isinstance(shape, EObject)
            else None
        )
        node = entry.value if entry is not None else None
        if node is None:
            return None
    return (rel, node) if node is not None else None


def _prop_node(ev: Evaluator, obj: Obj, term: Term, hops: int) -> tuple[str, TsNode] | None:
    """`prop.baseURL`: the node the object's maker (or the operation that returned it) read
    the property from, at the call that made the object."""
    origin = obj.origin
    a = ev.program.adapter(origin.rel)
    call = a.node_at(origin) if a is not None else None
    view = a.call_view(call) if call is not None else None
    model = ev.library.by_id.get(obj.model)
    if view is None or model is None:
        return None
    selectors = [m.props[term.key] for m in model.objects.get(obj.role, ()) if term.key in m.props]
    selectors += [op.returns_props[term.key] for op in model.operations
                  if op.returns == obj.role and term.key in op.returns_props]  # fmt: skip
    for selector in selectors:
        for inner in selector.terms:
            found = _term_node(ev, origin.rel, view, inner, None, hops + 1)
            if found is not None:
                return found
    return None
