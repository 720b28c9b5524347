"""A route registered by a regular expression (`re_path(r'^x/(?P<slug>[-\\w]+)/?$')`) read
the way a person writes the path it serves: `/x/<slug>` — named groups as parameters,
anchors and an optional trailing slash dropped. The pattern itself stays in the route's
`pattern` attr (provenance), and either spelling finds the route."""

from __future__ import annotations

import re

_MARKS = re.compile(r"\(\?P?<|\^|\$|/\?$")
_GROUP_OPEN = re.compile(r"\(\?P?<(\w+)>")


def is_pattern(path: str) -> bool:
    return bool(_MARKS.search(path or ""))


def _close(text: str, start: int) -> int:
    """Index just past the group opened before `start` (nested parentheses counted)."""
    depth, i = 1, start
    while i < len(text) and depth:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        depth += ch == "("
        depth -= ch == ")"
        i += 1
    return i


def readable_path(path: str) -> str:
    """`/api/a/(?P<slug>[-\\w]+)/b/?` → `/api/a/<slug>/b`; any other path as it is."""
    if not is_pattern(path):
        return path
    out, pos = [], 0
    for m in _GROUP_OPEN.finditer(path):
        if m.start() < pos:
            continue  # a group nested in one already replaced
        out.append(path[pos : m.start()] + f"<{m.group(1)}>")
        pos = _close(path, m.end())
    text = "".join(out) + path[pos:]
    text = text.replace("^", "").replace("$", "")
    text = re.sub(r"/\?(?=/|$)", "", text)
    text = re.sub(r"\\([./\-])", r"\1", text)
    return re.sub(r"/{2,}", "/", text) or "/"


def readable_name(name: str) -> str:
    """`POST /x/(?P<id>\\d+)/?` → `POST /x/<id>` (a route node's name: METHOD path)."""
    method, sep, path = (name or "").partition(" ")
    if sep and path.startswith("/"):
        return f"{method} {readable_path(path)}"
    return readable_path(name) if (name or "").startswith("/") else name
