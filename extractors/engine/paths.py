"""Paths and URLs as typed parts: literal segments, parameters (every framework's spelling
read once, here: `:x {x} {x:int} <x> <int:x> [x] [...x] (?P<x>…)`), and holes (an env
var, a config key, a wrapper parameter, an unknown) — and the text a route or URL is named
by, in the framework's own syntax with each hole written `{NAME}` (or its default).

`Part` is what crosses into the warehouse (`segments` attr): never a flattened string
parsed back."""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.engine.values import (
    Choice,
    Concat,
    Config,
    Env,
    Ext,
    Lit,
    Param,
    Unknown,
    Value,
    concat,
)

PARAM = re.compile(
    r"^(?::(?P<colon>[A-Za-z_$][\w$]*)\??|\{(?P<brace>[A-Za-z_][\w]*)(?::[^}]*)?\}|"
    r"<(?:[a-z_]+:)?(?P<angle>[A-Za-z_]\w*)>|\[(?:\.\.\.)?(?P<bracket>[A-Za-z_]\w*)\]|"
    r"\(\?P<(?P<regex>[A-Za-z_]\w*)>[^)]*\))$"
)
MAX_OPTIONS = 8


@dataclass(frozen=True)
class Part:
    """One path segment: `lit` text, a `param` (name), or a `hole` (its source and name)."""

    kind: str  # lit | param | hole
    text: str  # the literal, the parameter name, or the hole's name
    source: str = ""  # hole: env | config | param | unknown
    default: str | None = None  # hole: the value it has when nothing sets it
    raw: str = ""  # a parameter as written (`:id`, `<int:pk>`)

    def as_dict(self) -> dict:
        out = {"kind": self.kind, "text": self.text}
        if self.raw and self.raw != self.text:
            out["raw"] = self.raw
        if self.source:
            out["source"] = self.source
        if self.default is not None:
            out["default"] = self.default
        return out


Choices = tuple[tuple[str, int], ...]  # (condition, branch taken) per choice made


HTTP_METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "ANY", "TRACE"}


def method_word(value: Value) -> str | None:
    """The text a method value is written as: a string, or a library enum's member named
    like a method (Azure's `func.HttpMethod.POST`, Python's `http.HTTPMethod.GET`)."""
    if isinstance(value, Lit) and isinstance(value.value, str):
        return value.value
    if isinstance(value, Ext) and len(value.path) >= 2 and value.path[-1] in HTTP_METHODS:
        return value.path[-1]
    return None


def options(value: Value, limit: int = MAX_OPTIONS) -> list[tuple[Value, Choices]]:
    """The alternatives of a value chosen at run time, each with the choices that lead to
    it (a ternary's condition and which branch), so that two values chosen by the same
    condition can be paired branch by branch (`slug ? 'PUT' : 'POST'` with `slug ? u1 : u2`)."""
    if isinstance(value, Choice):
        out: list[tuple[Value, Choices]] = []
        for branch, option in enumerate(value.options[:limit]):
            mine = ((value.condition, branch),) if value.condition else ()
            out += [(v, mine + c) for v, c in options(option, limit)]
        return out[:limit]
    if isinstance(value, Concat):
        alternatives: list[tuple[list[Value], Choices]] = [([], ())]
        for part in value.parts:
            opts = options(part, limit) if isinstance(part, Choice) else [(part, ())]
            alternatives = [(prefix + [opt], c + oc) for prefix, c in alternatives for opt, oc in opts
                            if compatible(c, oc)][:limit]  # fmt: skip
        return [(concat(*parts), c) for parts, c in alternatives]
    return [(value, ())]


def compatible(a: Choices, b: Choices) -> bool:
    """Two sets of choices can hold at once: no condition taken both ways."""
    taken = dict(a)
    return all(taken.get(cond, branch) == branch for cond, branch in b)


def condition_text(choices: Choices) -> str | None:
    if not choices:
        return None
    unique = dict.fromkeys(c if branch == 0 else f"not ({c})" for c, branch in choices)
    return " and ".join(unique)


_MEMBER_CHAIN = re.compile(r"^[A-Za-z_$][\w$]*(\??\.[A-Za-z_$][\w$]*)+$")
# members that only unwrap a holder (`ref.value` in Vue, `ref.current` in React, `this.x`)
_ACCESSORS = {"this", "self", "value", "current"}


def member_chain(expr: str) -> bool:
    """`article.slug`, `user?.id`: a member read, named by its last member."""
    return _MEMBER_CHAIN.match(" ".join(expr.split())) is not None


def member_name(word: str) -> str:
    """`article.slug` → `slug`, `username.value` → `username`: a member read is named by
    the member, holders (`.value`, `.current`, `this`) skipped; anything else as it is."""
    if not _MEMBER_CHAIN.match(word):
        return word
    names = [n for n in word.replace("?.", ".").split(".") if n not in _ACCESSORS]
    return names[-1] if names else word


