"""The answer score: what an agent reads from `kb_trace` over MCP, judged by the rules of the
benchmark's answers.py. Every argument comes from a truth START point (its file:line), never
from what should be found.

- trace_down: from each frontend call site whose endpoint the backend serves; correct when
  the answer names the route (METHOD + normalised path) and its registration `file:line`
  (±3), attributed to `api`;
- trace_up: from each served route the frontend calls; correct when the answer names one of
  the endpoint's call sites (±2), attributed to `web`;
- negatives: up to 3 served routes per project the frontend never calls; correct when no
  `P/web path:line` is claimed and the answer says no / none per the static graph.
Lines that list what could hide an edge (`unresolved …`) neither find nor claim anything.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field

from bench.realworld_score.truth import (
    CALL_TOL,
    ENDPOINTS,
    ROUTE_TOL,
    Benchmark,
    norm_path,
    sites_of,
)

METHODS = r"GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS"
ROUTE_RX = re.compile(r"(?<![A-Za-z])(" + METHODS + r")\s+(/[^\s,;()'\"`|]*)")
PATHCH = r"[\w.\-/\[\]@~+]"
LINESPEC = r"\d+(?:\s?[-\u2013]\s?\d+)?(?:,\s?\d+(?:\s?[-\u2013]\s?\d+)?)*"
SAYS_NO = re.compile(
    r"(?i)\bno\b[^\n]{0,60}\bper the static graph\b|\bno (?:callers?|edges?|calls?|path)\b|\bnone\b"
)
MAX_RANGE, NEGATIVES_PER_PROJECT = 10, 3


def tokens(text: str) -> int:
    return math.ceil(len(text.encode("utf-8")) / 3)


@dataclass
class Question:
    kind: str  # trace_down | trace_up | negatives
    project: str
    endpoint: str
    start: str  # file:line
    direction: str
    web_framework: str
    api_framework: str
    prefixes: dict[str, set[str]]  # component -> the spellings that name it
    want_route: tuple[str, str] | None = None
    want_sites: tuple[str, list[tuple[str, set[int]]]] | None = None
    expected: str = ""

    @property
    def args(self) -> dict:
        return {"start": self.start, "project": self.project, "direction": self.direction}


@dataclass
class Answer:
    """One response's text with its `project/component` mentions, for attribution."""

    text: str
    project: str
    prefixes: dict[str, set[str]]
    starts: list[int] = field(init=False)
    mentions: list[tuple[int, str]] = field(init=False)

    def __post_init__(self) -> None:
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", self.text)]
        rx = re.compile(r"(?<![\w.\-/])" + re.escape(self.project) + r"/(api|web)(?![\w\-])")
        self.mentions = [(m.start(), m.group(1)) for m in rx.finditer(self.text)]

    def line_of(self, pos: int) -> tuple[int, int]:
        s = max(i for i in self.starts if i <= pos)
        e = self.text.find("\n", s)
        return s, len(self.text) if e < 0 else e

    def hint(self, pos: int) -> bool:
        s, e = self.line_of(pos)
        return self.text[s:e].lstrip().startswith("unresolved ")

    def component_at(self, rel: str, pos: int) -> str | None:
        i = pos
        while i > 0 and re.match(PATHCH, self.text[i - 1]):
            i -= 1
        prefix = self.text[i:pos]
        if prefix:
            if not prefix.endswith("/"):
                return None  # part of a longer path
            pre = prefix.rstrip("/")
            hits = [
                c
                for c, names in self.prefixes.items()
                if any(pre == n or pre.endswith("/" + n) for n in names)
            ]
            return hits[0] if len(hits) == 1 else None
        s, e = self.line_of(pos)
        before = [c for p, c in self.mentions if s <= p < pos]
        after = [c for p, c in self.mentions if pos < p < e]
        above = [c for p, c in self.mentions if p < s]
        return (before[-1:] or after[:1] or above[-1:] or [None])[0]

    def names_site(self, component: str, rel: str, lines: set[int]) -> bool:
        rx = re.compile(re.escape(rel) + r"(?::|#L)(" + LINESPEC + r")(?!\d)")
        for m in rx.finditer(self.text):
            if self.hint(m.start()):
                continue
            spans = []
            for part in re.split(r"\s*,\s*", m.group(1)):
                a, _, b = re.sub(r"\s", "", part).replace("\u2013", "-").partition("-")
                spans.append((int(a), int(b or a)))
            if any(a <= n <= b and b - a < MAX_RANGE for a, b in spans for n in lines) and (
                self.component_at(rel, m.start()) == component
            ):
                return True
        return False

    def routes(self) -> set[tuple[str, str]]:
        return {
            (m.group(1).upper(), norm_path(m.group(2).split("?")[0].rstrip(".:,;")))
            for m in ROUTE_RX.finditer(self.text)
            if not self.hint(m.start())
        }

    def claims_web(self) -> list[str]:
        rx = re.compile(
            r"(?<![\w.\-/])" + re.escape(self.project) + r"/web[ /]" + PATHCH + r"+:\d+"
        )
        return [m.group(0) for m in rx.finditer(self.text) if not self.hint(m.start())]


