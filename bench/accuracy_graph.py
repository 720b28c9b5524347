"""Graph recall of the development portfolio, scored from the published tables alone.

Reads `nodes`, `edges` and `unresolved` of every project partition with an in-memory
DuckDB over the Parquet the manifest names, and checks each ground-truth fact
(bench/corpus/truth/*.yaml) against them. Every miss keeps its fact id and one line of
why, with the nearest thing the graph has, so whoever fixes an extractor sees the pattern.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warehouse.reader import GLOBAL, Warehouse, parse_attrs

# framework parameter syntaxes → one placeholder: [[...slug]] [...slug] [id] <int:id> <id>
# {id} {id:int} ${id} :id :id? and Django's (?P<pk>[^/.]+)
_PARAM = re.compile(
    r"\(\?P<[^>]+>[^)]*\)|\[\[?\.{0,3}[^\]/]+\]?\]|<[^>/]+>|\$\{[^}]+\}|\{[^}/]+\}|(?<=/):[A-Za-z_]\w*\??"
)


def norm_path(path: str) -> str:
    """A URL path with every parameter as `{}`, no query, no trailing slash, lower case."""
    path = path.strip().split("?", 1)[0].split("#", 1)[0]
    path = _PARAM.sub("{}", path)
    path = "/" + re.sub(r"/{2,}", "/", path).strip("/")
    return path.lower()


def norm_route(name: str) -> tuple[str, str]:
    method, _, path = name.strip().partition(" ")
    return method.upper(), norm_path(path)


def split_url(template: str) -> tuple[str, str]:
    """(base, normalised path) of a URL template: base is a leading `{NAME}` or scheme://host."""
    t = template.strip()
    m = re.match(r"(\{[^}]+\}|\$\{[^}]+\}|[a-z]+://[^/]+)(.*)$", t, re.I)
    base, rest = (m.group(1), m.group(2)) if m else ("", t)
    base = base.strip("${}").lower()
    return base, norm_path(rest)


def route_matches(truth: str, graph_name: str) -> bool:
    """Same normalised path, and same method or a graph route that takes any method."""
    (tm, tp), (gm, gp) = norm_route(truth), norm_route(graph_name or "")
    return tp == gp and (tm == gm or gm in ("ANY", "ALL", "*"))


def line_near(a: Any, b: Any, tol: int = 0) -> bool:
    return a is not None and b is not None and abs(int(a) - int(b)) <= tol


@dataclass
class Metric:
    name: str
    hits: int = 0
    total: int = 0
    misses: list[dict[str, str]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def add(self, ok: bool, fact_id: str, why: str = "") -> bool:
        self.total += 1
        self.hits += ok
        if not ok:
            self.misses.append({"fact": fact_id, "why": why})
        return ok

    def as_dict(self) -> dict[str, Any]:
        recall = round(self.hits / self.total, 4) if self.total else None
        return (
            {"hits": self.hits, "total": self.total, "recall": recall}
            | self.extra
            | {"misses": self.misses}
        )


class Graph:
    """The code layer of the project partitions, indexed for fact lookups."""

    def __init__(self, data_dir: Path, projects: set[str] | None) -> None:
        wh = Warehouse(data_dir)
        parts = [p for p in wh.partitions() if p != GLOBAL]
        self.projects = [p for p in parts if projects is None or p in projects]
        con = wh.connect(self.projects + [GLOBAL])
        cols = "id, project, component, kind, name, file, line, end_line, attrs"
        self.nodes: dict[str, dict] = {}
        for row in con.execute(f"SELECT {cols} FROM nodes").fetchall():
            node = dict(zip(cols.split(", "), row, strict=True))
            node["attrs"] = parse_attrs(node["attrs"])
            self.nodes[node["id"]] = node
        ecols = "src, dst, type, project, component, file, line, attrs"
        self.edges = [
            dict(zip(ecols.split(", "), r, strict=True))
            for r in con.execute(f"SELECT {ecols} FROM edges").fetchall()
        ]
        for e in self.edges:
            e["attrs"] = parse_attrs(e["attrs"])
        ucols = "project, component, file, line, kind, expr, reason"
        try:
            rows = con.execute(f"SELECT {ucols} FROM unresolved").fetchall()
        except Exception:  # noqa: BLE001 — no unresolved table published at all
            rows = []
        self.unresolved = [dict(zip(ucols.split(", "), r, strict=True)) for r in rows]
        self.by_kind: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
        for n in self.nodes.values():
            self.by_kind[(n["project"], n["component"], n["kind"])].append(n)
        self.out: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for e in self.edges:
            self.out[(e["src"], e["type"])].append(e)

    def routes(self, project: str, component: str, route: str, lenient: bool = False) -> list[dict]:
        """Route nodes whose normalised `METHOD /path` equals `route` (ANY/ALL match any method).
        `lenient`: when none does, those whose path is a tail of it (a mount prefix lost)."""
        method, path = norm_route(route)
        found, tails = [], []
        for n in self.by_kind[(project, component, "route")]:
            m, p = norm_route(n["name"] or "")
            if m == method or m in ("ANY", "ALL", "*"):
                if p == path:
                    found.append(n)
                elif lenient and p != "/" and path.endswith(p):
                    tails.append(n)
        return found or tails

    def nearest_route(self, project: str, component: str, route: str) -> str:
        method, path = norm_route(route)
        names = [n["name"] for n in self.by_kind[(project, component, "route")]]
        if not names:
            return f"no route nodes at all in {project}/{component}"
        for name in names:  # same path under a missing mount prefix, or another method
            m, p = norm_route(name)
            if p != "/" and path.endswith(p) and m in (method, "ANY"):
                return f"graph has {name!r} (mount prefix lost?)"
        for name in names:
            if norm_route(name)[1] == path:
                return f"graph has {name!r} (other method)"
        close = difflib.get_close_matches(f"{method} {path}", names, n=1, cutoff=0.5)
        return f"nearest {close[0]!r}" if close else f"{len(names)} routes, none close"

    def node_at(
        self, project: str, component: str, kind: str, file: str, line: int, tol: int = 0
    ) -> list[dict]:
        return [
            n
            for n in self.by_kind[(project, component, kind)]
            if n["file"] == file and line_near(n["line"], line, tol)
        ]

    def lines_in(self, project: str, component: str, kind: str, file: str) -> list[int]:
        return sorted(
            n["line"] for n in self.by_kind[(project, component, kind)] if n["file"] == file
        )


def _name_match(truth: str, graph: str) -> bool:
    a = re.sub(r"[^a-z0-9]", "", truth.lower())
    b = re.sub(r"[^a-z0-9]", "", (graph or "").lower())
    if not a or not b:
        return False
    last_t = re.sub(r"\(.*", "", truth).split(".")[-1].lower()
    last_g = re.sub(r"\(.*", "", graph).split(".")[-1].lower()
    return a == b or a in b or b in a or (last_t and last_t == last_g)


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
        and _name_match(str(elem["name"]), dst.get("name") or "")
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
