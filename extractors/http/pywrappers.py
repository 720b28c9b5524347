"""Python wrapper summaries followed to their callers (the JS side is `summaries.py`):
`def _get(self, path): return self.session.get(BASE + path)` called as `self._get('/x')` or
`client.fetch_order(order_id)` → the http_call sits at the concrete caller; the wrapper's
line is a hop. Callers are found the way `python.symbols` resolves CALLS_FN."""

from __future__ import annotations

from extractors.http.emit import HttpOut
from extractors.http.summaries import Wrapper, path_param, substitute
from extractors.http.urls import enclosing_function, parameter_names
from extractors.python.index import py_captures
from extractors.python.symbols import call_args, text
from extractors.source import SourceFile


def python_wrapper_calls(out: HttpOut, wrappers: dict[str, Wrapper]) -> None:
    if not wrappers:
        return
    ctx = out.ctx
    resolver = ctx.shared.py.resolver
    sites = []
    for rel, mod in sorted(ctx.shared.py.modules.items()):
        for node in py_captures(ctx, mod.sf, "calls", "fn"):
            if node.type not in {"identifier", "attribute"}:
                continue
            dotted = text(mod.sf, node)
            caller = mod.enclosing(node.start_byte)
            if dotted.startswith("self.") and "#" in caller:
                cls = caller.split("#", 1)[1].split(".")[0]
                callee = mod.symbols.get(f"{cls}.{dotted[5:]}")
            elif "(" in dotted or "[" in dotted or resolver is None:
                continue
            else:
                callee = resolver.symbol(rel, dotted)
            if callee is not None and callee != caller:
                sites.append((mod.sf, node.parent, caller, callee))
    done: set[int] = set()
    for _ in range(4):  # wrappers of wrappers
        before = len(wrappers)
        for sf, call, caller, callee in sites:
            w = wrappers.get(callee)
            if w is None or call.start_byte in done:
                continue
            done.add(call.start_byte)
            url = substitute(out.eval, sf, w, ordered_args(sf, call, w.params), out.eval.py)
            line = SourceFile.line(call)
            if url is not None:
                fn = enclosing_function(call)
                names = parameter_names(sf, fn)
                names = names[1:] if names[:1] in (["self"], ["cls"]) else names
                inner = path_param(url, names)
                if inner is not None and ":symbol:" in caller and caller not in wrappers:
                    wrappers[caller] = Wrapper(
                        names, inner, w.method, url, w.base, w.client, w.via,
                        [f"{sf.rel}:{line}", *w.hops], sf.rel, line, text(sf, call),
                    )  # fmt: skip
                    continue
            if url is None or url.starts_with_param:
                name = callee.rsplit("#", 1)[-1]
                out.dynamic(sf.rel, line, text(sf, call), f"path argument of {name} not known")
                continue
            out.emit(
                sf, call, w.method, url, w.base, w.client, "wrapper",
                wrapper=callee, owner=caller, hops=list(w.hops),
            )  # fmt: skip
        if len(wrappers) == before:
            break
    used = {callee for _, _, _, callee in sites}
    for symbol, w in sorted(wrappers.items()):
        if symbol not in used:
            name = symbol.rsplit("#", 1)[-1]
            out.dynamic(w.rel, w.line, w.expr, f"parameter of {name}, which nothing calls")


def ordered_args(sf: SourceFile, call, params: list[str]) -> list:
    """The call's arguments in the wrapper's parameter order (positional, then keyword)."""
    positional, named = call_args(sf, call)
    return [positional[i] if i < len(positional) else named.get(p) for i, p in enumerate(params)]