def hole_name(value: Value) -> tuple[str, str, str | None]:
    """(name, source, default text) of a part that is not a literal."""
    if isinstance(value, Env):
        default = _default_of(value.default)
        return value.name, "env", None if default is None else str(default)
    if isinstance(value, Config):
        default = _default_of(value.default)
        return value.key.rsplit(".", 1)[-1], "config", None if default is None else str(default)
    if isinstance(value, Param):
        return member_name(value.name), "param", None
    if isinstance(value, Unknown):  # the expression as written: `{compute_prefix()}`
        word = member_name(" ".join(value.expr.split()))
        word = (
            word if word and len(word) <= 48 and "/" not in word and "\n" not in word else "dynamic"
        )
        return word, "unknown", None
    return "dynamic", "unknown", None


def _default_of(value: Value | None, depth: int = 0):
    """A hole's default text: a literal, or the default of the env var or setting it reads
    (`settings.X` written as `env("X", default="api/")`)."""
    if isinstance(value, Lit):
        return value.value
    if isinstance(value, (Env, Config)) and depth < 4:
        return _default_of(value.default, depth + 1)
    return None


def text_parts(value: Value) -> list[tuple[str, Value | None]]:
    """The value as (text, hole value or None) chunks, defaults filled in for holes."""
    parts = value.parts if isinstance(value, Concat) else (value,)
    out: list[tuple[str, Value | None]] = []
    for part in parts:
        if isinstance(part, Lit):
            out.append(("" if part.value is None else str(part.value), None))
        else:
            out.append(("", part))
    return out


def segments(value: Value) -> list[Part]:
    """Path segments of a (single-option) path value. A hole with a default becomes one
    hole part per segment of its default (read as the default, matched as a hole)."""
    out: list[Part] = []
    current: list = []  # text pieces and hole parts of the segment being read

    def flush() -> None:
        if not current:
            return
        if len(current) == 1 and isinstance(current[0], Part):
            out.append(current[0])
        else:
            text = "".join(c if isinstance(c, str) else "{" + c.text + "}" for c in current)
            m = PARAM.match(text)
            if m is not None:
                out.append(Part("param", next(g for g in m.groups() if g), raw=text))
            else:
                out.append(Part("lit", text))
        current.clear()

    for text, hole in text_parts(value):
        if hole is not None:
            name, source, default = hole_name(hole)
            if default is not None and not current:
                for i, piece in enumerate(default.split("/")):
                    if i > 0:
                        flush()
                    if piece:
                        current.append(Part("hole", name, source, piece))
                continue
            current.append(Part("hole", name, source, default))
            continue
        for i, piece in enumerate(text.split("/")):
            if i > 0:
                flush()
            if piece:
                current.append(piece)
    flush()
    return out


def display(parts: list[Part], trailing_slash: bool = False) -> str:
    """`/a/{ENV}/:id` from parts; a parameter keeps the spelling it was written in."""
    text = "/" + "/".join(
        (p.default if p.default is not None else "{" + p.text + "}")
        if p.kind == "hole"
        else (p.raw or p.text)
        for p in parts
    )
    if trailing_slash and parts:
        text += "/"
    return text


def join(prefix: Value | None, path: Value | None) -> Value:
    """A mount prefix and a path below it: one slash between, none doubled or lost."""
    if prefix is None:
        return path if path is not None else Lit("")
    if path is None or (isinstance(path, Lit) and path.value in ("", "/", None)):
        return prefix  # the mount's own path (`router.get('/')`, `@router.get("")`)
    last = prefix.parts[-1] if isinstance(prefix, Concat) else prefix
    first = path.parts[0] if isinstance(path, Concat) else path
    slash_before = isinstance(last, Lit) and str(last.value or "").endswith("/")
    if isinstance(first, Lit) and str(first.value or "").startswith("/"):
        if slash_before:
            return concat(
                prefix,
                Lit(str(first.value).lstrip("/")),
                *(path.parts[1:] if isinstance(path, Concat) else ()),
            )
        return concat(prefix, path)
    return concat(prefix, path) if slash_before else concat(prefix, Lit("/"), path)


def holes_of(value: Value) -> list[dict]:
    """Every hole of a path or URL with its name, source and default (for `holes` attrs)."""
    found = []
    for _, hole in text_parts(value):
        if hole is not None:
            name, source, default = hole_name(hole)
            item = {"name": name, "source": source}
            if default is not None:
                item["default"] = default
            if isinstance(hole, Unknown) and hole.expr:
                item["expr"] = hole.expr
            found.append(item)
    return found


def ends_with_slash(value: Value) -> bool:
    """The path ends with `/`: its last literal, or the default a final hole is read as."""
    chunks = text_parts(value)
    if not chunks:
        return False
    text, hole = chunks[-1]
    if hole is None:
        return text.endswith("/")
    default = hole_name(hole)[2]
    return default is not None and default.endswith("/")


def path_text(value: Value) -> tuple[str, list[Part]]:
    """(the path as named — `/api/users/:id`, a trailing slash kept — and its parts)."""
    parts = segments(value)
    return display(parts, ends_with_slash(value) and bool(parts)), parts
