"""Doc context broker, query side: a ranked, budget-fitted pack of Markdown sections.

`search_context(source, task, max_tokens, project)` takes the significant words of a
task (stop words and filler such as "please", "how", "fix" dropped), runs BM25 over the
chunk index with the AND of them, falls back to OR only when AND finds nothing, adds
co-located neighbours of strong hits above a score floor, demotes KB docs marked stale
or disputed, and packs whole chunks best-first without ever exceeding `max_tokens`
(headers included, by `kb.tokens.estimate_tokens`). Every entry says why it was picked.
Deterministic: same index and task, same pack. No embeddings, no LLM.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from doc_context.index import DocIndex, load_index, mirrors_of
from doc_context.pack import ContextPack, PackEntry
from warehouse.reader import Warehouse

__all__ = ["ContextPack", "PackEntry", "DocIndex", "search_context", "significant_terms"]

DEMOTED = {"stale": 0.6, "disputed": 0.6}  # verification status -> score factor
IMPORT_FACTOR = 0.8  # imported originals are unverified copies
NEIGHBOUR_FACTOR = 0.35  # a neighbour scores this share of the hit it hangs off
NEIGHBOUR_FLOOR = 0.25  # ...and must reach this share of the best score
MAX_TERMS = 24  # a very long task keeps its rarest significant words
MAX_SCAN_TERMS = 20_000  # unique words looked at, at most

_STOP_TEXT = """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each few for
    from further had has have having he her here hers him his how i if in into is it its
    itself just let lets me more most my myself no nor not now of off on once only or other
    our ours out over own same she should so some such than that the their theirs them then
    there these they this those through to too under until up very was we were what when where
    which while who whom why will with would you your yours also via per etc eg ie
    please pls kindly fix fixes fixing implement implementing implementation add adding make
    making need needs want wants help task issue todo something thing things way ensure
    able use using used get got let's work working correctly properly currently maybe
    someone anything everything stuff into onto look looking find tell explain show"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def significant_terms(task: str) -> list[str]:
    """Lower-cased words of the task minus stop words and filler, first occurrence order."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(task.lower()):
        if len(word) < 2 and not word.isdigit() or word in STOP_WORDS:
            continue
        seen.setdefault(word, None)
        if len(seen) >= MAX_SCAN_TERMS:
            break
    return list(seen)


def _as_index(source: Any) -> DocIndex:
    if isinstance(source, DocIndex):
        return source
    if isinstance(source, pl.DataFrame):
        return DocIndex.from_frames(source)
    if isinstance(source, Warehouse):
        return load_index(source)
    if isinstance(source, str | Path):
        return load_index(Warehouse(Path(source)))
    raise TypeError(
        f"chunks_source must be a Warehouse, data dir, DocIndex or DataFrame, not {type(source).__name__}"
    )


@dataclass
class _Hit:
    rowid: int
    score: float
    why: list[str] = field(default_factory=list)
    tier: int = 0  # 0: the AND (or fallback OR) result; 1: OR hits filling the budget after AND


def _visible(row: dict[str, Any], project: str | None, exclude: set[str]) -> bool:
    if row.get("bucket") in exclude:
        return False
    return project is None or row.get("project") in (project, "_kb")


def search_context(
    chunks_source: Any,
    task: str,
    max_tokens: int = 8000,
    project: str | None = None,
    exclude_buckets: Iterable[str] = (),
    or_fill: bool = False,
) -> ContextPack:
    """The best Markdown sections for `task`, packed within `max_tokens`.

    chunks_source: a `warehouse.reader.Warehouse`, its data dir, a built `DocIndex`, or a
    `doc_chunks` DataFrame. project: limit to that project's repo docs and KB docs (plus
    the KB's portfolio-wide docs); None searches every project. exclude_buckets: any of
    doc_context.BUCKETS except "kb". Raises `WarehouseMissing` when nothing is published;
    every other odd input (empty task, only stop words, tiny budget) gives a pack whose
    `render()` says what happened. The rendered text never exceeds max_tokens.
    or_fill: when AND finds sections that leave budget unused, rank OR matches after them
    (labelled "OR after AND"); off by default: OR only when AND finds nothing.
    """
    index = _as_index(chunks_source)
    project = None if project in ("*", "") else project
    exclude = set(exclude_buckets) - {"kb"}
    pack = ContextPack(task=task, max_tokens=max(0, int(max_tokens)), project=project)
    pack.build_id = index.build_id
    terms = significant_terms(task or "")
    if not terms:
        pack.notes.append(
            "no significant words in the task (only stop words or empty): name a component, "
            "feature, file or error"
        )
        return pack
    if project is not None and not any(r["project"] == project for r in index.chunks):
        known = sorted({r["project"] for r in index.chunks} - {"_kb"})
        pack.notes.append(
            f"no docs indexed for project {project!r} (known: {', '.join(known) or 'none'})"
        )
    df = index.document_frequency(terms)
    present = [t for t in terms if df[t]]
    pack.ignored = [t for t in terms if not df[t]]
    if len(present) > MAX_TERMS:
        keep = set(sorted(present, key=lambda t: (df[t], terms.index(t)))[:MAX_TERMS])
        present = [t for t in present if t in keep]
    stats = {t: index.term_stats(t) for t in present}
    pack.terms = present
    if not present:
        pack.notes.append("none of the task's words appear in any indexed doc")
        return pack
    hits = _ranked(index, present, stats, "AND", project, exclude)
    pack.mode = "AND"
    if not hits:
        hits = _ranked(index, present, stats, "OR", project, exclude)
        pack.mode = "OR" if hits else "none"
    elif or_fill and len(present) > 1:
        taken = {h.rowid for h in hits}
        extra = [
            h
            for h in _ranked(index, present, stats, "OR", project, exclude)
            if h.rowid not in taken
        ]
        for h in extra:
            h.tier = 1
        hits += extra
    for hit in hits:
        matched = [t for t in present if hit.rowid in stats[t].rows]
        in_head = [t for t in matched if hit.rowid in stats[t].head_rows]
        text = f"{'OR after AND' if hit.tier else pack.mode}: {', '.join(matched)}"
        hit.why.insert(0, text + (f" (title/heading: {', '.join(in_head)})" if in_head else ""))
    hits = _with_neighbours(index, hits, project, exclude)
    hits.sort(key=lambda h: (h.tier, -h.score, h.rowid))
    pack.fill(
        [(index.chunks[h.rowid], h.score, h.why) for h in hits],
        mirrors=lambda row: mirrors_of(row),
    )
    return pack


def _ranked(
    index: DocIndex,
    terms: list[str],
    stats: dict[str, Any],
    mode: str,
    project: str | None,
    exclude: set[str],
) -> list[_Hit]:
    sets = [stats[t].rows for t in terms]
    matched = set.intersection(*sets) if mode == "AND" else set.union(*sets)
    scored = sorted(index.scores(terms, matched).items(), key=lambda kv: (-kv[1], kv[0]))
    hits: list[_Hit] = []
    seen: set[tuple[str, str]] = set()
    for rowid, score in scored:
        row = index.chunks[rowid]
        if not _visible(row, project, exclude):
            continue
        dedup = (row["project"], row.get("content_hash") or str(rowid))
        if dedup in seen:
            continue  # the same text published by two components of one project
        seen.add(dedup)
        hit = _Hit(rowid, score)
        status = (row.get("verification_status") or "").lower()
        if status in DEMOTED:
            hit.score *= DEMOTED[status]
            hit.why.append(f"ranked lower: verification {status}")
        elif row.get("bucket") == "imports":
            hit.score *= IMPORT_FACTOR
            hit.why.append("ranked lower: imported original, unverified")
        hits.append(hit)
    return hits


def _with_neighbours(
    index: DocIndex, hits: list[_Hit], project: str | None, exclude: set[str]
) -> list[_Hit]:
    """Add the first section of co-located files of strong hits (weak 'related' edges)."""
    if not hits:
        return hits
    best = max(h.score for h in hits)
    taken = {h.rowid for h in hits}
    files = {
        (r["project"], r.get("component"), r["path"]) for r in (index.chunks[h.rowid] for h in hits)
    }
    extra: dict[int, _Hit] = {}
    for hit in sorted(hits, key=lambda h: -h.score)[:10]:
        row = index.chunks[hit.rowid]
        score = hit.score * NEIGHBOUR_FACTOR
        if score < best * NEIGHBOUR_FLOOR:
            break
        for path, reason in index.neighbours(row):
            if (row["project"], row.get("component"), path) in files:
                continue
            rowids = index.file_chunks(row, path)
            if not rowids or rowids[0] in taken or rowids[0] in extra:
                continue
            target = index.chunks[rowids[0]]
            if not _visible(target, project, exclude):
                continue
            why = f"neighbour of {row['path']} ({reason})"
            extra[rowids[0]] = _Hit(rowids[0], score, [why], hit.tier)
    return hits + list(extra.values())
