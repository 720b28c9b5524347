"""Doc context broker: which docs matter for a task (`kb_context`, `kb context`).

Build side (no warehouse): `discovery` finds Markdown, `chunking` cuts it H2→H4, `build`
makes the chunk set and relates co-located files. Query side: `index` persists and loads
the SQLite FTS5 index over the published `doc_chunks`, `search` ranks (BM25) and `pack`
fits the answer to a token budget. Imports `kb`, `warehouse` and `vocab`; never Dagster.
"""

from doc_context.build import (
    ChunkSet,
    chunk_discovery,
    colocation_edges,
    component_chunks,
    component_discovery,
    discovery_signature,
    kb_chunks,
)
from doc_context.chunking import Chunk, chunk_markdown
from doc_context.discovery import BUCKETS, Discovery, discover_kb, discover_repo, repo_scopes

__all__ = [
    "BUCKETS",
    "Chunk",
    "ChunkSet",
    "Discovery",
    "chunk_discovery",
    "chunk_markdown",
    "colocation_edges",
    "component_chunks",
    "component_discovery",
    "discover_kb",
    "discover_repo",
    "discovery_signature",
    "kb_chunks",
    "repo_scopes",
]
