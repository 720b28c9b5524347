"""Turn discovered files into chunk rows and co-location edges (table-agnostic dicts).

Identical chunks (mirrored skills under `.claude/` and `.agents/`, copied READMEs) are
kept once; the copies are listed in `mirrors`. Files in one folder get a weak `related`
edge, but only in folders with at most COLOCATION_MAX docs: in a big folder, sitting
side by side says nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from doc_context.chunking import Chunk, chunk_document, chunk_hash
from doc_context.discovery import Discovery, DocFile, RepoScope, discover_kb, discover_repo
from kb.secret_scan import redact_text, scan_text
from kb.tokens import estimate_tokens

COLOCATION_MAX = 10
KB_PROJECT = "_kb"  # project of KB docs that belong to no project


@dataclass
class ChunkSet:
    rows: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)


def _read(file: DocFile) -> str | None:
    try:
        return file.path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return None


def _kb_owner(rel: str, fm_project: str | None) -> str:
    if fm_project:
        return fm_project
    parts = rel.split("/")
    if len(parts) > 2 and parts[0] == "projects":
        return parts[1]
    return KB_PROJECT


def colocation_edges(paths: Iterable[str]) -> list[tuple[str, str, str]]:
    """(src, dst, folder) for each pair of files sharing a folder of ≤ COLOCATION_MAX docs."""
    folders: dict[str, list[str]] = defaultdict(list)
    for path in sorted(set(paths)):
        folders[path.rsplit("/", 1)[0] if "/" in path else ""].append(path)
    edges: list[tuple[str, str, str]] = []
    for folder, files in sorted(folders.items()):
        if len(files) > COLOCATION_MAX:
            continue
        edges.extend((a, b, folder or ".") for i, a in enumerate(files) for b in files[i + 1 :])
    return edges


def chunk_discovery(disc: Discovery, project: str | None, component: str | None) -> ChunkSet:
    """Chunk every discovered file; project None means 'KB docs: take it from each doc'."""
    out = ChunkSet(skipped=list(disc.skipped))
    by_hash: dict[str, dict[str, Any]] = {}
    for file in sorted(disc.files, key=lambda f: f.rel):
        text = _read(file)
        if text is None:
            out.skipped.append((file.rel, "unreadable"))
            continue
        chunks, doc = chunk_document(file.rel, text)
        if doc.warning:
            out.warnings.append((file.rel, doc.warning))
        if scan_text(text):
            _redact(chunks, out.warnings)
        fm_project, fm_component = _owner(doc.frontmatter) if project is None else (None, None)
        for seq, chunk in enumerate(chunks):
            row_project = project or _kb_owner(file.rel, fm_project)
            status = chunk.verification_status
            if file.bucket == "imports" and not status:
                status = "unverified"
            key = f"{row_project}\0{chunk.content_hash}"
            if key in by_hash:
                by_hash[key]["_mirrors"].append(f"{chunk.path}:{chunk.start_line}")
                continue
            row = {
                "project": row_project,
                "component": component if project is not None else fm_component,
                "bucket": file.bucket,
                "path": chunk.path,
                "heading_path": chunk.heading,
                "start_line": chunk.start_line,
                "end_line": chunk.end_line,
                "tokens": chunk.tokens,
                "content_hash": chunk.content_hash,
                "text": chunk.text,
                "title": chunk.title,
                "doc_type": chunk.doc_type,
                "verification_status": status,
                "seq": seq,
                "_mirrors": [],
            }
            by_hash[key] = row
            out.rows.append(row)
    for row in out.rows:
        row["mirrors"] = json.dumps(row.pop("_mirrors"))
    owner = {r["path"]: r for r in out.rows}
    for src, dst, folder in colocation_edges(owner):
        out.edges.append(
            {
                "project": owner[src]["project"],
                "component": owner[src]["component"],
                "src": src,
                "dst": dst,
                "type": "related",
                "reason": f"same folder {folder}",
            }
        )
    return out


def _redact(chunks: list[Chunk], warnings: list[tuple[str, str]]) -> None:
    """Principle 4: a credential never reaches Parquet; report it by location only."""
    for chunk in chunks:
        text, findings = redact_text(chunk.text)
        if not findings:
            continue
        for f in findings:
            line = chunk.start_line + f.line - 1
            warnings.append(
                (chunk.path, f"line {line}: {f.rule} redacted (sha256:{f.sha256_prefix})")
            )
        chunk.text, chunk.tokens = text, estimate_tokens(text)
        chunk.content_hash = chunk_hash(text)


def _owner(fm: dict[str, Any]) -> tuple[str | None, str | None]:
    project, component = fm.get("project"), fm.get("component")
    return (str(project) if project else None, str(component) if component else None)


def component_discovery(scope: RepoScope | None, exclude_buckets: Iterable[str] = ()) -> Discovery:
    """The docs one component's repo folder holds; none when it owns no folder."""
    if scope is None:
        return Discovery()
    return discover_repo(scope.root, exclude_buckets, scope.skip_rel)


def component_chunks(scope: RepoScope | None, exclude_buckets: Iterable[str] = ()) -> ChunkSet:
    """Chunks of one component's repo folder; an empty set when it owns no folder."""
    if scope is None:
        return ChunkSet()
    return chunk_discovery(
        component_discovery(scope, exclude_buckets), scope.project, scope.component
    )


def discovery_signature(disc: Discovery, scope: RepoScope | None, salt: str) -> str:
    """Digest of everything `component_chunks` reads: the owner, each file's path, bucket
    and bytes, what was skipped and why, and `salt` (the code that chunks and redacts).
    A commit that leaves a component's Markdown alone leaves it unchanged, so its staged
    chunks can be taken back instead of re-chunked and re-scanned for secrets."""
    digest = hashlib.sha256(salt.encode())
    if scope is not None:
        digest.update(f"\0{scope.project}\0{scope.component}".encode())
    for file in sorted(disc.files, key=lambda f: f.rel):
        try:
            body = hashlib.sha256(file.path.read_bytes()).hexdigest()
        except OSError:
            body = "unreadable"
        digest.update(f"\0{file.rel}\0{file.bucket}\0{body}".encode())
    for rel, reason in disc.skipped:
        digest.update(f"\0skipped\0{rel}\0{reason}".encode())
    return digest.hexdigest()[:24]


def kb_chunks(kb_root: Path, exclude_buckets: Iterable[str] = ()) -> ChunkSet:
    """Chunks of the KB's own docs (and imports unless excluded)."""
    return chunk_discovery(discover_kb(kb_root, exclude_buckets), None, None)
