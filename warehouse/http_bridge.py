"""CALLS bridges: an http_call resolved to a route of a component of the same project.

Reads the typed attrs every http_call carries (extractors/parts.py): `method`, `segments`
(the path after the origin or after the env var base), `env_var` (the env var or config
key the URL starts with), `base` (a literal absolute origin), `page_relative`, `holes`
(defaults of env holes), `hops` (wrapper lines), `condition` (an alternative chosen at run
time), `operation` (a generated client's operation called by name). Routes carry
`segments` too; nothing here parses a path out of a string.

Where the call goes (evidence in `warehouse.bases`, `warehouse.relative`):
1. a Firebase callable → the project's functions component;
2. `{ENV}path` → each value of ENV (per mode, the code's default too) whose host is a KB
   URL, and the caller's KB `calls:` env_var entry;
3. an absolute URL → the caller's KB `calls:` url/host entries, else the component whose
   `envs.*.url` has that host; an unknown host is matched by route shape afterwards
   (`warehouse.route_shape`);
4. a relative URL → `warehouse.relative`;
5. a generated client's operation → the operation index (`warehouse.operations`).
Only the project's own components are ever candidates. Each CALLS edge has `confidence`
(high / medium / low), `resolution` (env-var, kb-calls, url, host, proxy, rewrite,
same-origin, operation, route-shape), `evidence` (`file:line what`, call site to route),
`via`, `envs`, `how`, `match`, `target_component`, `path`, and `condition` when the call
is one alternative chosen at run time. A call in a file nothing imports, or in a module-
private function nothing calls (warehouse.deadcode),
keeps its edge at `confidence: low` with `dead_code: true`: the rule is a guess (a module's
exported API is imported from elsewhere), so the edge is said, never silently drawn. A call that reaches no route gets an `unresolved` row naming
the failing link (and the closest route when one is near).
"""

from __future__ import annotations

import re
from typing import Any

from extractors.facts import Edge, Unresolved
from kb.model import KnowledgeBase
from vocab.pathparts import Seg, from_attrs, shown
from warehouse.bases import ProjectBases, Target, weakest
from warehouse.bridge_call import Call, edge_attrs
from warehouse.deadcode import dead_call_sites
from warehouse.operations import OperationIndex
from warehouse.relative import Relative
from warehouse.route_shape import RouteShape
from warehouse.segmatch import RANK, RouteRef, best_routes, closest_route, filled_params
from warehouse.urls import LOCAL_HOSTS, bare_host, netloc, starts_with

NO_ROW = "external"  # an external host or a file path: no CALLS edge and no unresolved row
PAGE_KINDS = {"page", "layout", "client"}
MATCH_LEVEL = {"exact": "high", "param": "high", "default": "medium", "wildcard": "low"}


