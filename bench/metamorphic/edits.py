"""Byte edits on a component's files, rendered once, with a record of where each line went.

A family describes a rewrite as `Edit`s (replace bytes [start, end) of one original file)
and `NewFile`s. A replacement is a list of parts: text, or a `Piece` — a verbatim range of
an original file. Pieces are how the map knows where moved code went: an original line
maps to where its bytes landed (unchanged, or inside a piece placed in the same or another
file); a line rewritten without a piece maps to the start of its replacement, to where
the edit's next piece went, and to any `alt_lines` the family names (a registration moved
into a loop may be reported at the loop's call).
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Piece:
    """Verbatim bytes [start, end) of `file` (the edit's own file when None)."""

    start: int
    end: int
    file: str | None = None


Part = str | Piece


@dataclass
class Edit:
    file: str
    start: int
    end: int
    parts: list[Part]
    # lines (1-based, in the rendered file) where what this edit replaced may also be found;
    # given as markers: the index of a text part whose first line is meant
    alt_parts: tuple[int, ...] = ()


@dataclass
class NewFile:
    rel: str
    parts: list[Part]
    origin: str = ""  # the file a Piece without `file` comes from


@dataclass(frozen=True)
class Loc:
    file: str
    line: int


@dataclass
class Site:
    """One place a family rewrote: original file:line and what was done."""

    file: str
    line: int
    note: str


@dataclass
class Alternative:
    """Family 12: a literal that now has a second value chosen at run time. Original
    lines `line`..`end_line` (the registration or call, to the literal); `what` is
    "method" or "path"."""

    file: str
    line: int
    what: str
    old: str
    new: str
    end_line: int


@dataclass
class Plan:
    """Everything one family wants to do to one component."""

    edits: list[Edit] = field(default_factory=list)
    new_files: list[NewFile] = field(default_factory=list)
    sites: list[Site] = field(default_factory=list)
    skips: Counter = field(default_factory=Counter)
    alternatives: list[Alternative] = field(default_factory=list)
    # placeholder name (lower case) -> literal it stands for, for URL templates
    equivalent_bases: dict[str, str] = field(default_factory=dict)
    # names this plan introduced, per file (a fresh name must be fresh among them too)
    claimed: dict[str, set[str]] = field(default_factory=dict)
    memo: dict[tuple[str, str], str | None] = field(default_factory=dict)  # (file, what) -> name

    def skip(self, reason: str) -> None:
        self.skips[reason] += 1

    def site(self, file: str, data: bytes, offset: int, note: str) -> None:
        self.sites.append(Site(file, data.count(b"\n", 0, offset) + 1, note))

    def taken(self, file: str, start: int, end: int) -> bool:
        """True when [start, end) overlaps an edit already planned in `file`."""
        return any(e.file == file and e.start < end and start < e.end for e in self.edits)


@dataclass
class _Placed:
    src_file: str
    src_start: int
    src_end: int
    dest_file: str
    dest_start: int
    rank: int  # 0 unchanged, 1 piece in the same file, 2 piece elsewhere


class Rendered:
    """The rewritten files and the map from original lines to rendered ones."""

    def __init__(self, originals: dict[str, bytes]):
        self.originals = originals
        self.files: dict[str, bytes] = {}  # changed and new files only
        self._placed: dict[str, list[_Placed]] = {}
        self._edits: dict[str, list[tuple[int, int, str, int, list[int]]]] = {}
        self._line_starts: dict[str, list[int]] = {}

    def _starts(self, file: str) -> list[int]:
        if file not in self._line_starts:
            self._line_starts[file] = _line_starts(
                self.files.get(file, self.originals.get(file, b""))
            )
        return self._line_starts[file]

    def line_of(self, file: str, offset: int) -> int:
        return bisect.bisect_right(self._starts(file), offset)

    def map_line(self, file: str, line: int) -> set[Loc]:
        """Where original `file:line` is now: one location, or a few candidates."""
        if file not in self._edits:
            return {Loc(file, line)}
        data = self.originals[file]
        starts = _line_starts(data)
        if line < 1 or line > len(starts):
            return {Loc(file, line)}
        begin = starts[line - 1]
        end = starts[line] if line < len(starts) else len(data)
        offsets = [i for i in range(begin, end) if data[i] not in b" \t\r\n"] or [begin]
        for p in self._placed.get(file, []):
            if p.rank == 0 and p.src_start <= offsets[0] < p.src_end:
                return {self._at(p, offsets[0])}
        for off in offsets:
            inside = [p for p in self._placed.get(file, []) if p.src_start <= off < p.src_end]
            if inside:
                return {self._at(min(inside, key=lambda p: p.rank), off)}
        out: set[Loc] = set()
        for start, stop, dest, new_start, alts in self._edits[file]:
            if start <= offsets[0] < max(stop, start + 1):
                out.add(Loc(dest, self.line_of(dest, new_start)))
                out.update(Loc(dest, a) for a in alts)
                # a line of only rewritten text (`router.get(` of a call whose arguments
                # went into a loop's item) is also where its next moved piece went
                after = [
                    p
                    for p in self._placed.get(file, [])
                    if p.rank > 0 and offsets[0] <= p.src_start < stop
                ]
                if after:
                    first = min(after, key=lambda p: p.src_start)
                    out.add(self._at(first, first.src_start))
        return out or {Loc(file, line)}

    def _at(self, p: _Placed, off: int) -> Loc:
        return Loc(p.dest_file, self.line_of(p.dest_file, p.dest_start + off - p.src_start))


def _line_starts(data: bytes) -> list[int]:
    starts = [0]
    starts.extend(i + 1 for i, b in enumerate(data) if b == 10)
    return starts


def _render_parts(
    own: str, parts: list[Part], originals: dict[str, bytes], out: bytearray, dest: str,
    placed: list[tuple[str, int, int, int]], text_marks: list[int],
) -> None:  # fmt: skip
    for part in parts:
        if isinstance(part, Piece):
            src = part.file or own
            placed.append((src, part.start, part.end, len(out)))
            out += originals[src][part.start : part.end]
        else:
            text_marks.append(len(out))
            out += part.encode("utf-8")


def render(plan: Plan, originals: dict[str, bytes]) -> Rendered:
    """Apply the plan. Overlapping edits in one file are a rewriter bug (ValueError)."""
    result = Rendered(originals)
    by_file: dict[str, list[Edit]] = {}
    for e in plan.edits:
        by_file.setdefault(e.file, []).append(e)
    placements: list[tuple[str, str, int, int, int, int]] = []  # src, dest, s, e, at, rank
    edit_records: dict[str, list[tuple[int, int, str, int, list[int]]]] = {}
    for file, edits in sorted(by_file.items()):
        edits.sort(key=lambda e: (e.start, e.end))
        for a, b in zip(edits, edits[1:], strict=False):
            if b.start < a.end:
                raise ValueError(f"{file}: overlapping edits at bytes {a.start} and {b.start}")
        data = originals[file]
        out = bytearray()
        cursor = 0
        records = []
        for e in edits:
            placements.append((file, file, cursor, e.start, len(out), 0))
            out += data[cursor : e.start]
            new_start = len(out)
            placed: list[tuple[str, int, int, int]] = []
            marks: list[int] = []
            _render_parts(file, e.parts, originals, out, file, placed, marks)
            for src, s, t, at in placed:
                placements.append((src, file, s, t, at, 1 if src == file else 2))
            alts = [marks[i] for i in e.alt_parts if i < len(marks)]
            records.append((e.start, e.end, file, new_start, alts))
            cursor = e.end
        placements.append((file, file, cursor, len(data), len(out), 0))
        out += data[cursor:]
        result.files[file] = bytes(out)
        edit_records[file] = records
    for nf in plan.new_files:
        if nf.rel in originals or nf.rel in result.files:
            raise ValueError(f"{nf.rel}: a new file would overwrite an existing one")
        out = bytearray()
        placed = []
        _render_parts(nf.origin, nf.parts, originals, out, nf.rel, placed, [])
        for src, s, t, at in placed:
            placements.append((src, nf.rel, s, t, at, 2))
        result.files[nf.rel] = bytes(out)
    for src, dest, s, t, at, rank in placements:
        if t > s:
            result._placed.setdefault(src, []).append(_Placed(src, s, t, dest, at, rank))
    for file, records in edit_records.items():
        result._edits[file] = [
            (s, t, dest, new_start, [result.line_of(dest, a) for a in alts])
            for s, t, dest, new_start, alts in records
        ]
    for src in result._placed:
        result._placed[src].sort(key=lambda p: (p.rank, p.src_start))
    return result
