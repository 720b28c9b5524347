"""Graph recall of the development portfolio, scored from the published tables alone.

Each ground-truth fact (bench/corpus/truth/*.yaml) is looked up in the `nodes`, `edges`
and `unresolved` tables (bench/accuracy_tables.py). Every miss keeps its fact id, a
cause tag and one line naming what the graph has instead, so whoever fixes an extractor
sees the pattern. Strict rules; where a lost mount prefix hides a whole chain, the
handler and middleware metrics also say how many would match on the prefix-less route.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.accuracy_tables import (
    GLOBAL,
    Graph,
    Metric,
    line_near,
    loc,
    route_matches,
    split_url,
)

RECALL_METRICS = [
    "routes", "handlers", "middleware", "service_calls",
    "http_calls", "calls", "env_reads", "unresolved",
]  # fmt: skip
SIDE_METRICS = [
    "route_line", "middleware_chain_exact", "http_url_exact", "http_url_path", "calls_precision",
]  # fmt: skip


def _name_match(truth: str, graph: str | None) -> bool:
    a, b = (re.sub(r"[^a-z0-9]", "", (s or "").lower()) for s in (truth, graph))
    last_t, last_g = (re.sub(r"\(.*", "", s or "").split(".")[-1].lower() for s in (truth, graph))
    return bool(a and b) and (a in b or b in a or (bool(last_t) and last_t == last_g))


def score_routes(g: Graph, facts: list[dict], m: Metric, lines: Metric) -> None:
    for f in facts:
        route = f"{f['method']} {f['path']}"
        found = g.routes(f["project"], f["component"], route)
        if not found:
            m.add(False, f["id"], *g.why_no_route(f["project"], f["component"], f))
            continue
        m.add(True, f["id"])
        ok = any(n["file"] == f["file"] and line_near(n["line"], f["line"], 1) for n in found)
        where = ", ".join(f"{n['file']}:{n['line']}" for n in found)
        lines.add(ok, f["id"], "line differs", f"graph {where}, truth {f['file']}:{f['line']}")


def _handler(g: Graph, f: dict, routes: list[dict]) -> tuple[bool, str]:
    targets = [g.nodes.get(e["dst"]) for r in routes for e in g.out[(r["id"], "ROUTES_TO")]]
    targets = [t for t in targets if t]
    ok = any(t["file"] == f["file"] and line_near(t["line"], f["line"], 1) for t in targets)
    return ok, ", ".join(loc(t) for t in targets)


def score_handlers(g: Graph, facts: list[dict], m: Metric) -> None:
    lenient = 0
    for f in facts:
        routes = g.routes(f["project"], f["component"], f["route"])
        tails = routes or g.routes(f["project"], f["component"], f["route"], lenient=True)
        ok, got = _handler(g, f, routes) if routes else (False, "")
        lenient += ok or (bool(tails) and _handler(g, f, tails)[0])
        if not routes:
            m.add(False, f["id"], "route missing", f"route {f['route']} not in graph")
        else:
            m.add(ok, f["id"], "other target" if got else "no ROUTES_TO", f"route → {got}")
    m.extra["if_route_found"] = lenient


def _chain(g: Graph, routes: list[dict]) -> list[dict]:
    edges = [e for r in routes for e in g.out[(r["id"], "USES_MIDDLEWARE")]]
    return sorted(edges, key=lambda e: e["attrs"].get("order") or 0)


def _elem_match(g: Graph, elem: dict, edge: dict) -> bool:
    """Name, and the edge's usage file:line (±1: a multi-line `app.use(`/`add_middleware(`)."""
    return (
        edge["file"] == elem["file"]
        and line_near(edge["line"], elem["line"], 1)
        and _name_match(str(elem["name"]), (g.nodes.get(edge["dst"]) or {}).get("name"))
    )


def _chain_text(g: Graph, edges: list[dict]) -> list[str]:
    return [f"{(g.nodes.get(e['dst']) or {}).get('name')}@{e['file']}:{e['line']}" for e in edges]