class HttpBridge:
    def __init__(self, kb: KnowledgeBase, project: str, nodes: list[dict[str, Any]]):
        self.project = project
        self.bases = ProjectBases(kb, project, nodes)
        self.routes: dict[str, list[RouteRef]] = {}
        self.pages: dict[str, int] = {}
        for n in nodes:
            if n["kind"] != "route":
                continue
            comp = n.get("component") or ""
            if str(n["attrs"].get("route_kind") or "") in PAGE_KINDS:
                self.pages[comp] = self.pages.get(comp, 0) + 1  # HTML, never an API target
                continue
            segs = from_attrs(n["attrs"].get("segments"))
            if segs is None:
                continue  # an untyped route (facts older than extractors/parts.py)
            method = str(n["attrs"].get("method") or n["name"].split(" ", 1)[0]).upper()
            condition = n["attrs"].get("condition")
            ref = RouteRef(
                n["id"], comp, method, tuple(segs), n.get("file"), n.get("line"), n["name"],
                str(condition) if condition else None,
            )  # fmt: skip
            self.routes.setdefault(comp, []).append(ref)
        self.relative = Relative(self.bases, set(self.routes), self.pages)
        self.own_calls: dict[tuple[str, str, int], list[tuple[Seg, ...]]] = {}
        for n in nodes:
            if n["kind"] == "http_call":
                c = Call.of(n)
                if c.segs:
                    key = (c.component, c.method, len(c.segs))
                    self.own_calls.setdefault(key, []).append(tuple(c.segs))

    def tiers(self, call: Call) -> tuple[list[list[Target]], str]:
        """Ordered tiers of candidate targets (the first tier that matches wins), or [] and
        why nothing could be resolved (NO_ROW: a host outside the project, a file)."""
        b, caller, segs = self.bases, call.component, call.segs or []
        if call.function:
            comp = b.function_component(call.function)
            if comp is None:
                return (
                    [],
                    f"callable function {call.function}: no functions component in the project",
                )
            t = Target(comp, [], f"callable {call.function}", "host", "Firebase callable",
                       b.envs(comp), path=[Seg("lit", call.function)])  # fmt: skip
            return [[t]], ""
        if call.base_hole:
            return [], f"{NO_ROW}: dynamic URL: the base is the run-time value {{{call.base_hole}}}"
        if call.base and re.search(r"://[^/]*\{", call.base):
            return self._host_pattern(call.base, call.env_var)
        if call.env_var:
            rel = lambda vsegs, via: self.relative.tiers(caller, [*vsegs, *segs], via)  # noqa: E731
            tiers, misses = b.by_env(caller, call.env_var, call.default, segs, rel)
            if tiers:
                return tiers, ""
            why = "; ".join(misses) or (f"no value in .env*/compose/environment files, no default "
                                        f"in the code and no KB calls entry for {call.env_var}")  # fmt: skip
            return [], f"no base URL: env var {call.env_var}: {why}"
        if call.base:
            loc = netloc(call.base)
            if loc is None:
                return [], NO_ROW
            named = call.resolved_via not in ("", "literal", "instance", "default")
            ts, why = b.by_url(
                caller, loc[0], segs, call.resolved_via if named else f"host {loc[0]}", []
            )
            if ts:
                return [ts], ""
            return [], why if bare_host(loc[0]) in LOCAL_HOSTS else f"{NO_ROW}: {why}"
        if call.segs is not None and not call.expr.startswith(("./", "../")):
            return self.relative.tiers(caller, segs, page_relative=call.page_relative)
        if call.expr.startswith(("./", "../")):
            return [], NO_ROW  # a module-relative file (`new URL('../font.ttf', import.meta.url)`)
        return [], "dynamic URL: base or path is computed at run time"

    def _host_pattern(self, base: str, env_var: str | None) -> tuple[list[list[Target]], str]:
        """An env part inside the host (`https://{TENANT}.zendesk.com`): a KB host or external."""
        host = base.split("/")[2].lower()
        pattern = re.compile(".+".join(re.escape(p) for p in re.split(r"\{[^}]*\}", host)) + "$")
        hits = sorted(
            {c for h, cs in self.bases.hosts.items() if pattern.match(h) for c, _, _ in cs}
        )
        if len(hits) != 1:
            return [], NO_ROW if not hits else f"host {host} matches components {hits}"
        envs = {e for h, cs in self.bases.hosts.items() if pattern.match(h) for _, e, _ in cs}
        t = Target(
            hits[0], [], env_var or host, "host", f"host pattern {host}", envs, confidence="medium"
        )
        return [[t]], ""

    def match(self, t: Target, method: str, segs: list[Seg], caller: str = ""):
        """([(route match, full path, confidence)], path tried, note) of one target. Only a
        single best route is joined: a tie is 'ambiguous'; a call hole against a literal
        route segment (`{slug}` vs `feed`) is named, never joined; so is a call literal that
        fills a route parameter where the caller's own code fills that parameter with a
        value elsewhere (`/articles/feed` next to `/articles/{slug}` names an endpoint of
        its own, which the API lacks — an exact route would have won)."""
        routes = self.routes.get(t.component, [])
        if t.path is not None:
            tries = [(t.path, False, False)]
        elif t.prefix is not None:
            tries = [([*t.prefix, *segs], False, False)]
        else:  # only the component is known: the path as is, under its KB URL path, suffix
            tries = [(segs, True, False)]
            tries += [([*p, *segs], True, False) for p in self.bases.kb_paths(t.component)]
            tries.append((segs, True, True))
        note = ""
        for full, weak, suffix in tries:
            found = best_routes(method, full, routes, suffix=suffix)
            if not found:
                continue
            if found[0].kind == "loose":
                note = (
                    note or f"{found[0].route.text} (a literal segment where the call has a value)"
                )
                continue
            if len(found) > 1 and not _run_time_alternatives(found):
                names = ", ".join(m.route.text for m in found)
                return [], full, f"ambiguous: {len(found)} routes match ({names})"
            if clash := self._own_endpoint(caller, method, segs, full, found[0]):
                note = note or clash
                continue
            level = MATCH_LEVEL[found[0].kind]
            if weak or suffix or len(found) > 1:  # several: run-time alternatives, each joined
                level = weakest(level, "medium")
            return [(m, full, weakest(level, t.confidence)) for m in found], full, ""
        return [], tries[0][0], note

    def _own_endpoint(self, caller: str, method: str, segs: list[Seg], full: list[Seg], m) -> str:
        """Why a literal of the call that fills a route parameter names another endpoint:
        the caller calls the same path with a value in that place too; '' otherwise."""
        off = len(full) - len(segs)
        for i in filled_params(full, list(m.route.segs), m.suffix):
            j = i - off
            if j < 0:
                continue
            for other in self.own_calls.get((caller, method, len(segs)), []):
                if other[j].kind != "lit" and all(
                    k == j or (a.kind == "lit") == (b.kind == "lit") and
                    (a.kind != "lit" or a.text == b.text) for k, (a, b) in enumerate(zip(segs, other, strict=True))
                ):  # fmt: skip
                    return (f"{m.route.text} (its parameter would take the literal "
                            f"{segs[j].text!r}, but this component also calls {method} "
                            f"{shown(list(other))} with a value there: an endpoint the API lacks?)")  # fmt: skip
        return ""

    def miss(self, method: str, tried: list[tuple[Target, list[Seg], str]], why: str) -> str:
        parts = []
        for t, full, note in tried:
            routes = self.routes.get(t.component, [])
            if not routes:
                pages = self.pages.get(t.component)
                what = f"only {pages} page routes (HTML)" if pages else "no API routes in the graph"
                parts.append(f"{t.component} has {what} ({t.how})")
                continue
            if note.startswith("ambiguous"):
                parts.append(f"{method} {shown(full)} in {t.component} is {note} ({t.how})")
                continue
            near = (
                note or _unmounted(method, full, t, routes) or closest_route(method, full, routes)
            )
            parts.append(f"no route {method} {shown(full)} in {t.component} ({t.how})"
                         + (f"; closest: {near}" if near else ""))  # fmt: skip
        text = "; ".join(dict.fromkeys(parts))
        return f"{text}; {why}" if why else text


