"""The published code layer of the development portfolio, indexed for fact lookups.

`Graph` reads `nodes`, `edges` and `unresolved` of the project partitions with an
in-memory DuckDB; the helpers normalise route paths and URL templates so a ground-truth
fact and a graph name compare equal across framework parameter syntaxes. `Metric` counts
hits and keeps each miss with its fact id and one line of why.
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


def name_match(truth: str, graph: str) -> bool:
    a = re.sub(r"[^a-z0-9]", "", truth.lower())
    b = re.sub(r"[^a-z0-9]", "", (graph or "").lower())
    if not a or not b:
        return False
    last_t = re.sub(r"\(.*", "", truth).split(".")[-1].lower()
    last_g = re.sub(r"\(.*", "", graph).split(".")[-1].lower()
    return a == b or a in b or b in a or (last_t and last_t == last_g)
