"""Provenance tails: one compact clause per hop saying how its value was built.

The extractors store how a call's URL and a route's path were composed; an answer that
prints only the result leaves the agent to re-read the code. A tail reads:

- an HTTP call: `URL = <base> + <path>`, the base as the env var with its value in each
  file that sets it (`API_URL = http://localhost:3000 (.env.development:2)`), or the
  constant / setting at its line; the wrapper, interceptor or SDK lines between the call
  site and the client call (`hops`, outermost first); the client.
- a route: the mount chain that built its full path (`mounts`: `file:line` of each mount,
  with the prefix set there), and for a prefix hole (`{API_PREFIX}`) the env var or
  setting of that name with its values — or a plain "unresolved".
"""

from __future__ import annotations

import re
from typing import Any

from mcp_server.graph import ProjectGraph
from mcp_server.render import short
from mcp_server.route_names import is_hole

_AT = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+)(?P<rest>.*)$")
NO_PREFIX = "(no prefix)"
_BRACE = re.compile(r"\{([^{}]*)\}")
MAX_VALUES = 3


def _env_node(pg: ProjectGraph, component: str | None, name: str) -> str | None:
    for n in pg.by_name.get(name.lower(), []):
        d = pg.node(n)
        if d.get("kind") == "env_var" and d.get("component") == component:
            return n
    return None


def declared_lines(pg: ProjectGraph, env: str) -> dict[str, str]:
    """file → `file:line` of each declaration of an env var (DECLARES edges, else its node)."""
    out: dict[str, str] = {}
    for _, _, d in pg.g.in_edges(env, data=True):
        if d.get("type") == "DECLARES" and d.get("file"):
            out.setdefault(
                str(d["file"]), f"{d['file']}:{d['line']}" if d.get("line") else d["file"]
            )
    data = pg.node(env)
    if data.get("file") and data.get("line"):
        out.setdefault(str(data["file"]), f"{data['file']}:{data['line']}")
    return out


def env_values(pg: ProjectGraph, env: str) -> str:
    """`NAME = v1 (file:line); v2 (file:line)` — the value in each file that sets it, or
    where it is declared without a value; `NAME (set nowhere in the repo)` otherwise."""
    data = pg.node(env)
    name = str(data.get("name"))
    values = (data.get("attrs") or {}).get("values")
    lines = declared_lines(pg, env)
    shown = []
    if isinstance(values, dict):
        for file, value in list(values.items())[:MAX_VALUES]:
            shown.append(f"{short(value, 60)} ({lines.get(str(file), file)})")
        more = len(values) - MAX_VALUES
        if more > 0:
            shown.append(f"+{more} more")
    if shown:
        return f"{name} = " + "; ".join(shown)
    if lines:
        return f"{name} (declared without a value at {', '.join(list(lines.values())[:3])})"
    return f"{name} (set nowhere in the repo: a deploy-time value)"


def _setting_text(pg: ProjectGraph, setting: str) -> str:
    d = pg.node(setting)
    value = (d.get("attrs") or {}).get("value")
    head = (
        f"{d.get('name')} = {short(value, 60)}" if value not in (None, "") else str(d.get("name"))
    )
    return f"{head} ({d.get('file')}:{d.get('line')})"


def base_text(pg: ProjectGraph, call: str) -> str:
    """Where the call's base URL comes from, with its value(s) and the line(s) setting it."""
    data = pg.node(call)
    a = data.get("attrs") or {}
    comp = data.get("component")
    env = a.get("env_var")
    if isinstance(env, str) and env:
        node = _env_node(pg, comp, env.split(".")[-1] if env.startswith("environment.") else env)
        if node is None and env.startswith("environment."):
            cfg = [
                n for n in pg.by_name.get(env.lower(), []) if pg.node(n).get("component") == comp
            ]
            vals = (pg.attrs(cfg[0]).get("values") or {}) if cfg else {}
            if vals:
                shown = "; ".join(f"{short(v, 50)} ({f})" for f, v in list(vals.items())[:3])
                return f"base {env} = {shown}"
        return "base " + (
            env_values(pg, node) if node else f"{env} (env var, set nowhere in the repo)"
        )
    setting = a.get("base_setting")
    if isinstance(setting, str) and setting in pg.g:
        return "base " + _setting_text(pg, setting)
    if a.get("base"):
        named = f"{a['base_name']} = " if a.get("base_name") else ""
        return f"base {named}{short(a['base'], 70)}"
    if a.get("base_name"):
        return f"base {a['base_name']} (value unresolved)"
    return ""