def _run_time_alternatives(found: list) -> bool:
    """Tied routes that a run-time condition tells apart (a method or path chosen by a flag):
    each conditioned one under its own condition, at most one registered unconditionally
    (the flag may add a route in front of it). The call reaches whichever the flag selects,
    so each is joined; two unconditional twins stay ambiguous."""
    conditions = [m.route.condition for m in found]
    chosen = [c for c in conditions if c]
    return bool(chosen) and len(conditions) - len(chosen) <= 1 and len(set(chosen)) == len(chosen)


def _unmounted(method: str, full: list[Seg], t: Target, routes: list[RouteRef]) -> str:
    """A route that matches once the KB url's path is dropped: named, never joined (the
    route may miss a mount prefix, or a gateway may strip it: the source does not say)."""
    if not t.mount or not starts_with(full, t.mount):
        return ""
    found = best_routes(method, full[len(t.mount) :], routes, suffix=False)
    if len(found) != 1:
        return ""
    return f"{found[0].route.text} (without the KB url path {shown(t.mount)})"


def calls_edges(
    kb: KnowledgeBase,
    project: str,
    nodes: list[dict[str, Any]],
    edges: list[dict[str, Any]] | None = None,
) -> tuple[list[Edge], list[Unresolved]]:
    """CALLS edges and unresolved http_calls of one project (nodes with parsed attrs)."""
    bridge = HttpBridge(kb, project, nodes)
    ops = OperationIndex(bridge, nodes, edges or [])
    shapes = RouteShape(bridge)
    dead = dead_call_sites(nodes, edges or [])
    out: list[Edge] = []
    unresolved: list[Unresolved] = []
    for n in nodes:
        if n["kind"] != "http_call":
            continue
        call = Call.of(n)
        where = (call.file, call.line)
        if call.operation and call.segs is None:
            tiers, why = ops.tiers(call)
        else:
            tiers, why = bridge.tiers(call)
        method = "*" if call.function else call.method
        if not tiers or call.segs is None and not call.operation:
            if why.startswith(NO_ROW) and call.unknown_base:
                shapes.add(call, why.removeprefix(NO_ROW + ": "))
            elif why != NO_ROW:
                reason = why or "dynamic URL: the path is computed at run time"
                unresolved.append(
                    Unresolved(project, call.component, *where, "http_call", call.expr, reason)
                )
            continue
        hits, tried = first_tier(bridge, tiers, method, call.segs or [], call.component)
        if not hits:
            reason = bridge.miss(method, tried, why)
            unresolved.append(
                Unresolved(project, call.component, *where, "http_call", call.expr, reason)
            )
            continue
        for route_id, (t, m, full, conf) in sorted(hits.items()):
            attrs = edge_attrs(call, t, m, full, conf, n["id"] in dead)
            out.append(Edge(n["id"], route_id, "CALLS", project, call.component, *where, attrs))
    more, rest = shapes.resolve(dead)
    out += more
    unresolved += rest
    return out, unresolved


