"""Where a value sits in a config file: JSON key lines, YAML nodes with lines, TOML lines,
and the `NAME=value` assignments that prefix a shell command.

Shared by the deploy-file readers (`infra.deploy` and its `deploy_*` helpers).
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from collections.abc import Iterator
from typing import Any

import yaml

from extractors.source import SourceFile

JsonPath = tuple[str | int, ...]
_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.S)
_OPERATORS = {"&&", "||", ";", "|", "&", ";;", "(", ")"}
_PREFIX_WORDS = {"export", "env", "cross-env", "cross-env-shell"}
_TOML_PAIR = re.compile(r"^\s*([A-Za-z0-9_\"'.-]+)\s*=\s*(.+?)\s*$")


def json_lines(sf: SourceFile) -> dict[JsonPath, int]:
    """Line of every key (objects) and item (arrays) of a JSON file, by its path of keys and
    indexes: `{("hosting", "rewrites", 0, "source"): 7, ...}` (first occurrence wins)."""
    out: dict[JsonPath, int] = {}
    stack = [(child, ()) for child in sf.tree.root_node.named_children]
    while stack:
        node, path = stack.pop()
        if node.type == "object":
            for pair in node.named_children:
                key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                if pair.type != "pair" or key is None:
                    continue
                try:
                    name = json.loads(sf.node_text(key))
                except (ValueError, RecursionError):
                    continue
                if isinstance(name, str):
                    out.setdefault((*path, name), SourceFile.line(key))
                    if value is not None:
                        stack.append((value, (*path, name)))
        elif node.type == "array":
            items = [c for c in node.named_children if c.type != "comment"]
            for i, item in enumerate(items):
                out.setdefault((*path, i), SourceFile.line(item))
                stack.append((item, (*path, i)))
    return out


def load_json(sf: SourceFile) -> Any:
    """The parsed JSON document, or None when it is not valid JSON."""
    try:
        return json.loads(sf.text)
    except (ValueError, RecursionError):
        return None


def line_of(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def ymap(node: yaml.Node | None) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    """A YAML mapping node's scalar keys → (key node, value node); {} for anything else.
    Merge keys (`<<: *defaults`) add the merged mapping's keys that are not written here,
    at the lines where the anchor wrote them."""
    if not isinstance(node, yaml.MappingNode):
        return {}
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    merged: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for k, v in node.value:
        if not isinstance(k, yaml.ScalarNode):
            continue
        if k.value == "<<" and k.tag.endswith(":merge"):
            for source in [v] if isinstance(v, yaml.MappingNode) else yseq(v):
                for key, pair in ymap(source).items():
                    merged.setdefault(key, pair)
        else:
            out[str(k.value)] = (k, v)
    return {**merged, **out}


def yseq(node: yaml.Node | None) -> list[yaml.Node]:
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def named_items(
    node: yaml.Node | None, key: str
) -> Iterator[tuple[str, yaml.Node, dict[str, tuple[yaml.Node, yaml.Node]]]]:
    """(name, key node, the item's mapping) of each item of a YAML list of mappings that
    names something under `key` (`- name: X` / `- variable: X`)."""
    for item in yseq(node):
        entry = ymap(item)
        name = yscalar(entry.get(key, (None, None))[1])
        if name:
            yield name, entry[key][0], entry


def yscalar(node: yaml.Node | None) -> str | None:
    return str(node.value) if isinstance(node, yaml.ScalarNode) else None


def toml_pairs(text: str) -> Iterator[tuple[int, str, str | None, Any]]:
    """(line, table, key, value) of every one-line `key = value` of a TOML file; `table` is
    the dotted header above it (`build.environment`, `redirects` for `[[redirects]]`), and
    each header itself comes as (line, table, None, None). Values are decoded by tomllib; a
    pair whose value spans lines is skipped."""
    table = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped.startswith("["):
            table = stripped.strip("[] ").split("#", 1)[0].strip().strip("[] ")
            table = ".".join(part.strip().strip("\"'") for part in table.split("."))
            yield number, table, None, None
            continue
        found = _TOML_PAIR.match(raw)
        if found is None or stripped.startswith("#"):
            continue
        try:
            value = tomllib.loads(f"v = {found.group(2)}")["v"]
        except tomllib.TOMLDecodeError:
            continue
        yield number, table, found.group(1).strip("\"'"), value


def command_env(command: str) -> list[tuple[str, str]]:
    """(NAME, value) of the assignments that prefix each command of a shell line:
    `NEXT_PUBLIC_X="${X:-y}" next build`, `export A=1 && ...`, `cross-env NODE_ENV=prod ...`."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:  # unbalanced quotes: only the plain leading words
        tokens = command.split()
    out: list[tuple[str, str]] = []
    start = True
    for token in tokens:
        if token in _OPERATORS:
            start = True
            continue
        if not start:
            continue
        if token in _PREFIX_WORDS:
            continue
        if found := _ASSIGN.match(token):
            out.append((found.group(1), found.group(2)))
            continue
        start = False
    return out
