"""Small graph facts every answer is built from: usage lines, chains, readers, tests.

A fact is shown where it happens: an edge's own `file`/`line` (the usage line —
where this route gets its middleware, where code reads an env var, where a call
site sits), prefixed by `project/component`; a node's definition line only when the
edge carries none. Edge attrs are read through `eattrs` alone, so the place that
parses the warehouse's `attrs` cells stays one.
"""

from __future__ import annotations

import re
from typing import Any

from mcp_server.graph import ProjectGraph
from mcp_server.render import confidence_words, short, span, where
from warehouse.reader import parse_attrs

_TEST_DIR = re.compile(r"(^|/)(tests?|__tests__|spec|specs|e2e|cypress|__mocks__)(/|$)", re.I)
_TEST_FILE = re.compile(
    r"(\.(test|spec|e2e)\.[a-z0-9]+$)|(^|/)(test_[^/]*\.py|[^/]*_test\.(py|go)|conftest\.py)$",
    re.I,
)


def eattrs(data: dict[str, Any]) -> dict[str, Any]:
    """An edge's attrs as a dict (the one place edge attrs are parsed)."""
    return parse_attrs(data.get("attrs"))


def is_test(path: str | None) -> bool:
    """A test, spec or fixture file (kept apart from production readers)."""
    return bool(path) and bool(_TEST_DIR.search(path or "") or _TEST_FILE.search(path or ""))


def outs(pg: ProjectGraph, node: str, *types: str) -> list[tuple[str, dict]]:
    return [(v, d) for _, v, d in pg.g.out_edges(node, data=True) if d.get("type") in types]


def ins(pg: ProjectGraph, node: str, *types: str) -> list[tuple[str, dict]]:
    return [(u, d) for u, _, d in pg.g.in_edges(node, data=True) if d.get("type") in types]


def comp_of(pg: ProjectGraph, node: str) -> str | None:
    return pg.node(node).get("component")


def at(pg: ProjectGraph, node: str, data: dict | None = None) -> str:
    """`project/component path:line` of an edge's usage line, else of the node."""
    if data and data.get("file") and data.get("line"):
        comp = data.get("component") or comp_of(pg, node)
        prefix = f"{pg.project}/{comp} " if comp else ""
        return f"{prefix}{data['file']}:{data['line']}"
    return where(pg, node)


def name(pg: ProjectGraph, node: str, limit: int = 80) -> str:
    return short(pg.node(node).get("name") or node, limit)


def order_of(data: dict) -> int:
    order = eattrs(data).get("order")
    return order if isinstance(order, int) else 999


def chain(pg: ProjectGraph, route: str) -> list[tuple[str, dict]]:
    """The route's middleware in order (app-level first), with each usage edge."""
    mids = outs(pg, route, "USES_MIDDLEWARE")
    return sorted(mids, key=lambda m: (order_of(m[1]), m[1].get("line") or 0, m[0]))


def mw_text(pg: ProjectGraph, mid: str, data: dict, i: int) -> str:
    """`[order] name (usage line; defined elsewhere)` — the usage line first."""
    used = at(pg, mid, data)
    sym = middleware_symbol(pg, mid)
    node = pg.node(sym) if sym else pg.node(mid)
    defined = span(node)
    extra = f"; defined {defined}" if defined and not used.endswith(" " + defined) else ""
    a = eattrs(data)
    # the usage as written (`auth('manageUsers')`, `validate(authValidation.login)`)
    expr = a.get("expr") or a.get("call") or a.get("text")
    label = short(expr, 60) if isinstance(expr, str) and expr else name(pg, mid, 50)
    return f"[{a.get('order', i)}] {label} ({used}{extra})"


def handlers(pg: ProjectGraph, route: str) -> list[str]:
    return [v for v, _ in outs(pg, route, "ROUTES_TO")]


def middleware_symbol(pg: ProjectGraph, mid: str) -> str | None:
    """The symbol that implements a middleware node: the extractor's link, else the one
    production symbol of the same name in the component (call expressions stripped)."""
    sym = pg.attrs(mid).get("symbol")
    if isinstance(sym, str) and sym in pg.g:
        return sym
    data = pg.node(mid)
    bare = str(data.get("name") or "").split("(")[0].strip().lower()
    if not bare:
        return None
    same = [
        n
        for n in pg.by_name.get(bare, [])
        if pg.node(n).get("kind") == "symbol"
        and pg.node(n).get("component") == data.get("component")
        and not is_test(pg.node(n).get("file"))
    ]
    return same[0] if len(same) == 1 else None


def middleware_of_symbol(pg: ProjectGraph) -> dict[str, list[str]]:
    """symbol id → middleware nodes it implements (cached on the graph)."""
    cached = getattr(pg, "_mw_by_symbol", None)
    if cached is None:
        cached = {}
        for n, _ in pg.of_kind("middleware"):
            sym = middleware_symbol(pg, n)
            if sym:
                cached.setdefault(sym, []).append(n)
        pg._mw_by_symbol = cached  # type: ignore[attr-defined]
    return cached


