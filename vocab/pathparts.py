"""Typed path segments, and the one reading of every framework's parameter spelling.

A route's or URL's path crosses from the extractors into the warehouse as a list of typed
segments (`segments` attrs: `{kind, text, source?, default?, raw?}`), never as a string
parsed back. `kind` is one of:

- `lit`: literal text (`users`);
- `param`: a path parameter of one segment — `:x`, `:x?`, `{x}`, `{x:int}`, `<x>`,
  `<int:x>`, `[x]`, `(?P<x>…)`, `*` — matching any one segment;
- `rest`: a catch-all — `[...x]`, `[[...x]]`, `**`, `*x`, `:x*`, `:x+`, `{x:path}`,
  `{*x}`, `(.*)` — matching the rest of the path;
- `hole`: a value the extractor could not read (an env var, a config key, a wrapper
  parameter, an unknown), with its `source` and, when the code gives one, its `default`.

`classify` is that reading, used by every floor: the extractors when they name a path,
the bridge, the drift checks (routes written in docs) and the MCP server (routes typed by
an agent)."""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = ("lit", "param", "rest", "hole")

_ONE = re.compile(
    r"^(?::(?P<colon>[A-Za-z_$][\w$-]*)\??|\{(?P<brace>[A-Za-z_][\w-]*)(?::(?!path\})[^}]*)?\}|"
    r"<(?:(?!path:)[a-z_]+:)?(?P<angle>[A-Za-z_]\w*)>|\[(?P<bracket>[A-Za-z_][\w-]*)\]|"
    r"\(\?P<(?P<regex>[A-Za-z_]\w*)>[^)]*\)|(?P<star>\*)|\((?!\?)(?P<group>[^()/]+)\))$"
)  # `group`: an unnamed regex group (`([0-9]+)` of Tornado, Django's re_path), read by position
_REST = re.compile(
    r"^(?:\[\[?\.\.\.(?P<spread>[\w-]+)\]\]?|(?P<glob>\*\*)|\*(?P<named>[A-Za-z_][\w-]*)|"
    r":(?P<plus>[\w-]+)[*+]|\{(?P<path>[\w-]+):path\}|\{\*(?P<star>[\w-]+)\}|"
    r"<path:(?P<angle>\w+)>|(?P<any>\(\.\*\)))$"
)


@dataclass(frozen=True)
class Seg:
    """One typed path segment."""

    kind: str  # lit | param | rest | hole
    text: str  # the literal, or the parameter / hole name
    source: str = ""  # hole: env | config | param | unknown
    default: str | None = None  # hole: its value when nothing sets it

    def as_dict(self) -> dict:
        out: dict = {"kind": self.kind, "text": self.text}
        if self.source:
            out["source"] = self.source
        if self.default is not None:
            out["default"] = self.default
        return out

    @property
    def shown(self) -> str:
        if self.kind == "lit":
            return self.text
        if self.kind == "rest":
            return "{" + self.text + "*}"
        if self.kind == "hole" and self.default is not None:
            return self.default
        return "{" + self.text + "}"


def classify(text: str) -> Seg:
    """One segment as written: a parameter or catch-all in any framework's spelling, else a
    literal. A `${x}` / `{x}` substitution left in a call's text is a hole."""
    if m := _REST.match(text):
        name = next((g for g in m.groups() if g), "rest")
        return Seg("rest", "rest" if name in ("**", "(.*)") else name)
    if m := _ONE.match(text):
        if m.group("group"):
            return Seg("param", "param")
        name = next(g for g in m.groups() if g)
        return Seg("param", "any" if name == "*" else name)
    if text.startswith("${") and text.endswith("}") and "}" not in text[2:-1]:
        return Seg("hole", text[2:-1] or "dynamic", "unknown")
    return Seg("lit", text)


def text_segments(path: str) -> list[Seg]:
    """Typed segments of a path written as text (a doc claim, an agent's question, a
    route a framework names by string); the query string and fragment are not the path."""
    path = path.split("?", 1)[0].split("#", 1)[0]
    return [classify(s) for s in path.split("/") if s]


def from_attrs(items: object) -> list[Seg] | None:
    """The `segments` attr of a node as typed segments (None when absent or malformed).
    A `param` whose text is a catch-all spelling (an older fact) is read as `rest`."""
    if not isinstance(items, list):
        return None
    out = []
    for item in items:
        if not isinstance(item, dict) or item.get("kind") not in KINDS:
            return None
        kind, text = str(item["kind"]), str(item.get("text") or "")
        default = item.get("default")
        if kind == "lit" and (_ONE.match(text) or _REST.match(text)):
            out.append(classify(text))  # `*` written literally is a framework's wildcard
            continue
        if kind == "param" and _REST.match(str(item.get("raw") or "")):
            kind = "rest"
        out.append(
            Seg(
                kind, text, str(item.get("source") or ""), None if default is None else str(default)
            )
        )
    return out


def shown(segs: list[Seg]) -> str:
    """`/a/{id}/{rest*}` — how a typed path is written in answers and reasons."""
    return "/" + "/".join(s.shown for s in segs)
