"""Read the user docs the way GitHub renders them: headings → anchors, fenced blocks."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.portfolio import REPO

DOCS = REPO / "docs"
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def without_code(text: str) -> str:
    return FENCE.sub("", text)


def anchors(path: Path) -> set[str]:
    """GitHub's heading anchors: lowercase, punctuation dropped, spaces → '-', dupes -1."""
    seen: dict[str, int] = {}
    out: set[str] = set()
    for match in re.finditer(r"^#{1,6}\s+(.+?)\s*$", without_code(path.read_text("utf-8")), re.M):
        base = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def section(path: Path, heading: str) -> str:
    """The text under `heading` (a full heading line) up to the next heading of its level."""
    text = path.read_text("utf-8")
    start = text.index(heading + "\n")
    level = heading.split(" ", 1)[0]
    rest = text[start + len(heading) + 1 :]
    end = re.search(rf"^{level} ", without_code_keep_len(rest), re.M)
    return rest[: end.start()] if end else rest


def without_code_keep_len(text: str) -> str:
    """Fenced blocks blanked out but offsets kept, so a '# comment' in code is no heading."""
    return FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
