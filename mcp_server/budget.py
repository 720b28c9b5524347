"""Fit an answer into its token budget without ever cutting a line in half.

An answer is a list of `Line`s. Each line knows how droppable it is (`prio`: 0 is
kept to the end, higher goes first), which edge type it lists (`group`), and the
directory of the file it names when it is a file (`fold`). Over budget we collapse in
the order the spec fixes — fold files by directory, group edges by type (keep the
first few of each type, count the rest), then drop the most distant nodes — and end
with one `collapsed: ...` line saying what was cut. Tokens are `kb.tokens`' rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from kb.tokens import estimate_tokens

MIN_BUDGET = 150
MAX_BUDGET = 50_000
GROUP_CAPS = (20, 10, 5, 3, 1)


@dataclass
class Line:
    text: str
    prio: int = 0
    group: str | None = None
    fold: str | None = None
    indent: str = ""
    section: int = 0  # one of several starts answered together: its groups are its own


@dataclass
class Answer:
    """Lines of a tool answer plus what it drew from (for staleness)."""

    lines: list[Line] = field(default_factory=list)
    components: set[str] = field(default_factory=set)  # "project/component"
    notes: list[str] = field(default_factory=list)
    budget: int = 2000  # the answer's token budget (set before the tool builds it)
    cut: list[str] = field(default_factory=list)  # what the tool itself left out (collapsed:)
    section: int = 0  # bumped per start when one answer traces several (each keeps its own)

    def add(
        self,
        text: str,
        prio: int = 0,
        group: str | None = None,
        fold: str | None = None,
        indent: str = "",
    ) -> None:
        for part in text.splitlines() or [""]:
            self.lines.append(Line(part, prio, group, fold, indent, self.section))

    def touch(self, project: str | None, component: str | None) -> None:
        if project and component:
            self.components.add(f"{project}/{component}")


def clamp_budget(budget: int | None, default: int) -> tuple[int, str | None]:
    """The budget to use and, when the asked one was out of range, a note saying so."""
    if budget is None:
        return max(MIN_BUDGET, min(MAX_BUDGET, default)), None
    if budget < MIN_BUDGET:
        return MIN_BUDGET, f"budget {budget} is below the minimum; clamped to {MIN_BUDGET}"
    if budget > MAX_BUDGET:
        return MAX_BUDGET, f"budget {budget} is above the maximum; clamped to {MAX_BUDGET}"
    return budget, None


def _bytes(lines: list[Line]) -> int:
    return sum(len((ln.indent + ln.text).encode("utf-8")) + 1 for ln in lines)


def _fits(lines: list[Line], extra: str, budget: int) -> bool:
    total = _bytes(lines) + (len(extra.encode("utf-8")) + 1 if extra else 0)
    return math.ceil(max(total - 1, 0) / 3) <= budget


def _collapsed_line(notes: list[str]) -> str:
    return "collapsed: " + "; ".join(notes) if notes else ""


def _fold_dirs(lines: list[Line]) -> tuple[list[Line], str | None]:
    buckets: dict[tuple[str | None, str, str, int], list[int]] = {}
    for i, ln in enumerate(lines):
        if ln.fold is not None:
            buckets.setdefault((ln.group, ln.fold, ln.indent, ln.section), []).append(i)
    folds = {k: v for k, v in buckets.items() if len(v) >= 2}
    if not folds:
        return lines, None
    first_of = {v[0]: (k, len(v)) for k, v in folds.items()}
    folded = {i for v in folds.values() for i in v[1:]}
    out: list[Line] = []
    files = 0
    for i, ln in enumerate(lines):
        if i in folded:
            continue
        if i in first_of:
            (group, folder, indent, _), n = first_of[i]
            files += n
            label = f"{group} " if group else ""
            out.append(Line(f"{label}{folder or '.'}/ ({n} files)", ln.prio, group, None, indent))
        else:
            out.append(ln)
    return out, f"{files} files folded into {len(folds)} directories"


def _group_cap(lines: list[Line], cap: int) -> tuple[list[Line], str | None]:
    """Keep the `cap` most important lines of each edge type; count the rest."""
    members: dict[tuple[str, str, int], list[int]] = {}
    for i, ln in enumerate(lines):
        if ln.group is not None and ln.prio > 0:
            members.setdefault((ln.group, ln.indent, ln.section), []).append(i)
    hidden: dict[tuple[str, str, int], list[int]] = {}
    for key, idx in members.items():
        if len(idx) > cap:
            ranked = sorted(idx, key=lambda i: (lines[i].prio, i))
            hidden[key] = sorted(ranked[cap:])
    if not hidden:
        return lines, None
    gone = {i for v in hidden.values() for i in v}
    marker = {v[-1]: key for key, v in hidden.items()}
    out: list[Line] = []
    for i, ln in enumerate(lines):
        if i in marker:
            group, indent, sect = marker[i]
            out.append(
                Line(f"… +{len(hidden[marker[i]])} more {group}", 50, None, None, indent, sect)
            )
        elif i not in gone:
            out.append(ln)
    total = len(gone)
    types = ", ".join(sorted({k[0] for k in hidden}))
    return out, f"{total} edges grouped by type ({types})"


def _drop(lines: list[Line], budget: int, notes: list[str]) -> tuple[list[Line], int]:
    order = sorted(
        (i for i, ln in enumerate(lines) if ln.prio > 0),
        key=lambda i: (-lines[i].prio, -i),
    )

    def attempt(k: int) -> list[Line]:
        gone = set(order[:k])
        return [ln for i, ln in enumerate(lines) if i not in gone]

    def note(k: int) -> str:
        return _collapsed_line([*notes, f"{k} distant lines dropped"])

    lo, hi = 0, len(order)
    if not _fits(attempt(hi), note(hi), budget):
        return attempt(hi), hi
    while lo < hi:
        mid = (lo + hi) // 2
        if _fits(attempt(mid), note(mid), budget):
            hi = mid
        else:
            lo = mid + 1
    return attempt(lo), lo


def fit(answer: Answer, budget: int) -> str:
    """The answer's text within `budget` tokens (budget already clamped)."""
    head = [Line(n) for n in answer.notes]
    lines = head + answer.lines
    notes: list[str] = list(answer.cut)
    if _fits(lines, _collapsed_line(notes), budget):
        return _join(lines, notes)
    lines, note = _fold_dirs(lines)
    if note:
        notes.append(note)
    base, base_notes = lines, list(notes)
    for cap in GROUP_CAPS:
        if _fits(lines, _collapsed_line(notes), budget):
            return _join(lines, notes)
        grouped, note = _group_cap(base, cap)
        if note:
            lines, notes = grouped, [*base_notes, note]
    if _fits(lines, _collapsed_line(notes), budget):
        return _join(lines, notes)
    lines, dropped = _drop(lines, budget, notes)
    if dropped:
        notes.append(f"{dropped} distant lines dropped")
    while len(lines) > 1 and not _fits(lines, _collapsed_line(notes), budget):
        lines.pop()  # only must-keep lines are left: cut whole lines from the end
        if not any("trailing" in n for n in notes):
            notes.append("trailing lines cut")
    return _join(lines, notes)


def _join(lines: list[Line], notes: list[str] | None = None) -> str:
    text = "\n".join(ln.indent + ln.text for ln in lines)
    tail = _collapsed_line(notes or [])
    return text + ("\n" + tail if tail else "")


def within(text: str, budget: int) -> bool:
    return estimate_tokens(text) <= budget
