"""YAML for hostile input: bounded nesting, bounded alias expansion, linear time.

`yaml.safe_load` is safe from code execution but not from size: nine levels of
anchors and aliases in 438 bytes expand to billions of values once anything walks
the data, and 20,000 nested `[` end in a RecursionError (or in minutes of the pure
Python scanner). Here libyaml's event stream is read first, before any node is
built: nesting deeper than `MAX_DEPTH`, more than `MAX_ALIASES` aliases, or a
document whose alias-expanded size exceeds `MAX_NODES` raises `BoundedYamlError`
(a `yaml.YAMLError` with a `problem_mark`), so existing `except yaml.YAMLError`
handlers print one `path:line` line. Only then is the document composed.

The same walk refuses an alias used inside its own anchor (`a: &a [*a]` builds a list
that holds itself, and whatever walks it next recurses without end) and, when asked
(`unique_keys`: KB files, where a repeated key silently overrides the first), a key
written twice in one mapping. A date YAML reads as a timestamp but no calendar has
(`2026-13-45`, `2026-02-30`) is a `ConstructorError` at its line, not a ValueError.

Shared by KB frontmatter (`kb.safe_yaml` re-exports it) and the extractors that read
YAML from a repo (a `pnpm-lock.yaml` is larger than any frontmatter, so callers may raise
`max_nodes`; depth and aliases keep their bounds).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError

MAX_DEPTH = 64
MAX_ALIASES = 100
MAX_NODES = 50_000
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed: linear time


class _Loader(_Base):
    """The safe loader, with a date no calendar has refused at its line."""

    def construct_yaml_timestamp(self, node):
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError:
            raise ConstructorError(
                None, None, f"'{node.value}' is not a real date — write YYYY-MM-DD", node.start_mark
            ) from None


_Loader.add_constructor("tag:yaml.org,2002:timestamp", _Loader.construct_yaml_timestamp)
_START = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_END = (yaml.SequenceEndEvent, yaml.MappingEndEvent)
_NODE = (*_START, yaml.ScalarEvent, yaml.AliasEvent)


class BoundedYamlError(ComposerError):
    """Too deep, too many aliases, or too big once aliases are expanded."""


def _refuse(problem: str, mark: Any) -> None:
    raise BoundedYamlError(None, None, problem, mark)


def _check_key(event: Any, seen: set[str]) -> None:
    """A mapping's key (a scalar) met a second time: the later value would silently win."""
    if isinstance(event, yaml.ScalarEvent):
        if event.value in seen:
            _refuse(
                f"key '{event.value}' appears twice in the same mapping — keep one",
                event.start_mark,
            )
        seen.add(event.value)


def check_bounds(text: str, max_nodes: int = MAX_NODES, unique_keys: bool = False) -> None:
    """Walk the events once; refuse a document that would be too deep or too big, an
    alias inside its own anchor, and (`unique_keys`) a key repeated in one mapping."""
    anchors: dict[str, int] = {}  # anchor -> value count with aliases expanded
    # per open collection: [count so far, anchor, keys seen (None: a sequence), items]
    stack: list[list[Any]] = []
    aliases = 0
    for event in yaml.parse(text, Loader=_Base):
        if not isinstance(event, _END) and stack and isinstance(event, _NODE):
            top = stack[-1]  # this event starts a node inside `top`: its key or a value
            if unique_keys and top[2] is not None and top[3] % 2 == 0:
                _check_key(event, top[2])
            top[3] += 1
        if isinstance(event, _START):
            keys = set() if isinstance(event, yaml.MappingStartEvent) else None
            stack.append([1, event.anchor, keys, 0])
            if len(stack) > MAX_DEPTH:
                _refuse(f"nested deeper than {MAX_DEPTH} levels", event.start_mark)
            continue
        if isinstance(event, _END):
            size, anchor, _, _ = stack.pop()
        elif isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                _refuse(f"more than {MAX_ALIASES} aliases (*name)", event.start_mark)
            if any(open_[1] == event.anchor for open_ in stack):
                _refuse(
                    f"alias *{event.anchor} is used inside its own anchor &{event.anchor} "
                    "(a value that holds itself)",
                    event.start_mark,
                )
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


def load_with_node(
    text: str, max_nodes: int = MAX_NODES, unique_keys: bool = False
) -> tuple[Any, yaml.Node | None]:
    """(data, root node) of a single YAML document, within the bounds above."""
    check_bounds(text, max_nodes, unique_keys)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return data, node


def load(text: str, max_nodes: int = MAX_NODES, unique_keys: bool = False) -> Any:
    """`yaml.safe_load` within the bounds above."""
    return load_with_node(text, max_nodes, unique_keys)[0]
