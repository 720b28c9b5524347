"""The methods a handler answers when it tests its request's method itself — `if
(req.method !== 'POST') return res.status(405)`, `switch (req.method) { case 'GET': … }`,
`req.method === 'DELETE'` — for routes a framework serves on every method (a Next.js
pages API route, a file route without a method suffix). Read from the handler's own text:
the methods tested, and where the test is written."""

from __future__ import annotations

import re

from extractors.engine.values import Func

_VERB = r"['\"](GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)['\"]"
_NOT = re.compile(r"\.method\s*!==?\s*" + _VERB + r"|" + _VERB + r"\s*!==?\s*[\w.]+\.method")
_IS = re.compile(r"\.method\s*===?\s*" + _VERB + r"|" + _VERB + r"\s*===?\s*[\w.]+\.method")
_CASE = re.compile(r"case\s+" + _VERB + r"\s*:")


def tested_methods(program, fn: Func) -> tuple[list[str], dict[str, str]]:
    """(methods, attrs): `if (x.method !== 'POST')` -> [POST]; `switch (x.method)` cases or
    `x.method === 'GET'` branches -> those; else [] (every method). The attrs name the test
    as written (`method_guard`) and where (`method_guard_at`)."""
    a = program.adapter(fn.site.rel)
    node = a.node_at(fn.site) if a is not None else None
    if node is None:
        return [], {}
    body = a.text(node)
    guards = list(_NOT.finditer(body))
    only = {m.group(1) or m.group(2) for m in guards}
    if len(only) == 1:
        return sorted(only), _where(fn, body, guards[0])
    found = list(_IS.finditer(body))
    found += list(_CASE.finditer(body)) if "switch" in body else []
    named = {m.group(1) or m.group(2) for m in found}
    if not named:
        return [], {}
    return sorted(named), _where(fn, body, min(found, key=lambda m: m.start()))


def _where(fn: Func, body: str, found) -> dict[str, str]:
    offset = body.count("\n", 0, found.start())
    written = " ".join(body.splitlines()[offset].split())
    return {
        "method_guard": written[:120],
        "method_guard_at": f"{fn.site.rel}:{fn.site.line + offset}",
    }
