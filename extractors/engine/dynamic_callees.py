"""Calls whose callee is chosen at run time among functions that make HTTP requests:
`const pick = signedIn ? api.a.recent : api.a.one; pick()`, or a function looked up by a
run-time key (`const entry = loaders[item.kind]; entry.load(vars)`). Each branch's requests
are call sites of their own (where the branch calls the API); this call gets an
`unresolved` row naming the branches and what decides, so a trace from here says which
requests it may make instead of saying nothing."""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.engine.evaluate import Evaluator
from extractors.engine.events import RequestEvent
from extractors.engine.passed_functions import passed_functions
from extractors.engine.recognize import Found
from extractors.engine.values import Choice, Func, ObjLit, Site
from extractors.lang.expr import ECond, EIndex, EMember, EName, EObject

MAX_NAMES = 6
MAX_DEPTH = 3  # call levels followed to see whether a branch requests


def requesting_functions(ev: Evaluator, found: list[Found]) -> set[tuple[str, int, int]]:
    """(file, start, end) of every function a request is made from, directly or through
    the wrappers it calls."""
    out: set[tuple[str, int, int]] = set()
    for item in found:
        if not isinstance(item.event, RequestEvent):
            continue
        for site in (item.event.site, *item.chain):
            a = ev.program.adapter(site.rel)
            node = a.node_at(site) if a is not None else None
            fn = a.function_at(node) if node is not None else None
            while fn is not None:
                out.add((site.rel, fn.start_byte, fn.end_byte))
                fn = a.function_at(fn)
    return out


def chosen_callees(
    ev: Evaluator, requesting: set[tuple[str, int, int]], callers: set[tuple[str, int]]
) -> list[tuple[str, int, str, str]]:
    """(file, line, callee as written, reason) for each call of a run-time choice among
    functions that request (`requesting`, grown as more are found to, or `callers`: the
    file:line of functions that reach a request through the call graph)."""
    rows = []
    for rel in ev.program.rels():
        a = ev.program.adapter(rel)
        for call in a.calls() if a is not None else ():
            view = a.call_view(call)
            source = _choice_source(a, view.callee) if view is not None else None
            if source is None:
                continue
            value = ev.eval(rel, view.callee, None)
            funcs = (
                [o for o in value.options if isinstance(o, Func)]
                if isinstance(value, Choice)
                else []
            )
            if len(funcs) < 2 or not any(
                (f.site.rel, f.site.line) in callers or requests_through(ev, f, requesting, 0)
                for f in funcs
            ):
                continue
            written = " ".join(a.text(view.callee).split())[:80]
            rows.append((rel, call.start_point[0] + 1, written, _reason(ev, rel, a, source)))
    return rows


def chosen_at(ev: Evaluator, site: Site, inner: Site) -> Site | None:
    """Where the branch is written when the call at `site` calls a callee chosen at run
    time (a conditional or a keyed lookup) and `inner` is a line of the function called:
    each request reached through it is one candidate, at the line that names its branch
    (`const pick = cond ? api.a : api.b` — the call `pick()` gets the `unresolved` row)."""
    a = ev.program.adapter(site.rel)
    node = a.node_at(site) if a is not None else None
    view = a.call_view(node) if node is not None else None
    source = _choice_source(a, view.callee) if view is not None else None
    if source is None:
        return None
    cond = a.view(source)
    for branch in (cond.then, cond.other) if isinstance(cond, ECond) else ():
        value = ev.eval(site.rel, branch, None)
        for fn in value.options if isinstance(value, Choice) else (value,):
            s = fn.site if isinstance(fn, Func) else None
            if s is not None and s.rel == inner.rel and s.start <= inner.start < s.end:
                return a.site(branch)
    return a.site(source)


def _key(site: Site) -> tuple[str, int, int]:
    return (site.rel, site.start, site.end)


