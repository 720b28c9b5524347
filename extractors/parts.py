"""Every route and http_call crosses into the warehouse typed: `segments` (vocab.pathparts)
on each, and on a call also where its base comes from. The engine writes typed parts
itself; the extractors that name paths by string (file-system routes, Django, the SDK
readers) get them here, from the same one reading of parameter spellings, so the bridge
never parses a path back out of a name.

A call's base, as the bridge reads it: `env_var` (the env var or configuration key the URL
starts with), `base` (a literal absolute origin, with any path the base adds), neither
(a relative URL: `page_relative` when it does not start with `/`). `segments` is the path
after the origin of an absolute URL, after the env var / configuration key of one that
starts with it, or the relative URL's path.

Runs after every other extractor (`AFTER_ALL`): it completes what they wrote."""

from __future__ import annotations

import re
from typing import Any

from extractors.base import ComponentContext
from vocab.pathparts import Seg, classify, from_attrs

NAME = "parts"
PROVIDES = ()
REQUIRES = ()
AFTER_ALL = True

_ENV_HEAD = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_.]*)\}(.*)$", re.S)
_ENV_NAME = re.compile(
    r"^(process\.env\.|import\.meta\.env\.|environment\.)?[A-Z][A-Z0-9_]*$|^environment\."
)
_HOLE = re.compile(r"^\$?\{([^{}]*)\}$")


def extract(ctx: ComponentContext) -> None:
    complete(ctx.facts.nodes)


def complete(nodes: list) -> None:
    """Type every route's and http_call's path in place (facts.Node objects)."""
    for node in nodes:
        if node.kind == "route":
            _route(node.name, node.attrs)
        elif node.kind == "http_call":
            call_parts(node.attrs)


def _route(name: str, attrs: dict[str, Any]) -> None:
    typed = from_attrs(attrs.get("segments"))
    if typed is None:
        path = attrs.get("path")
        if not isinstance(path, str):
            head, _, tail = name.partition(" ")
            path = tail if tail.startswith("/") else name
        typed = [classify(s) for s in path.split("/") if s]
    attrs["segments"] = [s.as_dict() for s in _regex_anchors(typed)]


def _regex_anchors(segs: list[Seg]) -> list[Seg]:
    """A regex route's anchors and optional slash (`^articles/(?P<slug>…)/?$`) are no
    segments of the path it serves."""
    out = []
    for s in segs:
        if s.kind == "lit":
            text = s.text.removeprefix("^").removesuffix("$")
            if text in ("", "?"):
                continue
            s = classify(text) if text != s.text else s
        out.append(s)
    return out


def _no_query(segs: list[Seg]) -> list[Seg]:
    """The path ends where the query string or fragment starts (`articles?limit={n}`)."""
    for i, s in enumerate(segs):
        cut = min((s.text.find(c) for c in "?#" if c in s.text), default=-1)
        if cut >= 0:
            head = s.text[:cut]
            return segs[:i] + ([Seg("lit", head)] if head and s.kind == "lit" else [])
    return segs


def _call_seg(text: str) -> Seg:
    """A call's path segment as text: a `{x}` / `${x}` substitution is a hole (the call's
    value), not a route parameter."""
    if m := _HOLE.match(text):
        return Seg("hole", m.group(1) or "dynamic", "unknown")
    if "{" in text:  # `v{n}` part literal, part value: a hole that keeps what it is
        return Seg("hole", text, "unknown")
    seg = classify(text)
    return Seg("hole", seg.text, "unknown") if seg.kind != "lit" else seg


def call_parts(attrs: dict[str, Any]) -> None:
    """Fill `segments` (and `env_var` / `base` / `page_relative`) of one http_call's attrs."""
    template = str(attrs.get("url_template") or attrs.get("url") or "")
    if attrs.get("operation") and not template:
        return  # a generated client's operation, called by name: no URL to type
    env_var, base, path = attrs.get("env_var"), attrs.get("base"), attrs.get("path")
    if isinstance(base, str) and (m := _ENV_HEAD.match(base)) and not m.group(2):
        env_var, base = env_var or m.group(1), None
    elif isinstance(base, str) and base:
        env_var = None if "://" in base else env_var  # an env var inside the path is a value
    if path is None:
        if (m := _ENV_HEAD.match(template)) and env_var in (None, m.group(1)):
            if env_var == m.group(1) or _ENV_NAME.match(m.group(1)):
                env_var, path = m.group(1), m.group(2)
        elif base and template.startswith(str(base)):
            path = template[len(str(base)) :]
        elif "://" in template[:12] and not base:
            scheme, _, rest = template.partition("://")
            host, slash, tail = rest.partition("/")
            base, path = f"{scheme}://{host}", "/" + tail if slash else "/"
        else:
            path = template
        if path is None:  # `{url}`: a run-time value that is no env var
            path = template
    if env_var and not base and not _ENV_HEAD.match(template) and template.startswith("/"):
        env_var = None  # `/api/{VAR}/x`: the env var is a value in a relative URL
    if isinstance(env_var, str):
        env_var = env_var.removeprefix("process.env.").removeprefix("import.meta.env.")
        attrs["env_var"] = env_var
    else:
        attrs.pop("env_var", None)
    if isinstance(base, str) and "://" in base:
        attrs["base"] = base
    typed = from_attrs(attrs.get("segments"))
    if typed is None:
        text = str(path or "").split("?", 1)[0].split("#", 1)[0]
        if isinstance(base, str) and "://" in base:  # the path after the origin, base's too
            text = base.split("://", 1)[1].partition("/")[2] + "/" + text
        typed = [_call_seg(s) for s in text.split("/") if s]
    typed = _no_query(typed)
    attrs["segments"] = [s.as_dict() for s in typed]
    relative = not env_var and not (isinstance(base, str) and "://" in base)
    if relative and template.startswith("{") and typed and typed[0].kind == "hole":
        attrs["base_hole"] = typed[0].text  # `${getBase()}/x`: the base is a run-time value
    written = str(path if path is not None else template)
    if relative and written and not written.startswith(("/", "{", "$", "?", "#", "./", "../")):
        attrs["page_relative"] = True  # `api/users`: the browser reads it against the page
