"""Split one Markdown file into heading-scoped chunks an agent can read on their own.

Short files stay whole. Long ones split at H2 (at H1 first when the file has several
H1s); a section still too large splits again at its next heading level (H3, then H4).
A section with no substructure that is far too large is cut at blank lines into parts,
so no single chunk can swallow a whole budget. Frontmatter is never body text, but its
title and type are kept for search. Line numbers are 1-based and refer to the file.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from kb.frontmatter import FrontmatterError, parse_markdown
from kb.tokens import estimate_tokens

MAX_CHUNK_TOKENS = 600  # a section above this splits at its next heading level
HARD_MAX_TOKENS = 1500  # a section above this with no headings is cut at blank lines
DEEPEST_SPLIT = 4  # H4 is the deepest level we split at

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass
class Chunk:
    path: str
    heading_path: list[str]
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    text: str
    tokens: int
    content_hash: str
    title: str
    doc_type: str | None = None
    verification_status: str | None = None
    mirrors: list[str] = field(default_factory=list)

    @property
    def heading(self) -> str:
        return " > ".join(self.heading_path)


@dataclass
class ParsedDoc:
    """A file's body lines (with their 1-based numbers), frontmatter and any warning."""

    lines: list[str]
    first_line: int
    frontmatter: dict[str, Any]
    warning: str | None = None


def parse_doc(text: str) -> ParsedDoc:
    """Separate frontmatter from body; broken frontmatter becomes a warning, not an error."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    try:
        parsed = parse_markdown(text)
    except FrontmatterError as exc:
        warning = f"frontmatter unreadable (line {exc.line}: {exc.message}); indexed as plain text"
        return ParsedDoc(text.split("\n"), 1, {}, warning)
    return ParsedDoc(parsed.body.split("\n"), parsed.body_start_line, parsed.frontmatter)


def headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(index, level, text) of every ATX heading outside fenced code blocks."""
    found: list[tuple[int, int, str]] = []
    fence: str | None = None
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if m:
            marker = m.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence):
                fence = None
            continue
        if fence is None:
            h = _HEADING.match(line)
            if h and h.group(2):
                found.append((i, len(h.group(1)), h.group(2).strip()))
    return found


def _trim(lines: list[str], start: int, end: int) -> tuple[int, int]:
    """Shrink [start, end) past blank lines at both ends."""
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end


def _tokens(lines: list[str], start: int, end: int) -> int:
    return estimate_tokens("\n".join(lines[start:end]))


def _split_paragraphs(
    lines: list[str], start: int, end: int, path: list[str]
) -> list[tuple[int, int, list[str]]]:
    """Cut an oversized heading-less span at blank lines into parts near MAX_CHUNK_TOKENS."""
    parts: list[tuple[int, int]] = []
    begin, size = start, 0
    for i in range(start, end):
        size += estimate_tokens(lines[i]) + 1
        boundary = not lines[i].strip() or size >= 2 * MAX_CHUNK_TOKENS
        if size >= MAX_CHUNK_TOKENS and boundary:
            parts.append((begin, i + 1))
            begin, size = i + 1, 0
    if begin < end:
        parts.append((begin, end))
    if len(parts) == 1:
        return [(start, end, path)]
    label = path[:-1] + [f"{path[-1]} (part {{}})"] if path else ["(part {})"]
    return [(s, e, label[:-1] + [label[-1].format(k + 1)]) for k, (s, e) in enumerate(parts)]


def split_sections(
    lines: list[str],
    heads: list[tuple[int, int, str]],
    start: int,
    end: int,
    path: list[str],
    level: int,
) -> list[tuple[int, int, list[str]]]:
    """Recursively split lines[start:end] into (start, end, heading_path) spans."""
    if _tokens(lines, start, end) <= MAX_CHUNK_TOKENS:
        return [(start, end, path)]
    inner = [h for h in heads if start <= h[0] < end and level < h[1] <= DEEPEST_SPLIT]
    if not inner:
        if _tokens(lines, start, end) > HARD_MAX_TOKENS:
            return _split_paragraphs(lines, start, end, path)
        return [(start, end, path)]
    split_level = min(h[1] for h in inner)
    cuts = [h for h in inner if h[1] == split_level]
    spans: list[tuple[int, int, list[str]]] = []
    if any(line.strip() and not _HEADING.match(line) for line in lines[start : cuts[0][0]]):
        spans.append((start, cuts[0][0], path))  # the intro before the first subsection
    for k, (idx, lvl, text) in enumerate(cuts):
        stop = cuts[k + 1][0] if k + 1 < len(cuts) else end
        spans.extend(split_sections(lines, heads, idx, stop, [*path, text], lvl))
    return spans


def chunk_hash(text: str) -> str:
    normal = "\n".join(line.rstrip() for line in text.strip().split("\n"))
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:16]


def chunk_markdown(path: str, text: str) -> tuple[list[Chunk], str | None]:
    """Chunks of one file, plus a warning (e.g. unreadable frontmatter) or None."""
    chunks, doc = chunk_document(path, text)
    return chunks, doc.warning


def chunk_document(path: str, text: str) -> tuple[list[Chunk], ParsedDoc]:
    """Chunks of one file and the parsed document they came from (frontmatter, warning)."""
    doc = parse_doc(text)
    lines, fm = doc.lines, doc.frontmatter
    heads = headings(lines)
    h1s = [h for h in heads if h[1] == 1]
    title = str(fm.get("title") or (h1s[0][2] if h1s else path.rsplit("/", 1)[-1]))
    verification = fm.get("verification")
    status = verification.get("status") if isinstance(verification, dict) else None
    doc_type = fm.get("type") if isinstance(fm.get("type"), str) else None
    start, end = _trim(lines, 0, len(lines))
    if start >= end:
        return [], doc
    if len(h1s) > 1:
        spans = split_sections(lines, heads, start, end, [], 0)
    elif h1s:
        # One H1 is the document title: its sections are the H2s below it.
        spans = split_sections(lines, heads, start, end, [h1s[0][2]], 1)
    else:
        spans = split_sections(lines, heads, start, end, [], 1)
    chunks: list[Chunk] = []
    for s, e, heading_path in spans:
        s, e = _trim(lines, s, e)
        if s >= e:
            continue
        body = "\n".join(lines[s:e])
        chunks.append(
            Chunk(
                path=path,
                heading_path=heading_path,
                start_line=doc.first_line + s,
                end_line=doc.first_line + e - 1,
                text=body,
                tokens=estimate_tokens(body),
                content_hash=chunk_hash(body),
                title=title,
                doc_type=doc_type,
                verification_status=str(status) if status else None,
            )
        )
    return chunks, doc
