"""The published tables of the portfolio build, indexed for ground-truth lookups.

Reads `nodes`, `edges` and `unresolved` of the project partitions with an in-memory DuckDB
over the Parquet the manifest names (warehouse.reader), and the normalisation rules the
accuracy benchmark compares with: route parameters in any framework syntax, URL templates.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warehouse.reader import GLOBAL, Warehouse, parse_attrs

# framework parameter syntaxes → one placeholder: [[...slug]] [...slug] [id] <int:id> <id>
# {id} {id:int} ${id} :id :id? and Django's (?P<pk>[^/.]+)
_PARAM = re.compile(
    r"\(\?P<[^>]+>[^)]*\)|\[\[?\.{0,3}[^\]/]+\]?\]|<[^>/]+>|\$\{[^}]+\}|\{[^}/]+\}"
    r"|(?<=/):[A-Za-z_]\w*\??"
)
ANY_METHOD = ("ANY", "ALL", "*")


def norm_path(path: str) -> str:
    """A URL path with every parameter as `{}`, no query, no trailing slash, lower case."""
    path = _PARAM.sub("{}", path.strip().split("?", 1)[0].split("#", 1)[0])
    return ("/" + re.sub(r"/{2,}", "/", path).strip("/")).lower()


def norm_route(name: str) -> tuple[str, str]:
    method, _, path = (name or "").strip().partition(" ")
    return method.upper(), norm_path(path)


def route_matches(truth: str, graph_name: str) -> bool:
    """Same normalised path, and the same method or a graph route that takes any method."""
    (tm, tp), (gm, gp) = norm_route(truth), norm_route(graph_name)
    return tp == gp and (tm == gm or gm in ANY_METHOD)


def split_url(template: str) -> tuple[str, str]:
    """(base, normalised path) of a URL template; base is a leading `{NAME}` or scheme://host."""
    m = re.match(r"(\$?\{[^}]+\}|[a-z]+://[^/]+)(.*)$", template.strip(), re.I)
    base, rest = (m.group(1), m.group(2)) if m else ("", template.strip())
    return base.strip("${}").lower(), norm_path(rest)


def line_near(a: Any, b: Any, tol: int = 0) -> bool:
    return a is not None and b is not None and abs(int(a) - int(b)) <= tol


def loc(n: dict) -> str:
    return f"{n.get('name')}@{n.get('file')}:{n.get('line')}"


@dataclass
class Metric:
    """hits/total of one metric; each miss keeps its fact id, a cause tag and one line of why."""

    name: str
    hits: int = 0
    total: int = 0
    misses: list[dict[str, str]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    per_project: dict[str, list[int]] = field(default_factory=dict)

    def add(self, ok: bool, fact_id: str, cause: str = "", why: str = "") -> bool:
        self.total += 1
        self.hits += bool(ok)
        cell = self.per_project.setdefault(fact_id.split("/", 1)[0], [0, 0])
        cell[0] += bool(ok)
        cell[1] += 1
        if not ok:
            self.misses.append({"fact": fact_id, "cause": cause, "why": why})
        return bool(ok)

    def as_dict(self) -> dict[str, Any]:
        causes = Counter(m["cause"] for m in self.misses)
        return {
            "hits": self.hits,
            "total": self.total,
            "recall": round(self.hits / self.total, 4) if self.total else None,
            **self.extra,
            "by_project": {p: f"{h}/{t}" for p, (h, t) in sorted(self.per_project.items())},
            "causes": dict(causes.most_common()),
            "misses": self.misses,
        }


class Graph:
    """The code layer of the project partitions (plus _global), indexed by kind and edge."""

    def __init__(self, data_dir: Path, projects: set[str] | None) -> None:
        wh = Warehouse(data_dir)
        parts = [p for p in wh.partitions() if p != GLOBAL]
        self.projects = [p for p in parts if projects is None or p in projects]
        con = wh.connect(self.projects + [GLOBAL])
        self.nodes = {n["id"]: n for n in self._rows(con, "nodes", NODE_COLS)}
        self.edges = self._rows(con, "edges", EDGE_COLS)
        self.unresolved = self._rows(con, "unresolved", UNRESOLVED_COLS)
        self.problems = self._rows(con, "problems", ["severity", "path", "line", "rule"])
        self.by_kind: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
        for n in self.nodes.values():
            self.by_kind[(n["project"], n["component"], n["kind"])].append(n)
        self.out: dict[tuple[str, str], list[dict]] = defaultdict(list)
        self.by_type: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
        for e in self.edges:
            self.out[(e["src"], e["type"])].append(e)
            self.by_type[(e["project"], e["component"], e["type"])].append(e)

    @staticmethod
    def _rows(con: Any, table: str, cols: list[str]) -> list[dict]:
        try:
            rows = con.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall()
        except Exception:  # noqa: BLE001 — a table no partition published
            return []
        out = [dict(zip(cols, r, strict=True)) for r in rows]
        for row in out:
            if "attrs" in row:
                row["attrs"] = parse_attrs(row["attrs"])
        return out

    def routes(self, project: str, component: str, route: str, lenient: bool = False) -> list[dict]:
        """Route nodes matching `route`; `lenient`: else those whose path is a tail of it
        (the same route with a mount prefix lost)."""
        method, path = norm_route(route)
        found, tails = [], []
        for n in self.by_kind[(project, component, "route")]:
            m, p = norm_route(n["name"])
            if m == method or m in ANY_METHOD:
                if p == path:
                    found.append(n)
                elif lenient and p != "/" and path.endswith(p):
                    tails.append(n)
        return found or tails

    def why_no_route(self, project: str, component: str, fact: dict) -> tuple[str, str]:
        """(cause, why) for a route fact the graph lacks, naming what it has instead."""
        route = f"{fact['method']} {fact['path']}"
        method, path = norm_route(route)
        names = [n["name"] for n in self.by_kind[(project, component, "route")]]
        if not names:
            return "no routes in component", f"no route nodes at all in {project}/{component}"
        tails = self.routes(project, component, route, lenient=True)
        if tails:
            return "mount prefix lost", f"graph has {tails[0]['name']!r}"
        there = [
            n["name"]
            for n in self.node_at(project, component, "route", fact["file"], fact["line"], 3)
            if norm_route(n["name"])[0] in (method, *ANY_METHOD)
        ]
        if there:  # e.g. `router.route('/')` under a mount: the graph kept only the tail
            return "mount prefix lost", f"graph has {there[0]!r} within 3 lines"
        for name in names:
            if norm_route(name)[1] == path:
                return "other method", f"graph has {name!r}"
        close = difflib.get_close_matches(f"{method} {path}", names, n=1, cutoff=0.5)
        return "path differs", f"nearest {close[0]!r}" if close else f"{len(names)} routes"

    def node_at(
        self, project: str, component: str, kind: str, file: str, line: int, tol: int = 0
    ) -> list[dict]:
        return [
            n
            for n in self.by_kind[(project, component, kind)]
            if n["file"] == file and line_near(n["line"], line, tol)
        ]

    def lines_in(self, project: str, component: str, kind: str, file: str) -> list[int]:
        nodes = self.by_kind[(project, component, kind)]
        return sorted(n["line"] for n in nodes if n["file"] == file)


NODE_COLS = ["id", "project", "component", "kind", "name", "file", "line", "end_line", "attrs"]
EDGE_COLS = ["src", "dst", "type", "project", "component", "file", "line", "attrs"]
UNRESOLVED_COLS = ["project", "component", "file", "line", "kind", "expr", "reason"]
