"""URL values for base resolution: host[:port] of a base URL (from `.env` files, the KB,
proxy targets — values, not call paths), typed path prefixes, the build mode a value's
file stands for, and where a proxy or rewrite rule sends a typed call path."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from vocab.pathparts import Seg, text_segments

LOCAL_HOSTS = {"localhost", "127.0.0.1", "0.0.0.0", "[::1]", "::1"}
_DEFAULT_PORTS = {"http": 80, "https": 443}
BARE_HOST = re.compile(r"^(localhost|([a-z0-9-]+\.)+[a-z]{2,})(:\d+)?(/\S*)?$", re.I)


def netloc(url: str) -> tuple[str, list[Seg]] | None:
    """(host[:port], typed path) of an absolute http(s) URL value, localhost aliases folded."""
    if "://" not in url:
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if not host or "{" in host:
        return None
    host = "localhost" if host in LOCAL_HOSTS else host
    if port and port != _DEFAULT_PORTS.get(parts.scheme):
        host = f"{host}:{port}"
    return host, text_segments(parts.path or "/")


def origin_of(url: str) -> str:
    """`scheme://host[:port]` of an absolute URL value."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def bare_host(host: str) -> str:
    return host.split(":")[0]


def starts_with(segs: list[Seg], head: list[Seg]) -> bool:
    """The typed path begins with these literal segments."""
    if len(segs) < len(head):
        return False
    return all(s.kind == "lit" and s.text == h.text for s, h in zip(segs, head, strict=False))


def env_mode(file: str) -> str:
    """The build mode a value's file stands for (`*` = every mode)."""
    name = file.rsplit("/", 1)[-1].lower()
    if name.startswith(".env"):
        rest = [p for p in name.split(".")[2:] if p != "local"]
        if not rest:
            return "*"
        mode = rest[0]
    elif name.startswith(("docker-compose", "compose")):
        parts = name.split(".")[1:-1]
        mode = parts[0] if parts and parts[0] not in {"override"} else "*"
    elif name.startswith("environment") and name.endswith((".ts", ".js")):
        parts = name.split(".")[1:-1]
        mode = parts[0] if parts else "development"
    elif name == "code default":
        return "*"
    else:
        return "*"
    aliases = {"dev": "development", "prod": "production", "sample": "example"}
    mode = aliases.get(mode, mode)
    return "example" if mode in {"template", "dist", "defaults"} else mode


def _sample(segs: list[Seg]) -> str:
    return "/" + "/".join(s.text if s.kind == "lit" else "x" for s in segs)


def _bind(pattern: list[Seg], call: list[Seg]) -> dict[str, list[Seg]] | None:
    """Parameters of a path-to-regexp / glob source bound by the call's segments, or None."""
    bound: dict[str, list[Seg]] = {}
    for i, seg in enumerate(pattern):
        if seg.kind == "rest":
            bound[seg.text] = call[i:]
            return bound
        if i >= len(call):
            return None
        if seg.kind == "param":
            bound[seg.text] = [call[i]]
        elif call[i].kind != "lit" or call[i].text != seg.text:
            return None
    return bound if len(pattern) == len(call) else None


def apply_rule(rule: dict[str, Any], call: list[Seg]) -> tuple[str, list[Seg]] | None:
    """Where a proxy / rewrite rule sends the call: (target origin or '' for the same
    origin, typed destination path), or None when the rule does not apply.

    `match: prefix` (Vite, CRA, webpack devServer, nginx `location /api/`): the source's
    literal segments begin the path; the target gets the path, minus `strip`.
    `match: pattern` (Next rewrites, Firebase globs): `:x`, `:x*`, `*`, `**` bind segments,
    substituted into the destination. `match: regex` (a Vite key starting with `^`)."""
    source, target = str(rule.get("source") or ""), str(rule.get("target") or "")
    match = str(rule.get("match") or ("pattern" if any(c in source for c in ":*(") else "prefix"))
    loc = netloc(target)
    origin = origin_of(target) if loc else ""
    dest_base = loc[1] if loc else text_segments(target)
    if match == "regex":
        try:
            if not re.search(source, _sample(call)):
                return None
        except re.error:
            return None
        rest = call
    elif match == "pattern":
        bound = _bind(text_segments(source), call)
        if bound is None:
            return None
        out: list[Seg] = []
        for seg in dest_base:
            out += bound.get(seg.text, [seg]) if seg.kind in ("param", "rest") else [seg]
        return origin, out
    else:
        head = text_segments(source)
        if not starts_with(call, head):  # `/` (CRA's `proxy`): every path
            return None
        rest = call
    strip = text_segments(str(rule.get("strip") or ""))
    if strip and starts_with(rest, strip):
        rest = rest[len(strip) :]
    return origin, [*dest_base, *rest]
