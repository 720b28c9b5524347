"""Split a Markdown file into YAML frontmatter and body, keeping line numbers.

Every mapping key's line is recorded under its dotted path (`envs.prod.runtime`,
`secrets.0.env_var`) so validation can point at `path:line` of the offending field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from kb import safe_yaml


class FrontmatterError(ValueError):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass
class ParsedMarkdown:
    frontmatter: dict[str, Any]
    body: str
    body_start_line: int  # 1-based line where the body starts
    key_lines: dict[str, int] = field(default_factory=dict)
    has_frontmatter: bool = True


def _record_lines(node: yaml.Node, prefix: str, out: dict[str, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = f"{prefix}{key_node.value}"
            out[key] = key_node.start_mark.line + 1
            _record_lines(value_node, key + ".", out)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            key = f"{prefix}{index}"
            out[key] = item.start_mark.line + 1
            _record_lines(item, key + ".", out)


def key_lines(node: yaml.Node | None) -> dict[str, int]:
    """{dotted key: 1-based line} of every mapping key and list item under `node`."""
    out: dict[str, int] = {}
    if node is not None:
        _record_lines(node, "", out)
    return out


def parse_markdown(text: str) -> ParsedMarkdown:
    """Parse `---` fenced YAML frontmatter. Raises FrontmatterError with a 1-based line."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return ParsedMarkdown({}, text, 1, {}, has_frontmatter=False)
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        raise FrontmatterError(1, "frontmatter opened with '---' is never closed")
    yaml_text = "\n".join(lines[1:end])
    try:
        data, node = safe_yaml.load_with_node(yaml_text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = (mark.line + 2) if mark is not None else 1
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise FrontmatterError(line, f"malformed YAML frontmatter: {reason}") from None
    if data is None:
        data, node = {}, None
    if not isinstance(data, dict):
        raise FrontmatterError(2, "frontmatter must be a YAML mapping of field: value")
    lines_of = {k: v + 1 for k, v in key_lines(node).items()}  # +1 for the opening '---'
    body = "\n".join(lines[end + 1 :])
    return ParsedMarkdown(data, body, end + 2, lines_of)
