"""Views planned as whole sections: each list is shown whole, compacter, or as one line.

A component or file view is a few sections ranked by information value (its own routes,
outbound calls by target, inbound calls, env reads and secrets, then the rest). Each
section comes in levels, richest first — full lines, compact lines, a grouped form, a
one-line summary — and the planner picks, for the budget at hand, the richest level of
every section, degrading the least valuable section first. So a list is never cut in
the middle ("… +14 more"): a reader sees every route, every target, in less detail.
What was made compacter is said on the answer's `collapsed:` line.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from mcp_server.budget import Answer

RESERVE = 30  # tokens kept free for a staleness note
RANK = {"full": 0, "compact": 1, "grouped": 2, "summary": 3, "drop": 4}
MAIN = 50  # sections of at least this value are the view's relationships; below, "the rest"
# the order in which detail gives way: the rest to one line, the relationships compacter,
# the rest left out, the relationships grouped, then to one line, then anything droppable
SCHEDULE = (
    (False, "summary"),
    (True, "compact"),
    (False, "drop"),
    (True, "grouped"),
    (True, "summary"),
    (True, "drop"),
)


@dataclass
class Section:
    """One titled list. `levels` are (level name, the whole section's lines), richest
    first, named full / compact / grouped / summary; `value` ranks it (higher survives
    longer); a `keep` section is never left out."""

    name: str
    levels: list[tuple[str, list[str]]]
    value: int
    keep: bool = True
    level: int = field(default=0, init=False)

    def lines(self) -> list[str]:
        return self.levels[self.level][1] if self.level < len(self.levels) else []

    def lower_to(self, target: str) -> bool:
        """Step down to the richest level at least as compact as `target` ("drop": leave
        the section out unless it is kept); False when there is no such step."""
        want = RANK[target]
        if want == RANK["drop"]:
            if self.keep or self.level >= len(self.levels):
                return False
            self.level = len(self.levels)
            return True
        steps = [i for i, (n, _) in enumerate(self.levels) if i > self.level and RANK[n] >= want]
        if not steps or self.level >= len(self.levels):
            return False
        self.level = steps[0]
        return True


def levels(**named: list[str]) -> list[tuple[str, list[str]]]:
    """(name, lines) pairs in full → summary order, the empty ones left out."""
    return [(k, v) for k in ("full", "compact", "grouped", "summary") if (v := named.get(k))]


def _tokens(lines: list[str]) -> int:
    total = sum(len(s.encode("utf-8")) + 1 for s in lines)
    return math.ceil(max(total - 1, 0) / 3)


def _used(ans: Answer) -> int:
    return _tokens([ln.indent + ln.text for ln in ans.lines])


def _cut(sections: list[Section]) -> list[str]:
    """What the answer's `collapsed:` line says of the sections shown in less detail."""
    out = []
    for s in sections:
        if s.level:
            shown = s.levels[s.level][0] if s.level < len(s.levels) else "left out"
            out.append(f"{s.name} {'one line' if shown == 'summary' else shown}")
    return out


def plan(ans: Answer, sections: list[Section], budget: int | None = None) -> None:
    """Add the sections to the answer at the richest levels that fit its budget."""
    sections = [s for s in sections if s.levels and s.levels[0][1]]
    limit = (budget or ans.budget) - RESERVE - _used(ans)

    def cost() -> int:
        cut = _cut(sections) + ans.cut
        tail = ["collapsed: " + "; ".join(cut)] if cut else []
        return _tokens([ln for s in sections for ln in s.lines()] + tail)

    order = sorted(sections, key=lambda s: s.value)
    for main, target in SCHEDULE:
        for s in order:
            if cost() <= limit:
                break
            if (s.value >= MAIN) == main:
                s.lower_to(target)
    for s in sorted(sections, key=lambda s: -s.value):  # give back what still fits
        while s.level > 0:
            s.level -= 1
            if cost() > limit:
                s.level += 1
                break
    for s in sections:
        for text in s.lines():
            ans.add(text)
    ans.cut.extend(_cut(sections))


def scratch(render: Callable[[Answer], None]) -> list[str]:
    """The lines an existing renderer would add, as plain text (indent included)."""
    tmp = Answer()
    render(tmp)
    return [ln.indent + ln.text for ln in tmp.lines]
