"""Wrapper summaries: a function that ends in an HTTP call is "method + URL template over its
parameters"; each caller substitutes its arguments, to a fixed point (wrappers of wrappers).

A function is a wrapper when one of its parameters is the *start of the path* — the URL is
`param`, `base + param` or `base/param` with `base` one named value (a constant, an env var,
a client's baseURL) — or a parameter named like a path (`path`, `url`, `endpoint`...) ends
it after a `/` (a wrapper adding a prefix). A parameter that fills a segment
(`/articles/${slug}`) is a value: the call is concrete there and stays a call site. At a wrapper's caller the path parameter
takes the argument's URL; value parameters take a literal argument or keep their name.
The http_call sits at the first concrete caller; every wrapper line in between is a hop
(`hops` attr, outermost first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node as TsNode

from extractors.http.urls import Url, enclosing_function, parameter_names
from extractors.js.common import arguments, modules, text
from extractors.source import SourceFile

_PATHLIKE = re.compile(r"(url|uri|path|endpoint|route|resource|tail)$", re.I)


@dataclass
class Wrapper:
    params: list[str]  # the function's parameter names, by position
    path_param: str  # the parameter that starts the path
    method: str
    url: Url  # the wrapper's own URL over `params` (no client base)
    base: Url | None  # the client's base, joined at the call site
    client: str
    via: str
    hops: list[str] = field(default_factory=list)  # "rel:line", outermost first
    rel: str = ""
    line: int = 0
    expr: str = ""
    extra: dict = field(default_factory=dict)  # attrs every call site carries


def site_line(call: TsNode) -> int:
    """The line a reader sees the call on: a chained `.post(` line, not the receiver's."""
    fn = call.child_by_field_name("function")
    if fn is not None and fn.type == "member_expression":
        prop = fn.child_by_field_name("property")
        if prop is not None:
            return prop.start_point[0] + 1
    return call.start_point[0] + 1


def path_param(url: Url, names: list[str]) -> str | None:
    """The parameter (of `names`) that starts the URL's path after its named base, or one
    named like a path that ends it after a `/` (`readApi(`v1/${path}`)` adds a prefix)."""
    for i, (kind, value) in enumerate(url.parts):
        if i < url.base_end:
            continue
        if kind == "lit":
            if value.strip("/"):
                break
            continue
        return value if kind == "param" and value in names else None
    if len(url.parts) > 1 and url.parts[-2][0] == "lit" and url.parts[-2][1].endswith("/"):
        kind, value = url.parts[-1]
        if kind == "param" and value in names and _PATHLIKE.search(value):
            return value
    return None


def substitute(ev, sf: SourceFile, w: Wrapper, args: list, evaluate=None) -> Url | None:
    """The wrapper's URL with this call's arguments (JS, or Python with `evaluate=ev.py`);
    None when the path argument is unknown."""
    evaluate = evaluate or ev.js
    out = Url(via=set(w.url.via))
    out.base_end, out.base_name, out.origin = w.url.base_end, w.url.base_name, w.url.origin
    for kind, value in w.url.parts:
        if kind != "param" or value not in w.params:
            out.parts.append((kind, value))
            continue
        i = w.params.index(value)
        arg = args[i] if i < len(args) else None
        url = evaluate(sf, arg) if arg is not None else None
        if value == w.path_param:
            if url is None:
                return None
            if out.parts and out.parts[-1][0] == "lit" and url.parts and url.parts[0][0] == "lit":
                left, right = out.parts[-1][1], url.parts[0][1]
                if left.endswith("/") and right.startswith("/"):
                    url.parts[0] = ("lit", right[1:])
            if not out.parts:
                out.base_end, out.base_name, out.origin = url.base_end, url.base_name, url.origin
            out.parts += url.parts
            out.via |= url.via
        elif url is not None and url.parts and all(k == "lit" for k, _ in url.parts):
            out.parts += url.parts
        else:
            out.parts.append(("param", value))
    return out


def wrapper_calls(calls) -> None:
    """Each call of a wrapper: a new wrapper (its caller passes its own path parameter on), an
    http_call at the caller's line, or an `unresolved` row when the argument is unknown."""
    sites = calls.ctx.shared.js.calls
    for _ in range(4):  # wrappers of wrappers
        before = len(calls.wrappers)
        for site in sites:
            w = calls.wrappers.get(site.callee)
            if w is None or (site.caller, site.node.start_byte) in calls.taken_sites:
                continue
            sf = modules(calls.ctx)[site.rel].sf
            args = arguments(site.node)
            url = substitute(calls.eval, sf, w, args)
            line = site_line(site.node)
            here = f"{site.rel}:{line}"
            if url is not None:
                names = parameter_names(sf, enclosing_function(site.node))
                inner = path_param(url, names)
                if inner is not None and ":symbol:" in site.caller:
                    if site.caller not in calls.wrappers:
                        i = w.params.index(w.path_param)
                        arg = args[i] if i < len(args) else None
                        calls.wrappers[site.caller] = Wrapper(
                            names, inner, w.method, url, w.base, w.client, w.via,
                            [here, *w.hops], site.rel, line,
                            text(sf, arg) if arg is not None else "", dict(w.extra),
                        )  # fmt: skip
                    calls.taken_sites.add((site.caller, site.node.start_byte))
                    continue
            calls.taken_sites.add((site.caller, site.node.start_byte))
            if url is None or url.starts_with_param:
                i = w.params.index(w.path_param)
                node = args[i] if i < len(args) else None
                expr = text(sf, node) if node is not None else "(no argument)"
                callee = site.callee.rsplit("#", 1)[-1]
                calls.out.dynamic(site.rel, line, expr, f"argument {expr} of {callee}")
                continue
            calls.out.emit(
                sf, site.node, w.method, url, w.base, w.client, "wrapper",
                wrapper=site.callee, owner=site.caller, hops=list(w.hops), **w.extra,
            )  # fmt: skip
        if len(calls.wrappers) == before:
            break
    used = {site.callee for site in sites} | calls.used
    for symbol, w in sorted(calls.wrappers.items()):
        if symbol not in used and not w.extra.get("generated_client"):
            calls.out.dynamic(
                w.rel,
                w.line,
                w.expr,
                f"parameter of {symbol.rsplit('#', 1)[-1]}, which nothing in the component calls",
            )
