"""The graph score: routes, frontend call sites, CALLS bridges, bridge precision and
cross-project leaks, from the published rows alone (the rules of the benchmark's score.py).

Unit: one truth endpoint of one repository.
- route: a `route` node of the project's `api` with the endpoint's method and normalised
  path, registered within ±3 lines of a truth site;
- call: an `http_call` node of the project's `web` within ±2 lines of a truth site, same method;
- bridge: a CALLS edge from a matching call node to a right route (the endpoint's method and
  either its normalised path or its truth registration site);
- precision: of the CALLS edges leaving call nodes that match a truth site, the share that
  reach a right route of one of that site's endpoints.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field

from bench.realworld_score.truth import CALL_TOL, ROUTE_TOL, Benchmark, norm_path, sites_of


@dataclass
class Rows:
    """What the warehouse published: route and http_call nodes, CALLS edges, leaks."""

    nodes: list[dict]
    calls: list[dict]
    leaks: list[dict] = field(default_factory=list)
    coverage: list[dict] = field(default_factory=list)  # the `coverage` table's rows


def attrs_of(row: dict) -> dict:
    raw = row.get("attrs")
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except ValueError:
            return {}
    return raw or {}


def route_key(node: dict) -> tuple[str, str]:
    attrs = attrs_of(node)
    method, path = attrs.get("method"), attrs.get("path")
    if not method or path is None:
        method, _, path = (node.get("name") or "").partition(" ")
    return str(method).upper(), norm_path(path)


def call_method(node: dict) -> str:
    return str(attrs_of(node).get("method") or (node.get("name") or "").split(" ")[0]).upper()


def near(node: dict, site: dict, tol: int) -> bool:
    if (node.get("file") or "") != site["file"] or node.get("line") is None:
        return False
    lines = [site["line"]] + ([site["path_line"]] if site.get("path_line") else [])
    return any(abs(node["line"] - n) <= tol for n in lines)


class Tally:
    """hits/total counters by key."""

    def __init__(self) -> None:
        self.counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])

    def add(self, key: str, hit: bool) -> None:
        self.counts[key][0] += bool(hit)
        self.counts[key][1] += 1

    def get(self, key: str) -> list[int]:
        return list(self.counts.get(key, [0, 0]))


def right_routes(served: dict[str, dict], routes: list[dict], endpoint: str) -> set[str]:
    """Route nodes that are the endpoint's: same method, and its path or its registration."""
    r = served.get(endpoint)
    if r is None:
        return set()
    method, path = r["method"].upper(), norm_path(r["path"])
    return {
        n["id"]
        for n in routes
        if route_key(n)[0] == method
        and (route_key(n)[1] == path or any(near(n, s, ROUTE_TOL) for s in sites_of(r)))
    }


def score_graph(bench: Benchmark, rows: Rows) -> dict:
    by_comp: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for node in rows.nodes:
        by_comp[(node["project"], node["component"], node["kind"])].append(node)
    out_edges: dict[str, list[dict]] = defaultdict(list)
    for edge in rows.calls:
        out_edges[edge["src"]].append(edge)
    totals, frameworks = Tally(), Tally()
    misses: dict[str, list[str]] = defaultdict(list)
    projects = []
    for p in bench.projects:
        routes = by_comp[(p.id, "api", "route")]
        hcalls = by_comp[(p.id, "web", "http_call")]
        served = {r["endpoint"]: r for r in p.api_truth["routes"]}
        mine = Tally()

        for r in served.values():
            want = (r["method"].upper(), norm_path(r["path"]))
            hit = any(
                route_key(n) == want and any(near(n, s, ROUTE_TOL) for s in sites_of(r))
                for n in routes
            )
            for t in (mine, totals):
                t.add("routes", hit)
                t.add("route_paths", any(route_key(n) == want for n in routes))
            frameworks.add(f"routes:{p.api['framework']}", hit)
            if not hit:
                misses["routes"].append(
                    f"{p.id}/api {r['method']} {r['path']} {r['file']}:{r['line']}"
                )
        site_endpoints: dict[str, set[str]] = defaultdict(set)
        for c in p.web_truth["calls"]:
            ep, method = c["endpoint"], c["method"].upper()
            located = [n for n in hcalls if any(near(n, s, CALL_TOL) for s in sites_of(c))]
            matched = [n for n in located if call_method(n) == method]
            for n in matched:
                site_endpoints[n["id"]].add(ep)
            for t in (mine, totals):
                t.add("calls", bool(matched))
                t.add("call_sites_any_method", bool(located))
            frameworks.add(f"calls:{p.web['framework']}", bool(matched))
            if not matched:
                misses["calls"].append(f"{p.id}/web {ep} {method} {c['file']}:{c['line']}")
            r = served.get(ep)
            if r is None or r.get("unreachable"):
                continue
            rights = right_routes(served, routes, ep)
            hit = any(e["dst"] in rights for n in matched for e in out_edges.get(n["id"], []))
            for t in (mine, totals):
                t.add("bridges", hit)
                if not c.get("dynamic"):
                    t.add("bridges_static", hit)
            frameworks.add(f"bridges:{p.web['framework']}", hit)
            frameworks.add(f"bridges_by_api:{p.api['framework']}", hit)
            if not hit:
                why = "no call node" if not matched else "no CALLS edge to the route"
                misses["bridges"].append(f"{p.id} {ep} {c['file']}:{c['line']}: {why}")
        correct = wrong = unjudged = 0
        for n in hcalls:
            for e in out_edges.get(n["id"], []):
                endpoints = site_endpoints.get(n["id"])
                if not endpoints:
                    unjudged += 1
                    continue
                ok = any(e["dst"] in right_routes(served, routes, ep) for ep in endpoints)
                correct += ok
                wrong += not ok
                if not ok:
                    misses["precision"].append(f"{p.id} {n['file']}:{n['line']} -> {e['dst']}")
        totals.counts["edges_correct"][0] += correct
        totals.counts["edges_wrong"][0] += wrong
        totals.counts["edges_unjudged"][0] += unjudged
        projects.append(
            {
                "project": p.id,
                "web": p.web["slug"],
                "api": p.api["slug"],
                **{k: "{}/{}".format(*mine.get(k)) for k in ("routes", "calls", "bridges")},
                "correct": correct,
                "wrong": wrong,
                "unjudged": unjudged,
            }
        )
        for comp, kind, truth in (
            ("api", "route", served),
            ("web", "http_call", p.web_truth["calls"]),
        ):
            if truth and not by_comp[(p.id, comp, kind)]:  # nothing found: said, or silent?
                warned = [c for c in rows.coverage
                          if (c["project"], c["component"]) == (p.id, comp) and c.get("warning")]  # fmt: skip
                key = "warned_zeros" if warned else "silent_zeros"
                totals.counts[key][0] += 1
                misses[key].append(f"{p.id}/{comp}: no {kind} of {len(truth)} in the truth"
                                   + (f" — {warned[0]['warning'][:160]}" if warned else ""))  # fmt: skip
    judged = totals.get("edges_correct")[0] + totals.get("edges_wrong")[0]
    return {
        "totals": {k: totals.get(k) for k in sorted(totals.counts)},
        "precision": round(totals.get("edges_correct")[0] / judged, 3) if judged else None,
        "leaks": len(rows.leaks),
        "frameworks": {k: v for k, v in sorted(frameworks.counts.items())},
        "projects": projects,
        "misses": dict(misses),
    }
