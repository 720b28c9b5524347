"""Invariance: of the facts the build found before a rewrite, how many come out after it,
at the location the rewrite moved them to.

A fact before is mapped through its component's line map (each location to one or a few
candidates, ±1 line as in bench/accuracy.py) and looked up among the facts after by kind,
component and key: route name; http_call method and URL path; CALLS target route; env var
name; handler-call route. Placeholders a rewrite introduced for a literal (an env var with
that default) read as the literal. At risk are the facts of rewritten components, and the
CALLS whose target component was rewritten; the other components are a control whose
facts must not move at all. Family 12's expected facts add each alternative.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bench.accuracy_tables import norm_path, split_url
from bench.metamorphic.edits import Alternative, Loc, Rendered
from bench.metamorphic.facts import KINDS, Fact

MAX_MISSES = 25


@dataclass
class ComponentRewrite:
    """What the scorer needs to know of one rewritten component."""

    rendered: Rendered
    alternatives: list[Alternative] = field(default_factory=list)
    equivalent_bases: dict[str, str] = field(default_factory=dict)

    @property
    def changed(self) -> set[str]:
        return set(self.rendered.files)


@dataclass
class Tally:
    before: int = 0
    invariant: int = 0
    local_before: int = 0
    local_invariant: int = 0
    misses: list[dict[str, Any]] = field(default_factory=list)

    def add(self, ok: bool, local: bool, fact: Fact, why: str) -> None:
        self.before += 1
        self.invariant += ok
        self.local_before += local
        self.local_invariant += ok and local
        if not ok and len(self.misses) < MAX_MISSES:
            self.misses.append({"fact": fact.label(), "why": why})

    def as_dict(self) -> dict[str, Any]:
        return {
            "invariant": self.invariant, "before": self.before, "ratio": ratio(self.invariant, self.before),
            "in_rewritten_files": f"{self.local_invariant}/{self.local_before}",
            "misses": self.misses,
        }  # fmt: skip


def ratio(hits: int, total: int) -> float | None:
    return round(hits / total, 4) if total else None


def _substitute(template: str, equiv: dict[str, str]) -> str:
    if not equiv:
        return template
    return re.sub(r"\$?\{([^}]+)\}", lambda m: equiv.get(m.group(1).lower(), m.group(0)), template)


def http_parts(fact: Fact, equiv: dict[str, str]) -> tuple[str, str, str]:
    """(method, base, normalised path) of an http_call fact."""
    method, _, url = fact.a.partition(" ")
    base, path = split_url(_substitute(url, equiv))
    return method.upper(), base, path


def key(fact: Fact, equiv: dict[str, str]) -> tuple:
    if fact.kind == "http_calls":
        method, _, path = http_parts(fact, equiv)
        return (method, path)
    if fact.kind == "calls":
        return (fact.a, fact.b)
    return (fact.a,)


def locs(fact: Fact) -> list[Loc]:
    out = [Loc(fact.file, fact.line)]
    if fact.file2:
        out.append(Loc(fact.file2, fact.line2))
    return out


def near(got: Loc, wanted: set[Loc], tol: int = 1) -> bool:
    return any(got.file == w.file and abs(got.line - w.line) <= tol for w in wanted)


class After:
    """The facts after, indexed by (kind, project, component, key)."""

    def __init__(self, facts: list[Fact], equiv_by_comp: dict[tuple[str, str], dict[str, str]]):
        self.index: dict[tuple, list[Fact]] = defaultdict(list)
        self.at: dict[tuple, list[Fact]] = defaultdict(list)
        for f in facts:
            equiv = equiv_by_comp.get((f.project, f.component), {})
            self.index[(f.kind, f.project, f.component, key(f, equiv))].append(f)
            self.at[(f.project, f.component, f.file)].append(f)

    def find(
        self, kind: str, project: str, component: str, k: tuple, wanted: list[set[Loc]]
    ) -> Fact | None:
        for g in self.index.get((kind, project, component, k), []):
            got = locs(g)
            if len(got) == len(wanted) and all(
                near(a, w) for a, w in zip(got, wanted, strict=True)
            ):
                return g
        return None

    def nearby(self, fact: Fact, wanted: set[Loc]) -> str:
        """What the build has instead, at the place the fact should be (for the miss line)."""
        found = []
        for w in wanted:
            for g in self.at.get((fact.project, fact.component, w.file), []):
                if g.kind == fact.kind and abs(g.line - w.line) <= 1:
                    found.append(f"{g.a}{' ' + g.b if g.b else ''}")
        where = ", ".join(sorted(f"{w.file}:{w.line}" for w in wanted))
        return f"expected at {where}; there: {sorted(set(found))[:3] or 'nothing of this kind'}"


def mapped(fact: Fact, rw: ComponentRewrite | None) -> list[set[Loc]]:
    return [
        rw.rendered.map_line(loc.file, loc.line) if rw is not None else {loc} for loc in locs(fact)
    ]


def score_family(
    before: list[Fact], after: list[Fact], rewrites: dict[tuple[str, str], ComponentRewrite],
) -> dict[str, Any]:  # fmt: skip
    """Per-kind tallies over the components at risk, the control drift elsewhere, the
    family-12 alternatives, and the count of facts after that nothing predicted."""
    equiv = {c: rw.equivalent_bases for c, rw in rewrites.items()}
    index = After(after, equiv)
    tallies = {k: Tally() for k in KINDS}
    side = Tally()
    drift: list[str] = []
    matched: set[int] = set()
    for f in before:
        comp = (f.project, f.component)
        rw = rewrites.get(comp)
        at_risk = rw is not None or (f.kind == "calls" and (f.project, f.a) in rewrites)
        wanted = mapped(f, rw)
        found = index.find(f.kind, f.project, f.component, key(f, {}), wanted)
        if found is not None:
            matched.add(id(found))
        if not at_risk:
            if found is None:
                drift.append(f.label())
            continue
        local = rw is not None and any(loc.file in rw.changed for loc in locs(f))
        tallies[f.kind].add(
            found is not None, local, f, "" if found else index.nearby(f, wanted[0])
        )
        if f.kind == "http_calls":
            g = found or _any_at(index, f, wanted)
            same = g is not None and http_parts(g, equiv.get(comp, {})) == http_parts(f, {})
            side.add(same, local, f, "" if same else f"after: {g.a if g else 'no call'}")
    alternatives = _alternatives(before, index, rewrites, tallies)
    extra: dict[str, int] = defaultdict(int)
    for g in after:
        if (g.project, g.component) in rewrites and id(g) not in matched:
            extra[g.kind] += 1
    total_b = sum(t.before for t in tallies.values())
    total_i = sum(t.invariant for t in tallies.values())
    return {
        "invariance": ratio(total_i, total_b),
        "invariant": total_i,
        "before": total_b,
        "kinds": {k: t.as_dict() for k, t in tallies.items()},
        "side": {"http_url": side.as_dict()},
        "alternatives": alternatives,
        "new_facts_after": dict(sorted(extra.items())),
        "control_drift": {"count": len(drift), "facts": drift[:MAX_MISSES]},
    }


def _any_at(index: After, f: Fact, wanted: list[set[Loc]]) -> Fact | None:
    for w in wanted[0]:
        for g in index.at.get((f.project, f.component, w.file), []):
            if g.kind == f.kind and abs(g.line - w.line) <= 1:
                return g
    return None


def alternative_key(f: Fact, alt: Alternative) -> tuple | None:
    """The key of the fact the other literal of a family-12 site would produce."""
    if f.kind == "routes":
        method, _, path = f.a.partition(" ")
        if alt.what == "method":
            return (f"{alt.new} {path}",) if method.upper() == alt.old.upper() else None
        return (f"{method} {path}{'alt/' if path.endswith('/') else '/alt'}",)
    if f.kind == "http_calls":
        method, _, path = http_parts(f, {})
        if alt.what == "method":
            return (alt.new.upper(), path) if method == alt.old.upper() else None
        return (method, norm_path(path + "/alt"))
    return None


def _at_alternative(before: list[Fact], project: str, component: str, alt: Alternative):
    """The route and call facts of the rewritten lines; a line either side only when none is
    on them (a decorated function reported at its `def`), never a neighbouring registration's."""
    here = [
        f
        for f in before
        if (f.project, f.component, f.file) == (project, component, alt.file)
        and f.kind in ("routes", "http_calls")
        and alt.line - 1 <= f.line <= alt.end_line + 1
    ]
    exact = [f for f in here if alt.line <= f.line <= alt.end_line]
    return exact or here


def _alternatives(
    before: list[Fact], index: After, rewrites: dict, tallies: dict[str, Tally]
) -> dict[str, Any]:
    expected = found = with_condition = 0
    misses: list[dict[str, str]] = []
    for (project, component), rw in rewrites.items():
        for alt in rw.alternatives:
            for f in _at_alternative(before, project, component, alt):
                k = alternative_key(f, alt)
                if k is None:
                    continue
                expected += 1
                g = index.find(f.kind, project, component, k, mapped(f, rw))
                ok = g is not None
                found += ok
                with_condition += ok and "KB_META_ALT" in (g.attrs or "")
                tallies[f.kind].add(
                    ok,
                    True,
                    f,
                    "" if ok else f"alternative {alt.what} {alt.old} -> {alt.new} not found",
                )
                if not ok and len(misses) < MAX_MISSES:
                    misses.append(
                        {"fact": f.label(), "why": f"no {alt.what} alternative {alt.new}"}
                    )
    return {
        "expected": expected,
        "found": found,
        "with_condition": with_condition,
        "misses": misses,
    }
