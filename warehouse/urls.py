"""URL pieces for base resolution: host[:port] of a URL, path prefixes, `${BASE}${path}`
joins, dev-server proxy / rewrite rules, and the build mode a value's file stands for."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from warehouse.routematch import join_path, segments

LOCAL_HOSTS = {"localhost", "127.0.0.1", "0.0.0.0", "[::1]", "::1"}
_DEFAULT_PORTS = {"http": 80, "https": 443}
BARE_HOST = re.compile(r"^(localhost|([a-z0-9-]+\.)+[a-z]{2,})(:\d+)?(/\S*)?$", re.I)


def netloc(url: str) -> tuple[str, str] | None:
    """(host[:port], path) of an absolute http(s) URL, localhost aliases folded."""
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
    return host, parts.path or "/"


def is_prefix(prefix: str, path: str) -> bool:
    head, whole = segments(prefix), segments(path)
    return whole[: len(head)] == head


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
    else:
        return "*"
    aliases = {"dev": "development", "prod": "production", "sample": "example"}
    mode = aliases.get(mode, mode)
    return "example" if mode in {"template", "dist", "defaults"} else mode


def join_url(base: str, path: str) -> str:
    """`${BASE}${path}` with `//` collapsed in the path part."""
    loc = urlsplit(base)
    head = f"{loc.scheme}://{loc.netloc}"
    return head + join_path(loc.path, path)


_NAMED = re.compile(r"^:(\w+)([*+?]?)$")


def _bind(source: str, path: str) -> dict[str, str] | None:
    """Params of a path-to-regexp / glob `source` bound by `path`, or None (no match)."""
    pat, call = segments(source), segments(path.split("?", 1)[0])
    bound: dict[str, str] = {}
    for i, seg in enumerate(pat):
        named = _NAMED.match(seg)
        if seg in ("**", "(.*)") or (named and named.group(2) in ("*", "+")):
            rest = call[i:]
            if named and named.group(2) == "+" and not rest:
                return None
            bound[named.group(1) if named else "*"] = "/".join(rest)
            return bound
        if i >= len(call):
            return None
        if named or seg == "*":
            bound[named.group(1) if named else "*"] = call[i]
        elif seg != call[i]:
            return None
    return bound if len(pat) == len(call) else None


def proxy_path(source: str, target: str, strip: Any, path: str) -> str | None:
    """Where a proxy/rewrite sends `path`, or None when the rule does not apply.

    Pattern rules (next.config rewrites): `/api/:path*` → destination with `:path*`
    substituted. Prefix rules (vite, CRA, http-proxy-middleware): `/api` matches `/api/x`
    and sends `target + path` (minus `strip`, a prefix its `rewrite`/`pathRewrite` removes).
    """
    if not source:
        return None
    if any(c in source for c in ":*("):
        bound = _bind(source, path)
        if bound is None:
            return None
        dest = target
        for name, value in bound.items():
            dest = re.sub(rf":{re.escape(name)}[*+?]?(?=/|$)", value, dest)
        return dest
    if not is_prefix(source, path):
        return None
    rest = path
    if isinstance(strip, str) and strip and is_prefix(strip, rest):
        rest = "/" + "/".join(segments(rest)[len(segments(strip)) :])
    return join_url(target, rest) if "://" in target else join_path(target, rest)
