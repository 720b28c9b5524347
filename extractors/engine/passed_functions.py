"""A request function handed around by name and called later: `props.pager(page)`, where
elsewhere a function that makes requests is passed as the `pager` argument
(`onTabClick('feed', api.Articles.feed)` with `onTabClick: (tab, pager) => …`).

Which function runs is decided at run time (store state, props), so the call gets an
`unresolved` row naming the functions seen passed under that name and where — never an
http_call or an edge. The parameter a reference is passed as is read off the function
called (evaluated), else off a function of the callee's name written in the same file (a
handler reached through props: `mapDispatchToProps`' `onTabClick: (tab, pager) => …`)."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node as TsNode

from extractors.engine.evaluate import Evaluator
from extractors.engine.values import Func, Param, Unknown
from extractors.lang.expr import EMember, EName

MAX_SHOWN = 4
REFERENCES = ("member_expression", "identifier", "attribute")


def passed_functions(
    ev: Evaluator, requests: Callable[[Func], bool], names: set[str]
) -> list[tuple[str, int, str, str]]:
    """(file, line, call as written, reason) for each call of an unknown function whose
    name is a parameter some request function (`requests(func)`) is passed as. `names`:
    the names of functions that request (a cheap filter on the references looked at)."""
    passed: dict[str, list[str]] = {}
    unknown_calls: list[tuple[str, TsNode, str]] = []
    for rel in ev.program.rels():
        a = ev.program.adapter(rel)
        if a is None or a.family != "js":
            continue
        for call in a.calls():
            view = a.call_view(call)
            if view is None:
                continue
            name = a.terminal(view.callee)
            if name:
                unknown_calls.append((rel, call, name))
            refs = [
                (i, arg) for i, arg in enumerate(view.args)
                if arg.type in REFERENCES and a.terminal(arg) in names
            ]  # fmt: skip
            if not refs:
                continue
            params: list[str] | None = None
            for i, arg in refs:
                value = ev.eval(rel, arg, None)
                if not (isinstance(value, Func) and requests(value)):
                    continue
                if params is None:
                    params = _params(ev, rel, a, view.callee)
                if i < len(params) and params[i]:
                    where = f"{' '.join(a.text(arg).split())} ({rel}:{arg.start_point[0] + 1})"
                    passed.setdefault(params[i], []).append(where)
    rows = []
    for rel, call, name in unknown_calls:
        if name not in passed:
            continue
        a = ev.program.adapter(rel)
        view = a.call_view(call)
        if not isinstance(a.view(view.callee), (EMember, EName)):
            continue
        if not isinstance(ev.eval(rel, view.callee, None), (Param, Unknown)):
            continue  # a function the engine knows: its own requests are followed
        seen = list(dict.fromkeys(passed[name]))
        shown = ", ".join(seen[:MAX_SHOWN])
        more = f" and {len(seen) - MAX_SHOWN} more" if len(seen) > MAX_SHOWN else ""
        written = " ".join(a.text(call).split())[:120]
        rows.append((rel, call.start_point[0] + 1, written,
                     f"calls the function passed as `{name}`, chosen at run time: {shown}{more}"))  # fmt: skip
    return rows


def _params(ev: Evaluator, rel: str, a, callee: TsNode) -> list[str]:
    """Parameter names of the function called: its value, else a function of that name
    written in the file (an object member or a declaration)."""
    value = ev.eval(rel, callee, None)
    if isinstance(value, Func):
        b = ev.program.adapter(value.site.rel)
        node = b.node_at(value.site) if b is not None else None
        if node is not None and b.is_function(node):
            return [p.name if not p.path else "" for p in b.function(node).params]
    name = a.terminal(callee)
    for node in a.functions_named(name) if name else ():
        return [p.name if not p.path else "" for p in a.function(node).params]
    return []