def callers_http(pg: ProjectGraph, route: str) -> list[tuple[str, dict]]:
    """http_call nodes bridged to this route (CALLS), each with the edge."""
    return sorted(ins(pg, route, "CALLS"), key=lambda x: (comp_of(pg, x[0]) or "", x[0]))


def call_site_owner(pg: ProjectGraph, call: str) -> str | None:
    owners = [u for u, _ in ins(pg, call, "CALLS_HTTP")]
    return owners[0] if owners else None


def call_site_text(pg: ProjectGraph, call: str, limit: int = 80, owner_limit: int = 50) -> str:
    """`<http_call> at <file:line> in <the function that makes it>` — one call site's line."""
    owner = call_site_owner(pg, call)
    who = f" in {name(pg, owner, owner_limit)}" if owner else ""
    return f"{name(pg, call, limit)} at {where(pg, call)}{who}"


def via_text(data: dict) -> str:
    a = eattrs(data)
    bits = []
    if a.get("via"):
        bits.append(f"via {a['via']}")
    envs = a.get("envs")
    if envs:
        bits.append("envs " + ("+".join(map(str, envs)) if isinstance(envs, list) else str(envs)))
    said = confidence_words(a)
    if said:
        bits.append(said)
    return f" ({', '.join(bits)})" if bits else ""


def route_of_call(pg: ProjectGraph, call: str) -> list[tuple[str, dict]]:
    return outs(pg, call, "CALLS")


def env_read_sites(
    pg: ProjectGraph, env: str, skip: set[str] | None = None
) -> tuple[list[str], list[str]]:
    """(production read sites, test read sites) of an env_var node, each `who at path:line`."""
    prod, test, seen = [], [], set()
    for u, d in sorted(
        ins(pg, env, "READS_ENV"), key=lambda x: (x[1].get("file") or "", x[1].get("line") or 0)
    ):
        if skip and u in skip:
            continue
        loc = at(pg, u, d)
        if loc in seen:  # one read site, seen from the file and from its function
            continue
        seen.add(loc)
        line = f"{loc} ({name(pg, u, 50)})"
        (test if is_test(d.get("file") or pg.node(u).get("file")) else prod).append(line)
    return prod, test


def secrets_of_env(pg: ProjectGraph, env: str) -> list[str]:
    return [v for v, _ in outs(pg, env, "RESOLVES_TO")]


def declarations(pg: ProjectGraph, env: str) -> list[str]:
    """Each place that declares the env var, `file:line` (+ service/via), from its DECLARES edges."""
    rows: dict[str, str] = {}
    for _, d in sorted(
        ins(pg, env, "DECLARES"), key=lambda x: (x[1].get("file") or "", x[1].get("line") or 0)
    ):
        if not d.get("file"):
            continue
        loc = f"{d['file']}:{d['line']}" if d.get("line") else str(d["file"])
        a = eattrs(d)
        how = [f"{k} {short(a[k], 30)}" for k in ("service", "via") if a.get(k)]
        rows.setdefault(loc, loc + (f" ({', '.join(how)})" if how else ""))
    return list(rows.values())


def declared_text(pg: ProjectGraph, env: str) -> str:
    a = pg.attrs(env)
    decls = declarations(pg, env)
    files = a.get("declared_in") or []
    files = files if isinstance(files, list) else [files]
    listed = [str(f) for f in files if not any(x.startswith(f"{f}:") for x in decls)]
    d = pg.node(env)
    own = f"{d.get('file')}:{d.get('line')}"
    at_own = d.get("file") in files or any(x.split(" ")[0] == own for x in decls)
    loc = where(pg, env) if at_own else ""  # the node's own line is a declaration
    decls = [x for x in decls if x.split(" ")[0] != own] if at_own else decls
    listed = [f for f in listed if f != d.get("file")] if at_own else listed
    shown = ", ".join(decls + listed)
    bits = [b for b in (loc, shown and f"declared in {shown}") if b]
    values = a.get("values")
    if isinstance(values, dict) and values:
        shown = "; ".join(f"{k}={short(v, 50)}" for k, v in list(values.items())[:3])
        bits.append(f"values {shown}")
    return "; ".join(bits) or "not declared in a .env/compose/settings file"


def secret_payload(pg: ProjectGraph, secret: str) -> list[tuple[str, list[tuple[str, dict]]]]:
    """The Terraform secret resources standing for a catalog secret (the same secret id, or
    resolved from the same env var), each with the env vars its payload carries (line order)."""
    label = str(pg.node(secret).get("name") or "")
    tf = {
        v
        for e, _ in ins(pg, secret, "RESOLVES_TO")
        for v, _ in outs(pg, e, "RESOLVES_TO")
        if pg.node(v).get("kind") == "tf_resource"
    } | {
        n
        for n, d in pg.of_kind("tf_resource")
        if label
        and (pg.attrs(n).get("secret_id") == label or str(d.get("name")).lower() == label.lower())
    }
    out = []
    for t in sorted(tf):
        carried = [
            (e, d) for e, d in ins(pg, t, "RESOLVES_TO") if eattrs(d).get("via") == "secret payload"
        ]
        if carried:
            out.append((t, sorted(carried, key=lambda x: x[1].get("line") or 0)))
    return out