def score_middleware(g: Graph, facts: list[dict], elems: Metric, chains: Metric) -> None:
    lenient = 0
    for f in facts:
        chain = f.get("chain") or []
        routes = g.routes(f["project"], f["component"], f["route"])
        tails = routes or g.routes(f["project"], f["component"], f["route"], lenient=True)
        lenient += sum(any(_elem_match(g, el, e) for e in _chain(g, tails)) for el in chain)
        edges = _chain(g, routes)
        got = _chain_text(g, edges) if routes else "route missing"
        if not routes and tails:
            got += f"; prefix-less route has {_chain_text(g, _chain(g, tails))}"
        for i, el in enumerate(chain):
            ok = any(_elem_match(g, el, e) for e in edges)
            same_name = any(_elem_match(g, {**el, "line": e["line"]}, e) for e in edges)
            cause = "route missing" if not routes else "other line" if same_name else "missing"
            elems.add(ok, f"{f['id']}[{i}]", cause, f"{el['name']}@{el['file']}:{el['line']}")
        exact = bool(routes) and len(edges) == len(chain)
        exact = exact and all(_elem_match(g, el, e) for el, e in zip(chain, edges, strict=False))
        cause = "route missing" if not routes else "chain differs"
        chains.add(exact, f["id"], cause, f"truth has {len(chain)}; graph {got}")
    elems.extra["if_route_found"] = lenient


def _callees(g: Graph, sym_id: str) -> list[dict]:
    """CALLS_FN targets of a symbol, following `via alias` hops on to the definition."""
    out: list[dict] = []
    todo, seen = list(g.out[(sym_id, "CALLS_FN")]), {sym_id}
    while todo:
        dst = g.nodes.get(todo.pop()["dst"])
        if dst is None or dst["id"] in seen:
            continue
        seen.add(dst["id"])
        out.append(dst)
        todo += [a for a in g.out[(dst["id"], "CALLS_FN")] if a["attrs"].get("via") == "alias"]
    return out


def score_service_calls(g: Graph, facts: list[dict], m: Metric) -> None:
    """The handler symbol is the one enclosing the call line (or named as the caller)."""
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
        if not syms:
            m.add(
                False, f["id"], "no handler symbol", f"no symbol for {f['caller']} in {f['file']}"
            )
        else:
            cause = "other callees" if got else "no CALLS_FN from handler"
            m.add(ok, f["id"], cause, f"want {loc(d)}; callees {[loc(c) for c in got][:6]}")


def score_http_calls(g: Graph, facts: list[dict], m: Metric, exact: Metric, path: Metric) -> None:
    for f in facts:
        p, c = f["project"], f["component"]
        at = g.node_at(p, c, "http_call", f["file"], f["line"])
        same = [n for n in at if str(n["attrs"].get("method") or n["name"].split(" ")[0]).upper() == f["method"].upper()]  # fmt: skip
        if not same:
            at_hop = [h for h in f.get("hops") or [] if g.node_at(p, c, "http_call", h["file"], h["line"])]  # fmt: skip
            in_file = g.lines_in(p, c, "http_call", f["file"])
            cause = (
                "method differs" if at else "found at wrapper" if at_hop
                else "other line in file" if in_file else "no http_call in file"
            )  # fmt: skip
            wrappers = [f"{h['file']}:{h['line']}" for h in at_hop]
            m.add(
                False, f["id"], cause, f"http_call lines in file {in_file}; at wrapper {wrappers}"
            )
            continue
        m.add(True, f["id"])
        tb, tp = split_url(str(f["url"]))
        urls = [str(n["attrs"].get("url_template") or n["name"].partition(" ")[2]) for n in same]
        parts = [split_url(u) for u in urls]
        why = f"graph {urls} truth {f['url']}"
        path.add(any(q == tp for _, q in parts), f["id"], "path differs", why)
        exact.add(any(b == tb and q == tp for b, q in parts), f["id"], "template differs", why)


def score_calls(g: Graph, facts: list[dict], m: Metric, precision: Metric) -> None:
    sites: dict[tuple, list[dict]] = defaultdict(list)
    for f in facts:
        if f["kind"] in ("calls", "not_http_call"):
            sites[(f["project"], f["component"], f["file"], f["line"])].append(f)
        if f["kind"] != "calls":
            continue
        at = g.node_at(f["project"], f["component"], "http_call", f["file"], f["line"])
        if not at:
            m.add(False, f["id"], "no http_call at site", "")
            continue
        wanted = {r["id"] for r in g.routes(f["project"], f["target_component"], f["route"])}
        dsts = [e["dst"].split(":", 2)[-1] for s in at for e in g.out[(s["id"], "CALLS")]]
        got = {e["dst"] for s in at for e in g.out[(s["id"], "CALLS")]}
        cause = "target route missing" if not wanted else "other route" if got else "no CALLS edge"
        m.add(bool(wanted & got), f["id"], cause, f"want {f['route']}; CALLS → {dsts}")
    unknown = 0
    for e in g.edges:
        if e["type"] != "CALLS":
            continue
        src, dst = g.nodes.get(e["src"]) or {}, g.nodes.get(e["dst"]) or {}
        truth = sites.get((src.get("project"), src.get("component"), src.get("file"), src.get("line")))  # fmt: skip
        if not truth:
            unknown += 1
            continue
        ok = any(
            t["kind"] == "calls"
            and t["target_component"] == dst.get("component")
            and route_matches(t["route"], dst.get("name") or "")
            for t in truth
        )
        label = f"{src.get('project')}/{src.get('component')} {src.get('file')}:{src.get('line')} → {dst.get('name')}"  # fmt: skip
        cause = "wrong target" if any(t["kind"] == "calls" for t in truth) else "not an HTTP call"
        precision.add(ok, label, cause, "truth: " + "; ".join(t.get("route") or t["reason"] for t in truth))  # fmt: skip
    precision.extra["unknown"] = unknown


