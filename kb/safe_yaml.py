"""Bounded YAML for KB files: the loader lives in `vocab.safe_yaml` (extractors use it for
repo YAML too). A KB file is written by hand and read once, so here a key written twice in
one mapping is an error at its line rather than the later value silently winning."""

from __future__ import annotations

from typing import Any

import yaml

from vocab import safe_yaml as _bounded
from vocab.safe_yaml import MAX_ALIASES, MAX_DEPTH, MAX_NODES, BoundedYamlError, check_bounds

__all__ = [
    "MAX_ALIASES",
    "MAX_DEPTH",
    "MAX_NODES",
    "BoundedYamlError",
    "check_bounds",
    "load",
    "load_with_node",
]


def load_with_node(text: str, max_nodes: int = MAX_NODES) -> tuple[Any, yaml.Node | None]:
    return _bounded.load_with_node(text, max_nodes, unique_keys=True)


def load(text: str, max_nodes: int = MAX_NODES) -> Any:
    return _bounded.load(text, max_nodes, unique_keys=True)
