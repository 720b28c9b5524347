"""The relationships a component or file view is built around, each as a Section.

- own routes: `METHOD path → handler`, the route-level middleware after `|`; the chain every
  route shares (app-level, global guards) printed once above the list; a route registered
  under several paths or twice for one handler is one line naming its aliases;
- outbound calls grouped by target component → route → handler, then external hosts and
  the call sites bridged to nothing (with why);
- inbound calls grouped by calling component → route → call site.

Every section has a full, a compact, a grouped and a one-line level (mcp_server.sections).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mcp_server.facts import chain, comp_of, handlers, is_test, name, via_text
from mcp_server.graph import ProjectGraph
from mcp_server.negatives import unbridged_reason
from mcp_server.provenance import route_tail
from mcp_server.render import short, where
from mcp_server.sections import Section, levels


def _loc(pg: ProjectGraph, node: str) -> str:
    """`path:line` without the `project/component` prefix (the section header names it)."""
    return where(pg, node).split(" ", 1)[-1]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass
class RouteRow:
    route: str
    aliases: list[str] = field(default_factory=list)
    mids: list[tuple[str, dict]] = field(default_factory=list)


def route_rows(pg: ProjectGraph, routes: list[str], common: set[str]) -> list[RouteRow]:
    """One row per route; routes of the same method and handler(s) are aliases of the first."""
    rows: list[RouteRow] = []
    by_key: dict[tuple, RouteRow] = {}
    for r in routes:
        hs = tuple(sorted(handlers(pg, r)))
        method = str(pg.node(r).get("name") or "").split(" ", 1)[0]
        key = (method, hs) if hs else (method, str(pg.node(r).get("name")), r)
        if key in by_key:
            by_key[key].aliases.append(r)
            continue
        mids = [(m, d) for m, d in chain(pg, r) if m not in common]
        row = RouteRow(r, [], mids)
        by_key[key] = row
        rows.append(row)
    return rows


def common_chain(pg: ProjectGraph, routes: list[str]) -> list[tuple[str, list[str]]]:
    """Middleware every route gets (app-level, a guard on every router), in chain order,
    each with the usage line(s) where the routes get it."""
    chained = [chain(pg, r) for r in routes]
    if len(routes) < 2 or not all(chained):
        return []
    common = set.intersection(*({m for m, _ in c} for c in chained))
    for r, c in zip(routes, chained, strict=True):  # applied on the route's own line: route-level
        own = (pg.node(r).get("file"), pg.node(r).get("line"))
        common -= {m for m, d in c if (d.get("file"), d.get("line")) == own}
    uses: dict[str, set[str]] = {}
    for c in chained:
        for m, d in c:
            if m in common:
                uses.setdefault(m, set()).add(
                    f"{d.get('file')}:{d.get('line')}" if d.get("file") else _loc(pg, m)
                )
    order = [m for m, _ in chained[0] if m in common]
    return [(m, sorted(uses[m])) for m in dict.fromkeys(order)]


def _mw_short(pg: ProjectGraph, mid: str, data: dict, i: int) -> str:
    """`[2] auth('manageUsers') (routes/user.ts:12)` — as written, at its usage line."""
    a = data.get("attrs") or {}
    expr = a.get("expr") or a.get("call") or a.get("text")
    label = short(expr, 50) if isinstance(expr, str) and expr else name(pg, mid, 40)
    at = f"{data.get('file')}:{data.get('line')}" if data.get("file") else _loc(pg, mid)
    return f"[{a.get('order', i)}] {label} ({at})"


def _alias_text(pg: ProjectGraph, row: RouteRow, full: bool) -> str:
    if not row.aliases:
        return ""
    head = str(pg.node(row.route).get("name") or "")
    shown = []
    for a in row.aliases:
        alias = str(pg.node(a).get("name") or "")
        label = alias.split(" ", 1)[-1] if alias != head else "registered again"
        shown.append(f"{label} ({_loc(pg, a)})" if full or alias == head else label)
    return " (also " + ", ".join(shown) + ")"


def routes_section(
    pg: ProjectGraph, where_label: str, routes: list[str], value: int, callees: bool = False
) -> Section | None:
    """The component's or file's own routes (see the module)."""
    if not routes:
        return None
    common = common_chain(pg, routes)
    rows = route_rows(pg, routes, {m for m, _ in common})
    twice = sum(
        pg.node(a).get("name") == pg.node(r.route).get("name") for r in rows for a in r.aliases
    )
    count = f"{len(routes) - twice}" + (f", +{twice} emitted twice" if twice else "")
    head = f"routes of {where_label} ({count}): METHOD path (declared) → handler | route-level middleware"
    shared = []
    if common:
        shown = " ".join(f"[{i}] {name(pg, m, 40)} ({', '.join(at[:4])}{' …' if len(at) > 4 else ''})"
                         for i, (m, at) in enumerate(common, 1))  # fmt: skip
        shared = [f"  every route first passes: {shown}"]
    full, compact, grouped = [head, *shared], [head, *shared], [head, *shared]
    by_file: dict[str, list[str]] = {}
    for row in rows:
        r = row.route
        hs = handlers(pg, r)
        text = f"{name(pg, r, 100)} ({_loc(pg, r)}){_alias_text(pg, row, True)}"
        if hs:
            text += " → " + ", ".join(f"{name(pg, h, 60)} ({_loc(pg, h)})" for h in hs)
        if row.mids:
            text += " | " + " ".join(
                _mw_short(pg, m, d, i) for i, (m, d) in enumerate(row.mids, len(common) + 1)
            )
        t = route_tail(pg, r)
        if t and callees:
            text += f" — {short(t, 120)}"
        full.append("  " + text)
        if callees:
            full += [f"    {line}" for line in _handler_calls(pg, hs)]
        small = f"{name(pg, r, 90)} ({_loc(pg, r)}){_alias_text(pg, row, False)}"
        if hs:
            small += " → " + ", ".join(name(pg, h, 40) for h in hs)
        if row.mids:
            small += " [" + ", ".join(name(pg, m, 30) for m, _ in row.mids) + "]"
        compact.append("  " + small)
        f = str(pg.node(r).get("file") or "")
        by_file.setdefault(f, []).append(f"{name(pg, r, 80)}:{pg.node(r).get('line')}")
    for f, items in by_file.items():
        grouped.append(f"  {f} ({len(items)}): " + ", ".join(items))
    files = ", ".join(f"{f} ({len(v)})" for f, v in list(by_file.items())[:6])
    more = f" +{len(by_file) - 6} files" if len(by_file) > 6 else ""
    summary = [
        f"routes of {where_label}: {len(routes)} in {_plural(len(by_file), 'file')} — {files}{more} "
        f"(kb_find kind=route project={pg.project} lists them)"
    ]
    return Section(
        "routes", levels(full=full, compact=compact, grouped=grouped, summary=summary), value
    )


def _handler_calls(pg: ProjectGraph, hs: list[str]) -> list[str]:
    """What each handler calls, one line: `calls a (file:line), b …` (services, env reads)."""
    out = []
    for h in hs:
        edges = sorted(
            ((v, d) for _, v, d in pg.g.out_edges(h, data=True) if d.get("type") in ("CALLS_FN", "READS_ENV", "CALLS_HTTP")),
            key=lambda x: (x[1].get("line") or 0, x[0]),
        )  # fmt: skip
        if edges:
            verb = {"CALLS_FN": "", "READS_ENV": "env ", "CALLS_HTTP": "HTTP "}
            shown = ", ".join(
                f"{verb[d['type']]}{name(pg, v, 50)} ({_loc(pg, v)})" for v, d in edges[:8]
            )
            more = f" +{len(edges) - 8}" if len(edges) > 8 else ""
            out.append(f"{name(pg, h, 40)} calls {shown}{more}")
    return out


def _targets(pg: ProjectGraph, calls: list[str]) -> tuple[dict, dict, list[str]]:
    """(component → route → [(call, edge)], host → [call], unbridged calls)."""
    by_comp: dict[str, dict[str, list[tuple[str, dict]]]] = {}
    hosts: dict[str, list[str]] = {}
    loose: list[str] = []
    for c in calls:
        out = [(v, d) for _, v, d in pg.g.out_edges(c, data=True) if d.get("type") == "CALLS"]
        for r, d in out:
            by_comp.setdefault(str(comp_of(pg, r)), {}).setdefault(r, []).append((c, d))
        if out:
            continue
        base = str(pg.attrs(c).get("base") or "")
        if base.startswith("http"):
            hosts.setdefault(base, []).append(c)
        else:
            loose.append(c)
    return by_comp, hosts, loose


def outbound_section(pg: ProjectGraph, calls: list[str], value: int) -> Section | None:
    """Outbound calls grouped by target component → route → handler (see the module)."""
    calls = [c for c in calls if not is_test(pg.node(c).get("file"))]
    if not calls:
        return None
    by_comp, hosts, loose = _targets(pg, calls)
    n_targets = len(by_comp) + len(hosts)
    head = (
        f"outbound calls ({_plural(len(calls), 'call site')} → {_plural(n_targets, 'target')}"
        + (f"; {len(loose)} bridged to no route" if loose else "")
        + "): target → route → handler ← call site"
    )
    full, compact, grouped = [head], [head], [head]
    for comp, routes in sorted(by_comp.items()):
        n = sum(len(v) for v in routes.values())
        tag = f"  → {pg.project}/{comp} ({_plural(n, 'call')}, {_plural(len(routes), 'route')}):"
        full.append(tag)
        compact.append(tag)
        listed = []
        for r, sites in sorted(routes.items(), key=lambda x: name(pg, x[0], 200)):
            hs = ", ".join(f"{name(pg, h, 50)} ({_loc(pg, h)})" for h in handlers(pg, r))
            at = "; ".join(f"{where(pg, c)} in {_owner(pg, c)}{via_text(d)}" for c, d in sites)
            full.append(
                f"    {name(pg, r, 90)} ({_loc(pg, r)})" + (f" → {hs}" if hs else "") + f" ← {at}"
            )
            at_short = ", ".join(_loc(pg, c) for c, _ in sites)
            h_short = ", ".join(name(pg, h, 40) for h in handlers(pg, r))
            compact.append(
                f"    {name(pg, r, 80)}" + (f" → {h_short}" if h_short else "") + f" ← {at_short}"
            )
            listed.append(name(pg, r, 60))
        grouped.append(f"{tag} " + ", ".join(listed))
    for host, cs in sorted(hosts.items()):
        line = f"  → external {short(host, 60)} ({len(cs)}): " + ", ".join(
            f"{name(pg, c, 60)} at {_loc(pg, c)}" for c in cs
        )
        full.append(line)
        compact.append(line)
        grouped.append(f"  → external {short(host, 60)} ({len(cs)})")
    if loose:
        full.append(f"  → no route ({len(loose)}):")
        for c in loose:
            full.append(f"    {name(pg, c, 80)} at {where(pg, c)} — {unbridged_reason(pg, c)}")
        compact.append(
            f"  → no route ({len(loose)}): "
            + ", ".join(f"{name(pg, c, 50)} ({_loc(pg, c)})" for c in loose)
        )
        grouped.append(f"  → no route ({len(loose)})")
    parts = [
        f"{pg.project}/{c} {sum(len(v) for v in r.values())}" for c, r in sorted(by_comp.items())
    ]
    parts += [f"external {short(h, 40)} {len(cs)}" for h, cs in sorted(hosts.items())]
    parts += [f"no route {len(loose)}"] if loose else []
    summary = [f"outbound calls: {_plural(len(calls), 'call site')} → " + ", ".join(parts)]
    return Section(
        "outbound calls",
        levels(full=full, compact=compact, grouped=grouped, summary=summary),
        value,
    )


def _owner(pg: ProjectGraph, call: str) -> str:
    owners = [u for u, _, d in pg.g.in_edges(call, data=True) if d.get("type") == "CALLS_HTTP"]
    return name(pg, owners[0], 40) if owners else "its file"


def inbound_section(pg: ProjectGraph, routes: list[str], value: int) -> Section | None:
    """Call sites of other code bridged to these routes, grouped by calling component."""
    by_comp: dict[str, list[tuple[str, str, dict]]] = {}
    for r in routes:
        for u, _, d in pg.g.in_edges(r, data=True):
            if d.get("type") == "CALLS" and not is_test(pg.node(u).get("file")):
                by_comp.setdefault(str(comp_of(pg, u)), []).append((r, u, d))
    if not by_comp:
        return None
    total = sum(len(v) for v in by_comp.values())
    head = f"inbound calls ({_plural(total, 'call site')} from {_plural(len(by_comp), 'component')}): route ← call site"
    full, compact, grouped = [head], [head], [head]
    for comp, items in sorted(by_comp.items()):
        tag = f"  ← {pg.project}/{comp} ({len(items)}):"
        full.append(tag)
        compact.append(tag)
        for r, c, d in sorted(items, key=lambda x: (name(pg, x[0], 200), x[1])):
            full.append(
                f"    {name(pg, r, 80)} ← {name(pg, c, 70)} at {where(pg, c)} in {_owner(pg, c)}{via_text(d)}"
            )
            compact.append(f"    {name(pg, r, 80)} ← {_loc(pg, c)}")
        grouped.append(f"{tag} " + ", ".join(sorted({name(pg, r, 60) for r, _, _ in items})))
    summary = [
        f"inbound calls: {total} from "
        + ", ".join(f"{pg.project}/{c} {len(v)}" for c, v in sorted(by_comp.items()))
    ]
    return Section(
        "inbound calls", levels(full=full, compact=compact, grouped=grouped, summary=summary), value
    )
