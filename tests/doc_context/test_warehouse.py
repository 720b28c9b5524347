"""From the published warehouse: Parquet → FTS index (cached per build), or a saved file."""

from __future__ import annotations

from doc_context import index as doc_index
from doc_context import kb_chunks
from doc_context.build import component_chunks
from doc_context.discovery import RepoScope
from doc_context.index import INDEX_FILE, chunk_frames, load_index, persist_index
from doc_context.search import search_context
from warehouse.publish import publish
from warehouse.reader import Warehouse

KB = {
    "kb.yaml": "name: t\n",
    "projects/a/api/ops.md": "---\nkind: doc\nproject: a\ntitle: Ops\n---\n# Ops\n\nRotate the token.\n",
    "projects/b/api/ops.md": "---\nkind: doc\nproject: b\ntitle: Ops\n---\n# Ops\n\nRotate the key.\n",
}


def _publish(tmp_path, write):
    kb = write(tmp_path / "kb", KB)
    repo = write(
        tmp_path / "repo", {"docs/a.md": "# A\n\nRotate tokens here.\n", "docs/b.md": "# B\n"}
    )
    data = tmp_path / "data"
    publish(
        data,
        {
            "_global": chunk_frames(kb_chunks(kb)),
            "a": chunk_frames(component_chunks(RepoScope("a", "api", repo, [], []))),
        },
    )
    return data


def test_search_from_data_dir_is_cached_per_build(tmp_path, write):
    data = _publish(tmp_path, write)
    pack = search_context(data, "rotate", 2000)
    assert {e.location for e in pack.entries} >= {"kb:projects/a/api/ops.md", "a/api docs/a.md"}
    assert load_index(Warehouse(data)) is load_index(Warehouse(data))  # cached
    scoped = search_context(Warehouse(data), "rotate", 2000, project="a")
    assert "kb:projects/b/api/ops.md" not in {e.location for e in scoped.entries}
    every = search_context(Warehouse(data), "rotate", 2000, project="*")
    assert "kb:projects/b/api/ops.md" in {e.location for e in every.entries}


def test_persisted_index_gives_the_same_pack(tmp_path, write):
    data = _publish(tmp_path, write)
    fresh = search_context(data, "rotate token", 2000).render()
    saved = persist_index(data)
    assert saved.name == INDEX_FILE and saved.parent == Warehouse(data).build_dir
    doc_index._CACHE.clear()
    for parquet in Warehouse(data).build_dir.glob("partition=*/doc_*.parquet"):
        parquet.unlink()  # so the index can only come from the saved file
    index = load_index(Warehouse(data))
    assert index.chunks and index.edges  # rows and co-location edges came from the file
    assert search_context(index, "rotate token", 2000).render() == fresh
