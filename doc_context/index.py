"""An in-memory SQLite FTS5 index over `doc_chunks` (BM25, Porter stemming).

DuckDB's `fts` extension is not available offline, so the doc context broker indexes
with SQLite FTS5 (`tokenize='porter unicode61'`). Title and heading columns weigh more
than the body. The index is built from the published Parquet and cached per build id.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from warehouse.reader import Warehouse

HEAD_WEIGHT = 1.5  # title/heading/path score relative to body score
HEAD_COLUMN_WEIGHTS = (1.0, 2.0, 0.5)  # bm25() weights within head: title, heading, path
_COLS = (
    "project",
    "component",
    "bucket",
    "path",
    "heading_path",
    "start_line",
    "end_line",
    "tokens",
    "content_hash",
    "text",
    "title",
    "doc_type",
    "verification_status",
    "seq",
    "mirrors",
)


@dataclass
class TermStats:
    term: str
    rows: set[int]  # rowids whose any column matches
    head_rows: set[int]  # rowids whose title or heading matches


@dataclass
class DocIndex:
    """Chunks in SQLite (rowid = position in `chunks`) with an FTS5 table beside them."""

    chunks: list[dict[str, Any]]
    # (project, component or "", path) -> [(co-located path, reason)]
    edges: dict[tuple[str, str, str], list[tuple[str, str]]]
    build_id: str | None = None
    build_seconds: float = 0.0
    _db: sqlite3.Connection = field(init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    @classmethod
    def from_frames(
        cls, chunks: pl.DataFrame, edges: pl.DataFrame | None = None, build_id: str | None = None
    ) -> DocIndex:
        started = time.perf_counter()
        rows = (
            chunks.select([c for c in _COLS if c in chunks.columns]).to_dicts()
            if chunks.height
            else []
        )
        links: dict[tuple[str, str, str], list[tuple[str, str]]] = defaultdict(list)
        if edges is not None and edges.height:
            for p, c, src, dst, why in edges.select(
                "project", "component", "src", "dst", "reason"
            ).iter_rows():
                links[(p, c or "", src)].append((dst, why or ""))
                links[(p, c or "", dst)].append((src, why or ""))
        index = cls(rows, dict(links), build_id)
        index._db = sqlite3.connect(":memory:", check_same_thread=False)
        # Two tables, because FTS5's bm25() normalises by the whole row's length: in one
        # table a tiny section whose only match is the repeated document title would beat
        # the section that actually discusses the terms.
        index._db.execute(
            "CREATE VIRTUAL TABLE fts_body USING fts5(text, tokenize='porter unicode61')"
        )
        index._db.execute(
            "CREATE VIRTUAL TABLE fts_head USING fts5(title, heading, path, tokenize='porter unicode61')"
        )
        index._db.executemany(
            "INSERT INTO fts_body(rowid, text) VALUES (?, ?)",
            ((i, r.get("text") or "") for i, r in enumerate(rows)),
        )
        index._db.executemany(
            "INSERT INTO fts_head(rowid, title, heading, path) VALUES (?, ?, ?, ?)",
            (
                (
                    i,
                    " ".join(x for x in (r.get("title"), r.get("doc_type")) if x),
                    _own_heading(r),
                    r.get("path") or "",
                )
                for i, r in enumerate(rows)
            ),
        )
        index._db.executescript(
            "CREATE VIRTUAL TABLE body_vocab USING fts5vocab(fts_body, 'row');"
            "CREATE VIRTUAL TABLE head_vocab USING fts5vocab(fts_head, 'row');"
            "CREATE VIRTUAL TABLE query_words USING fts5(w, tokenize='porter unicode61');"
            "CREATE VIRTUAL TABLE query_stems USING fts5vocab(query_words, 'instance');"
        )
        index._db.commit()
        index.build_seconds = time.perf_counter() - started
        return index

    def save(self, path: Path) -> Path:
        """Write the index (FTS tables, rows, edges) to one SQLite file, atomically."""
        path = Path(path)
        tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
        tmp.unlink(missing_ok=True)
        dest = sqlite3.connect(tmp)
        try:
            with self._lock:
                self._db.backup(dest)
            dest.execute("CREATE TABLE chunk_rows(rowid INTEGER PRIMARY KEY, data TEXT)")
            dest.executemany(
                "INSERT INTO chunk_rows VALUES (?, ?)",
                ((i, json.dumps(r, default=str)) for i, r in enumerate(self.chunks)),
            )
            dest.execute("CREATE TABLE edge_rows(data TEXT)")
            dest.execute(
                "INSERT INTO edge_rows VALUES (?)", (json.dumps(list(self.edges.items())),)
            )
            dest.commit()
        finally:
            dest.close()
        os.replace(tmp, path)
        return path

    @classmethod
    def open(cls, path: Path, build_id: str | None = None) -> DocIndex:
        """Load a saved index into memory (the file is read once, never held open)."""
        started = time.perf_counter()
        source = sqlite3.connect(f"file:{Path(path).as_posix()}?mode=ro", uri=True)
        db = sqlite3.connect(":memory:", check_same_thread=False)
        try:
            source.backup(db)
        finally:
            source.close()
        rows = [json.loads(d) for (d,) in db.execute("SELECT data FROM chunk_rows ORDER BY rowid")]
        (edges_json,) = db.execute("SELECT data FROM edge_rows").fetchone()
        edges = {tuple(k): [tuple(v) for v in vs] for k, vs in json.loads(edges_json)}
        index = cls(rows, edges, build_id)
        index._db = db
        index.build_seconds = time.perf_counter() - started
        return index

    def _rowids(self, table: str, expr: str) -> set[int]:
        sql = f"SELECT rowid FROM {table} WHERE {table} MATCH ?"
        return {r[0] for r in self._db.execute(sql, (expr,))}

    def document_frequency(self, words: list[str]) -> dict[str, int]:
        """Rows containing each word's Porter stem (body or head; the larger count)."""
        if not words:
            return {}
        with self._lock:
            self._db.execute("DELETE FROM query_words")
            self._db.executemany(
                "INSERT INTO query_words(rowid, w) VALUES (?, ?)", enumerate(words)
            )
            stem = {
                doc: term for term, doc in self._db.execute("SELECT term, doc FROM query_stems")
            }
            stems = sorted(set(stem.values()))
            df: dict[str, int] = {}
            for table in ("body_vocab", "head_vocab"):
                for lo in range(0, len(stems), 500):
                    part = stems[lo : lo + 500]
                    marks = ",".join("?" * len(part))
                    sql = f"SELECT term, doc FROM {table} WHERE term IN ({marks})"
                    for term, count in self._db.execute(sql, part):
                        df[term] = max(df.get(term, 0), count)
            self._db.execute("DELETE FROM query_words")
        return {w: df.get(stem.get(i, ""), 0) for i, w in enumerate(words)}

    def term_stats(self, term: str) -> TermStats:
        """Rows matching one query term (stemmed by FTS5), anywhere and in title/heading."""
        quoted = _quote(term)
        with self._lock:
            head = self._rowids("fts_head", "{title heading} : " + quoted)
            rows = self._rowids("fts_body", quoted) | self._rowids("fts_head", quoted) | head
        return TermStats(term, rows, head)

    def scores(self, terms: list[str], rowids: set[int]) -> dict[int, float]:
        """BM25 of `rowids` for the OR of terms: body + HEAD_WEIGHT * (title, heading, path)."""
        if not terms or not rowids:
            return {}
        expr = " OR ".join(_quote(t) for t in terms)
        weights = ", ".join(map(str, HEAD_COLUMN_WEIGHTS))
        out = dict.fromkeys(rowids, 0.0)
        with self._lock:
            for rid, rank in self._db.execute(
                "SELECT rowid, bm25(fts_body) FROM fts_body WHERE fts_body MATCH ?", (expr,)
            ):
                if rid in out:
                    out[rid] -= rank
            for rid, rank in self._db.execute(
                f"SELECT rowid, bm25(fts_head, {weights}) FROM fts_head WHERE fts_head MATCH ?",
                (expr,),
            ):
                if rid in out:
                    out[rid] -= HEAD_WEIGHT * rank
        return out

    def neighbours(self, row: dict[str, Any]) -> list[tuple[str, str]]:
        return self.edges.get((row["project"], row.get("component") or "", row["path"]), [])

    def file_chunks(self, row: dict[str, Any], path: str) -> list[int]:
        """Rowids of the chunks of `path` in the same project and component as `row`."""
        if not hasattr(self, "_by_file"):
            by_file: dict[tuple[str, str, str], list[int]] = defaultdict(list)
            for i, r in enumerate(self.chunks):
                by_file[(r["project"], r.get("component") or "", r["path"])].append(i)
            self._by_file = dict(by_file)
        return self._by_file.get((row["project"], row.get("component") or "", path), [])


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _own_heading(row: dict[str, Any]) -> str:
    """Heading path minus a leading document title (the title column already has it)."""
    parts = (row.get("heading_path") or "").split(" > ")
    if parts and parts[0] == row.get("title"):
        parts = parts[1:]
    return " ".join(parts)


