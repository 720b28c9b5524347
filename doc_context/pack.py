"""The context pack: chosen sections, why each was chosen, and its budget-safe text.

`ContextPack.render()` never exceeds `max_tokens` by `kb.tokens.estimate_tokens`: each
part is estimated on its own (ceil per part ≥ ceil of the whole) and the header and
footer are reserved at their widest before any section is placed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from kb.tokens import estimate_tokens

TASK_SHOWN = 80  # characters of the task echoed in the header


@dataclass
class PackEntry:
    rank: int
    location: str  # "kb:<path>" or "<project>/<component> <path>"
    project: str
    component: str | None
    bucket: str
    path: str
    heading_path: str
    start_line: int
    end_line: int
    tokens: int
    score: float
    why: list[str]
    verification_status: str | None
    mirrors: list[str]
    text: str

    def block(self) -> str:
        heading = f" · {self.heading_path}" if self.heading_path else ""
        why = "; ".join(self.why)
        if self.mirrors:
            why += f"; same text also at {', '.join(self.mirrors)}"
        return (
            f"--- [{self.rank}] {self.location}:{self.start_line}-{self.end_line}{heading}\n"
            f"why: {why}\n{self.text}\n\n"
        )


def _location(row: dict[str, Any]) -> str:
    if row.get("bucket") in ("kb", "imports"):
        return f"kb:{row['path']}"
    return f"{row['project']}/{row.get('component') or '?'} {row['path']}"


@dataclass
class ContextPack:
    task: str
    max_tokens: int
    project: str | None = None
    mode: str = "none"  # AND, OR, or none
    terms: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    entries: list[PackEntry] = field(default_factory=list)
    omitted: int = 0
    build_id: str | None = None

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.render())

    def _header(self, used: int, count: int) -> str:
        task = " ".join(self.task.split())
        task = task if len(task) <= TASK_SHOWN else task[: TASK_SHOWN - 1] + "…"
        scope = f" in project {self.project}" if self.project else ""
        how = (
            f"; {self.mode} of: {', '.join(self.terms)}"
            if self.terms and self.mode != "none"
            else ""
        )
        head = f'context for "{task}"{scope}: {count} section{"" if count == 1 else "s"}, {used}/{self.max_tokens} tokens{how}\n'
        if self.ignored:
            head += f"ignored (in no doc): {', '.join(self.ignored[:20])}\n"
        return head + "".join(f"note: {n}\n" for n in self.notes)

    def _footer(self, omitted: int, next_needs: int) -> str:
        if not omitted:
            return ""
        return f"omitted: {omitted} more matching sections over the budget (next needs {next_needs} tokens)\n"

    def fill(
        self,
        ranked: list[tuple[dict[str, Any], float, list[str]]],
        mirrors: Callable[[dict[str, Any]], list[str]],
    ) -> None:
        """Place whole sections best-first while they fit; count the rest as omitted."""
        if self.mode != "none" and not ranked:
            self.notes.append("no section matches these words")
        reserve = estimate_tokens(self._header(self.max_tokens, len(ranked)))
        reserve += estimate_tokens(self._footer(len(ranked), self.max_tokens))
        room = self.max_tokens - reserve
        chosen: list[PackEntry] = []
        skipped: list[PackEntry] = []
        for row, score, why in ranked:
            entry = PackEntry(
                rank=len(chosen) + 1,
                location=_location(row),
                project=row["project"],
                component=row.get("component"),
                bucket=row.get("bucket") or "",
                path=row["path"],
                heading_path=row.get("heading_path") or "",
                start_line=int(row["start_line"]),
                end_line=int(row["end_line"]),
                tokens=int(row.get("tokens") or 0),
                score=round(score, 4),
                why=list(why),
                verification_status=row.get("verification_status"),
                mirrors=mirrors(row),
                text=row.get("text") or "",
            )
            cost = estimate_tokens(entry.block())
            if cost <= room:
                chosen.append(entry)
                room -= cost
            else:
                skipped.append(entry)
        self.entries, self.omitted = chosen, len(skipped)
        if skipped and not chosen:
            smallest = min(skipped, key=lambda e: e.tokens)
            self.notes.append(
                f"no section fits in {self.max_tokens} tokens; the best match "
                f"({skipped[0].location}) needs ~{skipped[0].tokens}, the smallest "
                f"~{smallest.tokens} — raise max_tokens"
            )
        self._next_needs = estimate_tokens(skipped[0].block()) if skipped else 0

    def render(self) -> str:
        """The pack as text for an agent; at most `max_tokens` tokens, never cut mid-line."""
        entries = list(self.entries)
        footer = self._footer(self.omitted, getattr(self, "_next_needs", 0))
        while True:
            body = "".join(e.block() for e in entries)
            used_guess = self.max_tokens  # widest number: keeps the estimate an upper bound
            text = self._header(used_guess, len(entries)) + body + footer
            if estimate_tokens(text) <= self.max_tokens or not (entries or footer):
                break
            if footer:
                footer = ""
            else:
                entries.pop()
        used = estimate_tokens(text)
        text = self._header(used, len(entries)) + body + footer
        if estimate_tokens(text) > self.max_tokens:
            # Budget smaller than the header itself: keep whole lines that fit, or nothing.
            kept = ""
            for line in text.splitlines(keepends=True):
                if estimate_tokens(kept + line) > self.max_tokens:
                    break
                kept += line
            text = kept
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "max_tokens": self.max_tokens,
            "project": self.project,
            "mode": self.mode,
            "terms": self.terms,
            "ignored": self.ignored,
            "notes": self.notes,
            "omitted": self.omitted,
            "build_id": self.build_id,
            "entries": [asdict(e) for e in self.entries],
        }
