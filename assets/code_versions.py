"""Code versions of the assets, computable without importing Dagster.

The no-op fast path of `kb refresh` compares these with the published manifest, and
the assets declare the same values as their Dagster `code_version`, so both agree on
when a code change makes an asset stale.
"""

from __future__ import annotations

import hashlib
from functools import cache

from vocab.code_digest import ROOT, module_files, source_digest

ASSET_SOURCES: dict[str, tuple[str, ...]] = {
    "kb": ("kb", "vocab"),
    "knowledge_graph": ("kb", "warehouse.knowledge_graph"),
    "graph": (
        "warehouse.bridges",
        "warehouse.http_bridge",
        "warehouse.routematch",
        "warehouse.catalog",
    ),
    "docs": (
        "vocab",
        "doc_context.discovery",
        "doc_context.chunking",
        "doc_context.build",
        "doc_context.index",
    ),
    "publish": (
        "warehouse.assemble",
        "warehouse.publish",
        "warehouse.tables",
        "warehouse.code_stage",
    ),
    "verification": ("vocab", "verification"),
}


@cache
def source_version(*modules: str) -> str:
    """Hash of the named modules' source files (a package hashes every .py under it)."""
    digest = hashlib.sha256()
    for name in modules:
        for path in module_files(name):
            digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def code_version(asset_group: str) -> str:
    return source_version(*ASSET_SOURCES[asset_group])


def current_code_versions() -> dict[str, str]:
    versions = {name: code_version(name) for name in ASSET_SOURCES}
    versions["extractors"] = source_digest(ROOT / "extractors")
    return versions