def score_env_reads(g: Graph, facts: list[dict], m: Metric) -> None:
    for f in facts:
        reads = g.by_type[(f["project"], f["component"], "READS_ENV")]
        edges = [e for e in reads if (g.nodes.get(e["dst"]) or {}).get("name") == f["name"]]
        ok = any(e["file"] == f["file"] and line_near(e["line"], f["line"]) for e in edges)
        got = [f"{e['file']}:{e['line']}" for e in edges][:5]
        cause = "read elsewhere" if edges else "no READS_ENV of the name"
        m.add(ok, f["id"], cause, f"{f['name']} at {f['file']}:{f['line']}; graph {got}")


def score_unresolved(g: Graph, facts: list[dict], m: Metric) -> None:
    for f in facts:
        rows = [
            u
            for u in g.unresolved
            if (u["project"], u["component"], u["file"])
            == (f["project"], f["component"], f["file"])
        ]
        ok = any(line_near(u["line"], f["line"]) and (u["reason"] or "").strip() for u in rows)
        made = g.node_at(f["project"], f["component"], "http_call", f["file"], f["line"])
        cause = "became http_call" if made else "other line" if rows else "nothing in file"
        m.add(ok, f["id"], cause, f"unresolved lines in file {sorted(u['line'] for u in rows)}")


def redirect_violations(g: Graph, facts: list[dict]) -> list[dict[str, str]]:
    return [
        {"fact": f["id"], "why": f"became http_call {n['name']}"}
        for f in facts
        if f["kind"] == "not_http_call"
        for n in g.node_at(f["project"], f["component"], "http_call", f["file"], f["line"])
    ]


def cross_project_violations(g: Graph) -> list[dict[str, str]]:
    """Edges whose ends belong to different projects (catalog and KB-level ends excepted)."""
    out = []
    for e in g.edges:
        a, b = (re.split(r"[/:]", x, maxsplit=1)[0] for x in (e["src"], e["dst"]))
        if a != b and not {a, b} & {GLOBAL, "_kb"}:
            out.append({"fact": f"{e['src']} -{e['type']}-> {e['dst']}", "why": "cross-project"})
    return out


def score_graph(data_dir: Path, facts: list[dict], projects: set[str] | None) -> dict[str, Any]:
    """Per-metric results; RECALL_METRICS feed graph_recall, SIDE_METRICS are reported beside."""
    g = Graph(data_dir, projects)
    kinds: dict[str, list[dict]] = defaultdict(list)
    for f in facts:
        kinds[f["kind"]].append(f)
    m = {n: Metric(n) for n in RECALL_METRICS + SIDE_METRICS}
    score_routes(g, kinds["route"], m["routes"], m["route_line"])
    score_handlers(g, kinds["handler"], m["handlers"])
    score_middleware(g, kinds["middleware"], m["middleware"], m["middleware_chain_exact"])
    score_service_calls(g, kinds["service_call"], m["service_calls"])
    score_http_calls(g, kinds["http_call"], m["http_calls"], m["http_url_exact"], m["http_url_path"])  # fmt: skip
    score_calls(g, facts, m["calls"], m["calls_precision"])
    score_env_reads(g, kinds["env_read"], m["env_reads"])
    score_unresolved(g, kinds["unresolved"], m["unresolved"])
    return {
        "metrics": {n: mm.as_dict() for n, mm in m.items()},
        "recall_metrics": RECALL_METRICS,
        "violations": {
            "redirects_as_calls": redirect_violations(g, facts),
            "cross_project_edges": cross_project_violations(g),
        },
        "graph": {
            "nodes": len(g.nodes),
            "edges": len(g.edges),
            "unresolved": len(g.unresolved),
            "problems (validation + extraction)": len(g.problems),
        },
    }