def first_tier(
    bridge: HttpBridge, tiers: list[list[Target]], method: str, segs: list[Seg], caller: str = ""
):
    tried: list[tuple[Target, list[Seg], str]] = []
    for tier in tiers:
        hits: dict[str, tuple[Target, Any, list[Seg], str]] = {}
        for t in tier:
            found, full, note = bridge.match(t, method, segs, caller)
            tried.append((t, full, note))
            if note.startswith("ambiguous"):
                return {}, tried
            for m, fpath, conf in found:
                if m.route.id in hits:  # the same route by another value: widen its envs
                    hits[m.route.id][0].envs |= t.envs
                    hits[m.route.id][0].modes |= t.modes
                else:
                    hits[m.route.id] = (t, m, fpath, conf)
        if hits:
            return _best_per_component(hits), tried
    return {}, tried


def _best_per_component(hits: dict[str, tuple]) -> dict[str, tuple]:
    """One component's routes reached by several values of a tier keep only the best
    matched (`/user` literally beats `/{name}` through another value's prefix); equally
    good routes (each value its own exact route) all stay."""
    best: dict[str, tuple[int, int]] = {}
    for _t, m, _full, _conf in hits.values():
        key = (RANK[m.kind], m.loose_count)
        best[m.route.component] = min(best.get(m.route.component, key), key)
    return {rid: h for rid, h in hits.items()
            if (RANK[h[1].kind], h[1].loose_count) == best[h[1].route.component]}  # fmt: skip