def hops_text(pg: ProjectGraph, call: str) -> str:
    """`through requests.get (src/agent.js:22) > src/http.ts:5` — the wrapper/SDK lines."""
    a = pg.attrs(call)
    hops = [str(h) for h in (a.get("hops") or []) if h]
    wrapper = a.get("wrapper")
    label = ""
    if isinstance(wrapper, str) and wrapper in pg.g:
        label = short(pg.node(wrapper).get("name"), 40)
    elif a.get("sdk_method"):
        label = f"SDK {short(a['sdk_method'], 40)}"
    if not hops and not label:
        return ""
    base = pg.node(str(a.get("base_setting"))) if a.get("base_setting") in pg.g else {}
    at_base = f"{base.get('file')}:{base.get('line')}" if base else ""
    hops = [h for h in hops if h != at_base]  # the interceptor that sets the base: said once
    if not hops and not label:
        return ""
    shown = " > ".join(hops[:4]) + (" > …" if len(hops) > 4 else "")
    if label and shown:
        return f"through {label} ({shown})"
    return f"through {label or shown}"


def call_tail(pg: ProjectGraph, call: str) -> str:
    """How one HTTP call's URL was built, in one clause ('' when nothing is known)."""
    a = pg.attrs(call)
    bits = [b for b in (base_text(pg, call), hops_text(pg, call)) if b]
    path = a.get("path")
    if bits and isinstance(path, str) and path and bits[0].startswith("base"):
        bits[0] += f" + {short(path, 60)}"
    if a.get("client") and bits:
        bits.append(str(a["client"]))
    return "; ".join(bits)


def _mount_text(pg: ProjectGraph, comp: str | None, mount: Any) -> str:
    if isinstance(mount, dict):
        loc = f"{mount.get('file')}:{mount.get('line')}" if mount.get("file") else ""
        prefix = mount.get("prefix") or mount.get("expr") or ""
        how = f" {mount['how']}" if mount.get("how") else ""
        return f"{short(prefix, 40)} ({loc}{how})".replace(" ()", "")
    m = _AT.match(str(mount))
    if not m:
        return short(mount, 60)
    file, line, rest = m["file"], int(m["line"]), m["rest"].strip()
    if rest:
        return f"{short(rest, 50)} ({file}:{line})"
    for n in pg.by_file.get(file, []):
        d = pg.node(n)
        if d.get("kind") == "setting" and d.get("line") == line and d.get("component") == comp:
            value = (d.get("attrs") or {}).get("value")
            return f"{short(value, 40)} ({file}:{line} {short(d.get('name'), 30)})"
    return f"{file}:{line}"


def _typed_holes(pg: ProjectGraph, route: str, holes: list) -> str:
    """The extractor's `holes` attr: each hole's name, where its value comes from (an env
    var with its values, a config key), its default."""
    comp = pg.node(route).get("component")
    out = []
    for h in holes:
        if not isinstance(h, dict):
            continue
        name, source = str(h.get("name") or "?"), str(h.get("source") or "unknown")
        text = f"{{{name}}} from {source}"
        env = _env_node(pg, comp, name) if source in ("env", "config") else None
        if env:
            text += f" — {env_values(pg, env)}"
        if h.get("default") is not None:
            text += f" (default {short(h['default'], 40)}, shown in the path)"
        out.append(text)
    return "; ".join(out)


def hole_text(pg: ProjectGraph, route: str) -> str:
    """For each prefix hole of the route's path, what could fill it."""
    data = pg.node(route)
    typed = (data.get("attrs") or {}).get("holes")
    if isinstance(typed, list) and typed:
        return _typed_holes(pg, route, typed)
    out = []
    for m in _BRACE.finditer(str(data.get("name") or "")):
        body = m.group(1)
        if not is_hole(body):
            continue
        env = _env_node(pg, data.get("component"), body.split(".")[-1].upper()) or _env_node(
            pg, data.get("component"), body
        )
        if env:
            out.append(f"{{{body}}} unresolved — {env_values(pg, env)}")
        else:
            out.append(f"{{{body}}} unresolved (no env var or setting of that name)")
    return "; ".join(out)


def route_tail(pg: ProjectGraph, route: str) -> str:
    """How the route's full path was built: its mount chain and any prefix hole."""
    data = pg.node(route)
    a = data.get("attrs") or {}
    mounts = a.get("mounts")
    bits = []
    if isinstance(mounts, list) and mounts:
        chain = [_mount_text(pg, data.get("component"), m) for m in mounts]
        kept = [c for c in chain if not c.startswith(NO_PREFIX)]
        if kept:  # mounts that add no prefix say nothing about the path
            bits.append("mounted " + " > ".join(kept[:4]) + (" > …" if len(kept) > 4 else ""))
    holes = hole_text(pg, route)
    if holes:
        bits.append(holes)
    return "; ".join(bits)


def tail(pg: ProjectGraph, node: str) -> str:
    """The provenance tail of any node ('' for kinds that have none)."""
    kind = pg.node(node).get("kind")
    if kind == "http_call":
        return call_tail(pg, node)
    if kind == "route":
        return route_tail(pg, node)
    return ""


def with_tail(text: str, pg: ProjectGraph, node: str, limit: int = 220) -> str:
    """`text — <tail>` when the node has one."""
    t = tail(pg, node)
    return f"{text} — {short(t, limit)}" if t else text