def site_lines(item: dict, tol: int) -> list[tuple[str, set[int]]]:
    out = []
    for s in sites_of(item):
        base = [s["line"]] + ([s["path_line"]] if s.get("path_line") else [])
        out.append((s["file"], {n + d for n in base for d in range(-tol, tol + 1)}))
    return out


def plan(bench: Benchmark) -> list[Question]:
    questions: list[Question] = []
    for p in bench.projects:
        common = {
            "project": p.id,
            "web_framework": p.web["framework"],
            "api_framework": p.api["framework"],
            "prefixes": {
                c: {f"{p.id}/{c}", c, slug}
                for c, slug in (("api", p.api["slug"]), ("web", p.web["slug"]))
            },
        }
        served = {r["endpoint"]: r for r in p.api_truth["routes"] if not r.get("unreachable")}
        called: dict[str, list[dict]] = defaultdict(list)
        for c in p.web_truth["calls"]:
            called[c["endpoint"]].append(c)
        for c in p.web_truth["calls"]:
            r = served.get(c["endpoint"])
            if r is None:
                continue
            questions.append(
                Question(
                    "trace_down",
                    endpoint=c["endpoint"],
                    start=f"{c['file']}:{c['line']}",
                    direction="down",
                    want_route=(r["method"].upper(), norm_path(r["path"])),
                    want_sites=("api", site_lines(r, ROUTE_TOL)),
                    expected=f"{r['method']} {r['path']} at {r['file']}:{r['line']}",
                    **common,
                )
            )
        for r in p.api_truth["routes"]:
            if r.get("unreachable") or r["endpoint"] not in called:
                continue
            sites = [s for c in called[r["endpoint"]] for s in site_lines(c, CALL_TOL)]
            questions.append(
                Question(
                    "trace_up",
                    endpoint=r["endpoint"],
                    start=f"{r['file']}:{r['line']}",
                    direction="up",
                    want_sites=("web", sites),
                    expected=", ".join(f"{c['file']}:{c['line']}" for c in called[r["endpoint"]]),
                    **common,
                )
            )
        never = [ep for ep in ENDPOINTS if ep in served and ep not in called]
        for ep in never[:NEGATIVES_PER_PROJECT]:
            r = served[ep]
            questions.append(
                Question(
                    "negatives",
                    endpoint=ep,
                    start=f"{r['file']}:{r['line']}",
                    direction="up",
                    expected=f"no caller in {p.id}/web",
                    **common,
                )
            )
    return questions


def judge(q: Question, text: str) -> tuple[bool, str]:
    """(correct, why not)."""
    answer = Answer(text, q.project, q.prefixes)
    if q.kind == "negatives":
        claims = answer.claims_web()
        if claims:
            return False, "claims " + ", ".join(claims[:3])
        if SAYS_NO.search(text):
            return True, ""
        return False, "no claim, but no 'no / none per the static graph'"
    component, sites = q.want_sites or ("", [])
    site_ok = any(answer.names_site(component, rel, lines) for rel, lines in sites)
    if q.kind == "trace_up":
        return site_ok, "" if site_ok else "no truth call site named"
    route_ok = q.want_route in answer.routes()
    why = [
        w
        for w, ok in (("route not named", route_ok), ("registration not named", site_ok))
        if not ok
    ]
    return route_ok and site_ok, "; ".join(why)