_CACHE: dict[str, DocIndex] = {}
_CACHE_LOCK = threading.Lock()


def _concat(frames: list[pl.DataFrame]) -> pl.DataFrame:
    frames = [f for f in frames if f.height]
    return pl.concat(frames, how="diagonal_relaxed") if frames else pl.DataFrame()


INDEX_FILE = "doc_index.sqlite"  # optional, next to the build's partitions


def _read_frames(warehouse: Warehouse) -> tuple[pl.DataFrame, pl.DataFrame]:
    partitions = warehouse.partitions()
    chunks = _concat([warehouse.read(p, "doc_chunks") for p in partitions])
    edges = _concat([warehouse.read(p, "doc_edges") for p in partitions])
    return chunks, edges


def load_index(warehouse: Warehouse) -> DocIndex:
    """The index of the published build, built once per build id and cached.

    A build that carries `doc_index.sqlite` (see `persist_index`) loads it instead of
    indexing the Parquet: ~1 s per 10k chunks saved on the first query of a process.
    """
    manifest = warehouse.manifest()
    build_id = str(manifest.get("build_id") or manifest.get("path"))
    key = f"{Path(warehouse.data_dir).resolve()}::{build_id}"
    with _CACHE_LOCK:
        cached = _CACHE.get(key)
        if cached is not None:
            return cached
    saved = warehouse.build_dir / INDEX_FILE
    if saved.is_file():
        index = DocIndex.open(saved, build_id)
    else:
        chunks, edges = _read_frames(warehouse)
        index = DocIndex.from_frames(chunks, edges if edges.height else None, build_id)
    with _CACHE_LOCK:
        for old in [k for k in _CACHE if k.split("::")[0] == key.split("::")[0]]:
            del _CACHE[old]  # one build per data dir is enough
        _CACHE[key] = index
    return index


def persist_index(data_dir: Path) -> Path:
    """Write `doc_index.sqlite` into the current build (call right after publish)."""
    warehouse = Warehouse(Path(data_dir))
    chunks, edges = _read_frames(warehouse)
    index = DocIndex.from_frames(chunks, edges if edges.height else None)
    return index.save(warehouse.build_dir / INDEX_FILE)


def mirrors_of(row: dict[str, Any]) -> list[str]:
    try:
        value = json.loads(row.get("mirrors") or "[]")
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


def chunk_frames(chunk_set: Any) -> dict[str, pl.DataFrame]:
    """`doc_chunks` and `doc_edges` frames (validated) from a doc_context.ChunkSet."""
    from warehouse.tables import frame, validate

    return {
        "doc_chunks": validate("doc_chunks", frame("doc_chunks", chunk_set.rows)),
        "doc_edges": validate("doc_edges", frame("doc_edges", chunk_set.edges)),
    }
