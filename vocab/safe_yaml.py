"""YAML for hostile input: bounded nesting, bounded alias expansion, linear time.

`yaml.safe_load` is safe from code execution but not from size: nine levels of
anchors and aliases in 438 bytes expand to billions of values once anything walks
the data, and 20,000 nested `[` end in a RecursionError (or in minutes of the pure
Python scanner). Here libyaml's event stream is read first, before any node is
built: nesting deeper than `MAX_DEPTH`, more than `MAX_ALIASES` aliases, or a
document whose alias-expanded size exceeds `MAX_NODES` raises `BoundedYamlError`
(a `yaml.YAMLError` with a `problem_mark`), so existing `except yaml.YAMLError`
handlers print one `path:line` line. Only then is the document composed.

Shared by KB frontmatter (`kb.safe_yaml` re-exports it) and the extractors that read
YAML from a repo (a `pnpm-lock.yaml` is larger than any frontmatter, so callers may raise
`max_nodes`; depth and aliases keep their bounds).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import ComposerError

MAX_DEPTH = 64
MAX_ALIASES = 100
MAX_NODES = 50_000
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed: linear time
_START = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_END = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


class BoundedYamlError(ComposerError):
    """Too deep, too many aliases, or too big once aliases are expanded."""


def _refuse(problem: str, mark: Any) -> None:
    raise BoundedYamlError(None, None, problem, mark)


def check_bounds(text: str, max_nodes: int = MAX_NODES) -> None:
    """Walk the events once; refuse a document that would be too deep or too big."""
    anchors: dict[str, int] = {}  # anchor -> value count with aliases expanded
    stack: list[list[Any]] = []  # [count so far, anchor] per open collection
    aliases = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, _START):
            stack.append([1, event.anchor])
            if len(stack) > MAX_DEPTH:
                _refuse(f"nested deeper than {MAX_DEPTH} levels", event.start_mark)
            continue
        if isinstance(event, _END):
            size, anchor = stack.pop()
        elif isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                _refuse(f"more than {MAX_ALIASES} aliases (*name)", event.start_mark)
            size, anchor = anchors.get(event.anchor, 1), None
        elif isinstance(event, yaml.ScalarEvent):
            size, anchor = 1, event.anchor
        else:
            continue
        if anchor:
            anchors[anchor] = size
        if stack:
            stack[-1][0] += size
            if stack[-1][0] > max_nodes:
                _refuse(
                    f"more than {max_nodes} values once aliases (*name) are expanded",
                    event.start_mark,
                )


def load_with_node(text: str, max_nodes: int = MAX_NODES) -> tuple[Any, yaml.Node | None]:
    """(data, root node) of a single YAML document, within the bounds above."""
    check_bounds(text, max_nodes)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return data, node


def load(text: str, max_nodes: int = MAX_NODES) -> Any:
    """`yaml.safe_load` within the bounds above."""
    return load_with_node(text, max_nodes)[0]
