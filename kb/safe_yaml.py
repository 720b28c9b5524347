"""Bounded YAML for KB frontmatter: the loader lives in `vocab.safe_yaml` (extractors use it
for repo YAML too); this name stays for the KB's callers."""

from __future__ import annotations

from vocab.safe_yaml import (
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_NODES,
    BoundedYamlError,
    check_bounds,
    load,
    load_with_node,
)

__all__ = [
    "MAX_ALIASES",
    "MAX_DEPTH",
    "MAX_NODES",
    "BoundedYamlError",
    "check_bounds",
    "load",
    "load_with_node",
]