def requests_through(ev: Evaluator, fn: Func, requesting: set, depth: int) -> bool:
    """The function requests, or calls (a few levels deep) a function that does."""
    key = _key(fn.site)
    if key in requesting:
        return True
    a = ev.program.adapter(fn.site.rel)
    if a is None or depth >= MAX_DEPTH:
        return False
    for call in a.calls():
        if not (fn.site.start <= call.start_byte < fn.site.end):
            continue
        view = a.call_view(call)
        callee = ev.eval(fn.site.rel, view.callee, None) if view is not None else None
        if (
            isinstance(callee, Func)
            and _key(callee.site) != key
            and requests_through(ev, callee, requesting, depth + 1)
        ):
            requesting.add(key)
            return True
    return False


def _choice_source(a, callee: TsNode) -> TsNode | None:
    """The conditional or the keyed lookup the callee comes from (itself, its receiver, or
    the initializer of the name it is read through), if any."""
    node = callee
    for _ in range(4):
        view = a.view(a.unwrap(node))
        if isinstance(view, ECond) or (isinstance(view, EIndex) and not _literal(a, view.index)):
            return a.unwrap(node)
        if isinstance(view, EMember):
            node = view.obj
            continue
        if isinstance(view, EName):
            binding = a.resolve(view.name, node)
            if binding is None or binding.value is None or binding.path:
                return None
            node = binding.value
            continue
        return None
    return None


def _literal(a, node: TsNode) -> bool:
    return a.view(a.unwrap(node)).__class__.__name__ in ("EStr", "EConst")


def _reason(ev: Evaluator, rel: str, a, source: TsNode) -> str:
    view = a.view(source)
    if isinstance(view, ECond):
        names = [" ".join(a.text(n).split())[:60] for n in (view.then, view.other)]
        test = " ".join(a.text(view.test).split())[:80]
        return f"callee chosen at run time by `{test}`: {' or '.join(names)}"
    table = " ".join(a.text(view.obj).split())[:60]
    key = " ".join(a.text(view.index).split())[:60]
    names = _members(ev, rel, view.obj)
    listed = f": {', '.join(names)}" if names else ""
    return f"callee picked at run time from {table} by `{key}`{listed}"


def _members(ev: Evaluator, rel: str, obj: TsNode) -> list[str]:
    """The values of the object literal a keyed lookup reads, as written there."""
    table = ev.eval(rel, obj, None)
    if not isinstance(table, ObjLit):
        return []
    b = ev.program.adapter(table.site.rel)
    node = b.node_at(table.site) if b is not None else None
    view = b.view(node) if node is not None else None
    if not isinstance(view, EObject):
        return []
    return [" ".join(b.text(e.value).split())[:40] for e in view.entries[:MAX_NAMES] if e.key]


def run_time_callees(ctx, ev: Evaluator, found: list[Found]) -> list[tuple[str, int, str, str]]:
    """Rows for calls whose callee is decided at run time among functions that request: a
    choice or keyed lookup written at the call, or a request function passed by name and
    called as an unknown (`props.pager(page)`, engine/passed_functions.py)."""
    reaching = _reaching(ctx)
    requesting = requesting_functions(ev, found)
    rows = chosen_callees(ev, requesting, reaching)
    names = {n.name.rsplit(".", 1)[-1] for n in ctx.facts.nodes
             if n.kind == "symbol" and (n.file, n.line) in reaching}  # fmt: skip
    for rel, start, end in requesting:
        a = ev.program.adapter(rel)
        node = a.node_at(Site(rel, 0, 0, 0, start, end)) if a is not None else None
        if node is not None and a.is_function(node):
            names.add(a.function(node).name)

    def requests(fn: Func) -> bool:
        return (fn.site.rel, fn.site.line) in reaching or requests_through(ev, fn, requesting, 0)

    return rows + passed_functions(ev, requests, names - {""})


def _reaching(ctx) -> set[tuple[str, int]]:
    """file:line of every symbol that makes an HTTP call or calls one that does."""
    facts = ctx.facts
    reach = {e.src for e in facts.edges if e.type == "CALLS_HTTP"}
    callers: dict[str, set[str]] = {}
    for e in facts.edges:
        if e.type == "CALLS_FN":
            callers.setdefault(e.dst, set()).add(e.src)
    todo = list(reach)
    while todo:
        for src in callers.get(todo.pop(), ()):
            if src not in reach:
                reach.add(src)
                todo.append(src)
    return {(n.file, n.line) for n in facts.nodes if n.id in reach and n.file and n.line}
