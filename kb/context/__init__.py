"""Doc context broker, pure side: discover Markdown, chunk it, relate co-located files.

Nothing here imports above `kb`; the query side is `warehouse/doc_search.py`.
"""

from kb.context.build import ChunkSet, colocation_edges, component_chunks, kb_chunks
from kb.context.chunking import Chunk, chunk_markdown
from kb.context.discovery import BUCKETS, Discovery, discover_kb, discover_repo, repo_scopes

__all__ = [
    "BUCKETS",
    "Chunk",
    "ChunkSet",
    "Discovery",
    "chunk_markdown",
    "colocation_edges",
    "component_chunks",
    "discover_kb",
    "discover_repo",
    "kb_chunks",
    "repo_scopes",
]
