"""Graph recall of the development portfolio, scored from the published tables alone.

Reads `nodes`, `edges` and `unresolved` of every project partition with an in-memory
DuckDB over the Parquet the manifest names, and checks each ground-truth fact
(bench/corpus/truth/*.yaml) against them. Every miss keeps its fact id and one line of
why, with the nearest thing the graph has, so whoever fixes an extractor sees the pattern.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.accuracy_index import (
    Graph,
    Metric,
    line_near,
    name_match,
    route_matches,
    split_url,
)
from warehouse.reader import GLOBAL


def score_routes(g: Graph, facts: list[dict], m: Metric, lines: Metric) -> None:
    for f in facts:
        route = f"{f['method']} {f['path']}"
        found = g.routes(f["project"], f["component"], route)
        if m.add(
            bool(found),
            f["id"],
            "" if found else g.nearest_route(f["project"], f["component"], route),
        ):
            ok = any(n["file"] == f["file"] and line_near(n["line"], f["line"], 1) for n in found)
            where = ", ".join(f"{n['file']}:{n['line']}" for n in found)
            lines.add(ok, f["id"], "" if ok else f"route at {where}, truth {f['file']}:{f['line']}")


def _handler_ok(g: Graph, f: dict, routes: list[dict]) -> tuple[bool, str]:
    targets = [g.nodes.get(e["dst"]) for r in routes for e in g.out[(r["id"], "ROUTES_TO")]]
    targets = [t for t in targets if t]
    ok = any(t["file"] == f["file"] and line_near(t["line"], f["line"], 1) for t in targets)
    got = ", ".join(f"{t['name']}@{t['file']}:{t['line']}" for t in targets) or "no ROUTES_TO"
    return ok, got


def score_handlers(g: Graph, facts: list[dict], m: Metric) -> None:
    """Strict: from the full-path route. `if_route_found`: also via a prefix-less route."""
    lenient = 0
    for f in facts:
        routes = g.routes(f["project"], f["component"], f["route"])
        ok, got = _handler_ok(g, f, routes) if routes else (False, "")
        tails = routes or g.routes(f["project"], f["component"], f["route"], lenient=True)
        lenient += ok or (bool(tails) and _handler_ok(g, f, tails)[0])
        m.add(
            ok,
            f["id"],
            "" if ok else (f"route → {got}" if routes else f"route {f['route']} not in graph"),
        )
    m.extra["if_route_found"] = lenient


def _chain_edges(g: Graph, routes: list[dict]) -> list[dict]:
    edges = [e for r in routes for e in g.out[(r["id"], "USES_MIDDLEWARE")]]
    return sorted(edges, key=lambda e: e["attrs"].get("order") or 0)


def _elem_match(g: Graph, elem: dict, edge: dict) -> bool:
    dst = g.nodes.get(edge["dst"]) or {}
    return (
        edge["file"] == elem["file"]
        and line_near(edge["line"], elem["line"], 1)  # a multi-line app.use(/add_middleware(
        and name_match(str(elem["name"]), dst.get("name") or "")
    )


def score_middleware(g: Graph, facts: list[dict], elems: Metric, chains: Metric) -> None:
    lenient = 0
    for f in facts:
        routes = g.routes(f["project"], f["component"], f["route"])
        tails = routes or g.routes(f["project"], f["component"], f["route"], lenient=True)
        tail_edges = _chain_edges(g, tails)
        lenient += sum(
            any(_elem_match(g, el, e) for e in tail_edges) for el in f.get("chain") or []
        )
        edges = _chain_edges(g, routes)
        chain = f.get("chain") or []
        got = [
            f"{(g.nodes.get(e['dst']) or {}).get('name')}@{e['file']}:{e['line']}" for e in edges
        ]
        if not routes:
            got = "route not in graph" + (
                f"; prefix-less route has {[(g.nodes.get(e['dst']) or {}).get('name') + '@' + str(e['file']) + ':' + str(e['line']) for e in tail_edges]}"
                if tails
                else ""
            )
        for i, elem in enumerate(chain):
            ok = any(_elem_match(g, elem, e) for e in edges)
            why = "route not in graph" if not routes else f"graph chain has {len(edges)}"
            elems.add(
                ok,
                f"{f['id']}[{i}]",
                "" if ok else f"{elem['name']}@{elem['file']}:{elem['line']}; {why}",
            )
        exact = bool(routes) and len(edges) == len(chain)
        exact = exact and all(_elem_match(g, el, e) for el, e in zip(chain, edges, strict=False))
        truth = [f"{el['name']}@{el['file']}:{el['line']}" for el in chain]
        chains.add(exact, f["id"], "" if exact else f"truth {truth} graph {got}")
    elems.extra["if_route_found"] = lenient


def _callees(g: Graph, sym_id: str) -> list[dict]:
    """CALLS_FN targets of a symbol, following `via alias` hops on to the definition."""
    out: list[dict] = []
    todo = [e for e in g.out[(sym_id, "CALLS_FN")]]
    seen = {sym_id}
    while todo:
        e = todo.pop()
        dst = g.nodes.get(e["dst"])
        if dst is None or dst["id"] in seen:
            continue
        seen.add(dst["id"])
        out.append(dst)
        todo += [a for a in g.out[(dst["id"], "CALLS_FN")] if a["attrs"].get("via") == "alias"]
    return out


def score_service_calls(g: Graph, facts: list[dict], m: Metric) -> None:
    for f in facts:
        caller = str(f["caller"]).split(".")[-1]
        syms = [
            s
            for s in g.by_kind[(f["project"], f["component"], "symbol")]
            if s["file"] == f["file"]
            and (
                (s["line"] or 0) <= f["line"] <= (s["end_line"] or s["line"] or 0)
                or (s["name"] or "").split(".")[-1] == caller
            )
        ]
        d = f["callee_def"]
        got = [c for s in syms for c in _callees(g, s["id"])]
        ok = any(c["file"] == d["file"] and line_near(c["line"], d["line"], 1) for c in got)
        why = (
            f"no symbol for {f['caller']} in {f['file']}"
            if not syms
            else f"callees {[c['name'] + '@' + str(c['file']) + ':' + str(c['line']) for c in got][:6]}"
        )
        m.add(ok, f["id"], "" if ok else why)


def score_http_calls(
    g: Graph, facts: list[dict], m: Metric, url_exact: Metric, url_path: Metric
) -> None:
    for f in facts:
        at = g.node_at(f["project"], f["component"], "http_call", f["file"], f["line"])
        at = [
            n
            for n in at
            if str(n["attrs"].get("method") or n["name"].split(" ")[0]).upper()
            == f["method"].upper()
        ]
        if not at:
            hops = {(h["file"], h["line"]) for h in f.get("hops") or []}
            in_file = g.lines_in(f["project"], f["component"], "http_call", f["file"])
            at_hop = [
                h for h in hops if g.node_at(f["project"], f["component"], "http_call", h[0], h[1])
            ]
            why = f"http_call lines in file {in_file}" + (
                f"; found at wrapper {at_hop}" if at_hop else ""
            )
            m.add(False, f["id"], why)
            continue
        m.add(True, f["id"])
        tb, tp = split_url(str(f["url"]))
        urls = [str(n["attrs"].get("url_template") or n["name"].partition(" ")[2]) for n in at]
        parts = [split_url(u) for u in urls]
        url_path.add(any(p == tp for _, p in parts), f["id"], f"graph {urls} truth {f['url']}")
        url_exact.add(
            any(b == tb and p == tp for b, p in parts), f["id"], f"graph {urls} truth {f['url']}"
        )


def _truth_sites(facts: list[dict]) -> dict[tuple, list[dict]]:
    sites: dict[tuple, list[dict]] = defaultdict(list)
    for f in facts:
        if f["kind"] in ("calls", "not_http_call"):
            sites[(f["project"], f["component"], f["file"], f["line"])].append(f)
    return sites


def score_calls(g: Graph, facts: list[dict], m: Metric, precision: Metric) -> None:
    calls = [f for f in facts if f["kind"] == "calls"]
    for f in calls:
        sites = g.node_at(f["project"], f["component"], "http_call", f["file"], f["line"])
        if not sites:
            m.add(False, f["id"], "no http_call node at the call site")
            continue
        wanted = {r["id"] for r in g.routes(f["project"], f["target_component"], f["route"])}
        dsts = [e["dst"] for s in sites for e in g.out[(s["id"], "CALLS")]]
        ok = bool(wanted & set(dsts))
        why = "target route not in graph; " if not wanted else ""
        m.add(
            ok,
            f["id"],
            "" if ok else f"{why}CALLS → {[d.split(':', 2)[-1] for d in dsts] or 'none'}",
        )
    sites = _truth_sites(facts)
    unknown = 0
    for e in g.edges:
        if e["type"] != "CALLS":
            continue
        src, dst = g.nodes.get(e["src"]) or {}, g.nodes.get(e["dst"]) or {}
        key = (src.get("project"), src.get("component"), src.get("file"), src.get("line"))
        truth = sites.get(key)
        label = f"{src.get('component')}/{src.get('file')}:{src.get('line')} → {dst.get('component')} {dst.get('name')}"
        if not truth:
            unknown += 1
            continue
        ok = any(
            t["kind"] == "calls"
            and t["target_component"] == dst.get("component")
            and route_matches(t["route"], dst.get("name") or "")
            for t in truth
        )
        precision.add(
            ok,
            label,
            ""
            if ok
            else "truth: " + "; ".join(t.get("route") or "not an HTTP call" for t in truth),
        )
    precision.extra["unknown"] = unknown


def score_env_reads(g: Graph, facts: list[dict], m: Metric) -> None:
    reads: dict[tuple, list[dict]] = defaultdict(list)
    for e in g.edges:
        if e["type"] == "READS_ENV":
            reads[(e["project"], e["component"])].append(e)
    for f in facts:
        edges = [
            e
            for e in reads[(f["project"], f["component"])]
            if (g.nodes.get(e["dst"]) or {}).get("name") == f["name"]
        ]
        ok = any(e["file"] == f["file"] and line_near(e["line"], f["line"]) for e in edges)
        got = [f"{e['file']}:{e['line']}" for e in edges][:5]
        m.add(ok, f["id"], "" if ok else f"READS_ENV {f['name']} at {got or 'nowhere'}")


def score_unresolved(g: Graph, facts: list[dict], m: Metric) -> None:
    for f in facts:
        rows = [
            u
            for u in g.unresolved
            if u["project"] == f["project"]
            and u["component"] == f["component"]
            and u["file"] == f["file"]
        ]
        ok = any(line_near(u["line"], f["line"]) and (u["reason"] or "").strip() for u in rows)
        m.add(
            ok, f["id"], "" if ok else f"unresolved lines in file {sorted(u['line'] for u in rows)}"
        )


def redirect_violations(g: Graph, facts: list[dict]) -> list[dict[str, str]]:
    out = []
    for f in facts:
        if f["kind"] == "not_http_call":
            for n in g.node_at(f["project"], f["component"], "http_call", f["file"], f["line"]):
                out.append({"fact": f["id"], "why": f"became http_call {n['name']}"})
    return out


def _project_of(node_id: str) -> str:
    return re.split(r"[/:]", node_id, maxsplit=1)[0]


def cross_project_violations(g: Graph) -> list[dict[str, str]]:
    out = []
    for e in g.edges:
        a, b = _project_of(e["src"]), _project_of(e["dst"])
        if a != b and not {a, b} & {GLOBAL, "_kb"}:
            out.append(
                {"fact": f"{e['src']} -{e['type']}-> {e['dst']}", "why": "cross-project edge"}
            )
    return out


def score_graph(data_dir: Path, facts: list[dict], projects: set[str] | None) -> dict[str, Any]:
    """Per-metric results; `recall` metrics feed graph_recall, the rest are reported beside."""
    g = Graph(data_dir, projects)
    kinds: dict[str, list[dict]] = defaultdict(list)
    for f in facts:
        kinds[f["kind"]].append(f)
    names = [
        "routes", "route_line", "handlers", "middleware", "middleware_chain_exact",
        "service_calls", "http_calls", "http_url_exact", "http_url_path", "calls",
        "calls_precision", "env_reads", "unresolved",
    ]  # fmt: skip
    m = {n: Metric(n) for n in names}
    score_routes(g, kinds["route"], m["routes"], m["route_line"])
    score_handlers(g, kinds["handler"], m["handlers"])
    score_middleware(g, kinds["middleware"], m["middleware"], m["middleware_chain_exact"])
    score_service_calls(g, kinds["service_call"], m["service_calls"])
    score_http_calls(
        g, kinds["http_call"], m["http_calls"], m["http_url_exact"], m["http_url_path"]
    )
    score_calls(g, facts, m["calls"], m["calls_precision"])
    score_env_reads(g, kinds["env_read"], m["env_reads"])
    score_unresolved(g, kinds["unresolved"], m["unresolved"])
    recall = [
        "routes",
        "handlers",
        "middleware",
        "service_calls",
        "http_calls",
        "calls",
        "env_reads",
        "unresolved",
    ]
    return {
        "metrics": {n: mm.as_dict() for n, mm in m.items()},
        "recall_metrics": recall,
        "violations": {
            "redirects_as_calls": redirect_violations(g, facts),
            "cross_project_edges": cross_project_violations(g),
        },
        "graph": {"nodes": len(g.nodes), "edges": len(g.edges), "unresolved": len(g.unresolved)},
    }
