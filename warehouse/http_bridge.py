"""CALLS bridges: an http_call resolved to a route of a component of the same project.

Reads the http_call node attrs written by the call-site extractors: `method`,
`url_template` (`{ENV_VAR}/contact`, `/api/events/{id}`, `https://host/x`), `env_var`
(the env var carrying the base URL), `base` (a literal base URL, e.g. from a constant),
`path` (the part after the base), `resolved_via` (how the extractor got there).
Missing `path`/`env_var`/`base` are derived from `url_template`.

Where the call goes (see `warehouse.bases` for the evidence and its rules):
1. a Firebase callable → the project's functions component;
2. `{ENV}path` → each value of ENV (per mode) whose host is a KB URL, and the caller's KB
   `calls:` env_var entry;
3. an absolute URL → the caller's KB `calls:` url/host entries, else the component whose
   `envs.*.url` has that host (and the longest path prefix); another host is external;
4. a relative URL → the caller's own API routes (never pages), then a component on the
   caller's own host, then dev-server proxies / rewrites, then Firebase Hosting rewrites.
Only the project's own components are ever candidates; a call that reaches no route gets
an `unresolved` row naming the failing link (and the closest route when one is near).
Each CALLS edge has `via`, `envs`, `confidence`, `resolution`, `match`, `target_component`,
`path`, and `dead_code: true` when the call site is in dead code (`warehouse.deadcode`).
"""

from __future__ import annotations

import re
from typing import Any

from extractors.facts import Edge, Unresolved
from kb.model import KnowledgeBase
from warehouse.bases import ProjectBases, Target
from warehouse.deadcode import dead_call_sites
from warehouse.routematch import (
    RouteRef,
    best_routes,
    closest_route,
    join_path,
    route_of,
    segments,
)
from warehouse.urls import LOCAL_HOSTS, netloc

_ENV_PREFIX = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_.]*)\}(.*)$", re.S)
_ENV_NAME = re.compile(
    r"^(process\.env\.|import\.meta\.env\.|environment\.)?[A-Z][A-Z0-9_]*$|^environment\."
)
NO_ROW = "external"  # an external host or a file path: no CALLS edge and no unresolved row
PAGE_KINDS = {"page", "layout", "client"}


def parse_call(attrs: dict[str, Any]) -> tuple[str, str | None, str | None, str | None]:
    """(method, env_var, base, path) of an http_call node; env_var only when it is the base."""
    method = str(attrs.get("method") or "GET").upper()
    template = str(attrs.get("url_template") or attrs.get("url") or "")
    env_var, base, path = attrs.get("env_var"), attrs.get("base"), attrs.get("path")
    if isinstance(base, str) and (m := _ENV_PREFIX.match(base)) and not m.group(2):
        env_var, base = env_var or m.group(1), None
    elif isinstance(base, str) and base:
        env_var = None  # a literal base: an env var in the path is just a value
    if path is None:
        if (m := _ENV_PREFIX.match(template)) and (env_var in (None, m.group(1))):
            if env_var == m.group(1) or _ENV_NAME.match(m.group(1)):
                env_var, path = m.group(1), m.group(2)
        elif base and template.startswith(str(base)):
            path = template[len(str(base)) :]
        elif template.startswith(("http://", "https://")) and not base:
            env_var = None
            loc = netloc(template)
            if loc:
                base, path = template[: len(template) - len(_url_path(template))], loc[1]
        elif template.startswith("/") or (env_var or base):
            path = template
    if env_var and not base and not _ENV_PREFIX.match(template) and template.startswith("/"):
        env_var = None  # `/api/{VAR}/x`: the env var is a path value, the URL is relative
    if isinstance(env_var, str):
        env_var = env_var.removeprefix("process.env.").removeprefix("import.meta.env.")
    return method, env_var, base, path


def _url_path(url: str) -> str:
    rest = url.split("://", 1)[1]
    return rest[rest.index("/") :] if "/" in rest else ""


def _callable(attrs: dict[str, Any]) -> str | None:
    """The function name of a Firebase `httpsCallable(functions, 'name')` call."""
    if attrs.get("resolved_via") != "callable":
        return None
    name = attrs.get("function") or str(attrs.get("path") or "").strip("/")
    return str(name) or None


class HttpBridge:
    def __init__(self, kb: KnowledgeBase, project: str, nodes: list[dict[str, Any]]):
        self.project = project
        self.bases = ProjectBases(kb, project, nodes)
        self.routes: dict[str, list[RouteRef]] = {}
        self.pages: dict[str, int] = {}
        for n in nodes:
            if n["kind"] != "route":
                continue
            comp = n.get("component") or ""
            if str(n["attrs"].get("route_kind") or "") in PAGE_KINDS:
                self.pages[comp] = self.pages.get(comp, 0) + 1  # HTML, never an API target
                continue
            method, path = route_of(n["name"], n["attrs"])
            ref = RouteRef(n["id"], comp, method, path, n.get("file"), n.get("line"))
            self.routes.setdefault(comp, []).append(ref)

    def tiers(self, caller: str, attrs: dict[str, Any]) -> tuple[list[list[Target]], str]:
        """Ordered tiers of candidate targets (the first tier that matches wins), or [] and
        why nothing could be resolved (NO_ROW: a host outside the project, a file path)."""
        method, env_var, base, path = parse_call(attrs)
        b = self.bases
        if fn := _callable(attrs):
            comp = b.function_component(fn)
            if comp is None:
                return [], f"callable function {fn}: no functions component in the project"
            return [[Target(comp, "", f"callable {fn}", "Firebase callable", b.envs(comp))]], ""
        template = str(attrs.get("url_template") or "")
        if template.startswith(("http://", "https://")) and "{" in template.split("/")[2]:
            return self._host_pattern(template, env_var)
        if env_var:
            tiers, misses = b.by_env(caller, env_var, path or "")
            if tiers:
                return tiers, ""
            why = "; ".join(misses) or (
                f"no value in .env*/compose/environment files and no KB calls entry for {env_var}"
            )
            return [], f"no base URL: env var {env_var}: {why}"
        if base:
            url = str(base) + (path or "")
            loc = netloc(url)
            via = str(attrs.get("resolved_via") or "literal")
            if via in ("literal", "instance", "default"):
                via = f"host {loc[0] if loc else base}"
            ts, why = b.by_url(caller, url, via, (netloc(str(base)) or ("", ""))[1])
            if ts:
                return [ts], ""
            host = (loc or ("", ""))[0].split(":")[0]
            return [], why if host in LOCAL_HOSTS else NO_ROW  # external: catalog_hosts
        if path and path.startswith("/"):
            tiers, why = b.relative(caller, path)
            return tiers, why
        if (path or template).startswith(("./", "../")):
            return [], NO_ROW  # a module-relative file (`new URL('../font.ttf', import.meta.url)`)
        if _ENV_PREFIX.match(template):
            return [], f"dynamic URL: the base is the run-time value {template.split('}')[0]}}}"
        return [], "dynamic URL: base or path is computed at run time"

    def _host_pattern(self, template: str, env_var: str | None) -> tuple[list[list[Target]], str]:
        """An env part inside the host (`https://{TENANT}.zendesk.com`): a KB host or external."""
        host = template.split("/")[2].lower()
        pattern = re.compile(".+".join(re.escape(p) for p in re.split(r"\{[^}]*\}", host)) + "$")
        hosts = self.bases.hosts
        hits = sorted({c for h, cs in hosts.items() if pattern.match(h) for c, _, _ in cs})
        if len(hits) != 1:
            return [], NO_ROW if not hits else f"host {host} matches components {hits}"
        envs = {e for h, cs in hosts.items() if pattern.match(h) for _, e, _ in cs}
        return [[Target(hits[0], None, env_var or host, f"host pattern {host}", envs)]], ""

    def match(
        self, t: Target, method: str, path: str
    ) -> tuple[list[tuple[Any, str, str]], str, str]:
        """([(route match, full path, confidence)], path tried, note) of one target. Only a
        single best route is joined: a tie is 'ambiguous', and a call template that matches
        only a literal route segment (`{slug}` vs `feed`) is named, never joined."""
        routes = self.routes.get(t.component, [])
        if t.prefix is not None or t.path is not None:
            full = t.path if t.path is not None else join_path(t.prefix or "", path)
            tries = [(full, False, False)]
        else:  # only the component is known: the path as is, under its KB URL path, suffix
            tries = [(join_path("", path), True, False)]
            tries += [(join_path(p, path), True, False) for p in self.bases.kb_paths(t.component)]
            tries.append((path, True, True))
        note = ""
        for full, weak, suffix in tries:
            found = best_routes(method, full, routes, suffix=suffix)
            if not found:
                continue
            if found[0].kind == "loose":
                r = found[0].route
                note = note or f"{r.method} {r.path} (a literal segment where the call has a value)"
                continue
            if len(found) > 1:
                names = ", ".join(f"{m.route.method} {m.route.path}" for m in found)
                return [], full, f"ambiguous: {len(found)} routes match ({names})"
            conf = "high" if found[0].kind == "exact" and not (weak or t.weak) else "medium"
            return [(found[0], full, conf)], full, ""
        return [], tries[0][0], note


def _unmounted(method: str, full: str, t: Target, routes: list[RouteRef]) -> str:
    """A route that matches once the KB url's path is dropped: named, never joined (the
    route may miss a mount prefix, or a gateway may strip it: the source does not say)."""
    head, segs = segments(t.mount), segments(full)
    if not head or segs[: len(head)] != head:
        return ""
    found = best_routes(method, "/" + "/".join(segs[len(head) :]), routes, suffix=False)
    if len(found) != 1:
        return ""
    r = found[0].route
    return f"{r.method} {r.path} (without the KB url path {t.mount})"


def calls_edges(
    kb: KnowledgeBase,
    project: str,
    nodes: list[dict[str, Any]],
    edges: list[dict[str, Any]] | None = None,
) -> tuple[list[Edge], list[Unresolved]]:
    """CALLS edges and unresolved http_calls of one project (nodes with parsed attrs)."""
    bridge = HttpBridge(kb, project, nodes)
    dead = dead_call_sites(nodes, edges or [])
    out: list[Edge] = []
    unresolved: list[Unresolved] = []
    for n in nodes:
        if n["kind"] != "http_call":
            continue
        caller, attrs = n.get("component") or "", n["attrs"]
        where = (n.get("file") or "", n.get("line") or 1)
        expr = str(attrs.get("url_template") or n["name"])
        tiers, why = bridge.tiers(caller, attrs)
        method, _, _, path = parse_call(attrs)
        if _callable(attrs):  # a callable is served by the function of that name, any method
            method, path = "*", "/" + str(_callable(attrs))
        if not tiers or path is None:
            if why != NO_ROW:
                reason = why or "dynamic URL: the path is computed at run time"
                unresolved.append(Unresolved(project, caller, *where, "http_call", expr, reason))
            continue
        hits, tried = _first_tier(bridge, tiers, method, path)
        if not hits:
            unresolved.append(
                Unresolved(
                    project, caller, *where, "http_call", expr, _miss(bridge, method, tried, why)
                )
            )
            continue
        for route_id, (t, m, full, conf) in sorted(hits.items()):
            envs = sorted(t.envs)
            attrs_out = {
                "via": t.via,
                "envs": envs,
                "confidence": conf,
                "resolution": t.resolution,
                "match": "suffix" if m.suffix else m.kind,
                "target_component": t.component,
                "path": full,
            }
            if t.modes:
                attrs_out["modes"] = sorted(t.modes)
            if n["id"] in dead:
                attrs_out["dead_code"] = True
            out.append(Edge(n["id"], route_id, "CALLS", project, caller, *where, attrs_out))
    return out, unresolved


def _first_tier(
    bridge: HttpBridge, tiers: list[list[Target]], method: str, path: str
) -> tuple[dict[str, tuple[Target, Any, str, str]], list[tuple[Target, str, str]]]:
    tried: list[tuple[Target, str, str]] = []
    for tier in tiers:
        hits: dict[str, tuple[Target, Any, str, str]] = {}
        for t in tier:
            found, full, note = bridge.match(t, method, path)
            tried.append((t, full, note))
            if note.startswith("ambiguous"):
                return {}, tried
            for m, fpath, conf in found:
                if m.route.id in hits:  # the same route by another value: widen its envs
                    hits[m.route.id][0].envs |= t.envs
                    hits[m.route.id][0].modes |= t.modes
                else:
                    hits[m.route.id] = (t, m, fpath, conf)
        if hits:
            return hits, tried
    return {}, tried


def _miss(bridge: HttpBridge, method: str, tried: list[tuple[Target, str, str]], why: str) -> str:
    parts = []
    for t, full, note in tried:
        routes = bridge.routes.get(t.component, [])
        if not routes:
            pages = bridge.pages.get(t.component)
            what = f"only {pages} page routes (HTML)" if pages else "no API routes in the graph"
            parts.append(f"{t.component} has {what} ({t.resolution})")
            continue
        if note.startswith("ambiguous"):
            parts.append(f"{method} {full} in {t.component} is {note} ({t.resolution})")
            continue
        near = note or _unmounted(method, full, t, routes) or closest_route(method, full, routes)
        parts.append(
            f"no route {method} {full} in {t.component} ({t.resolution})"
            + (f"; closest: {near}" if near else "")
        )
    text = "; ".join(dict.fromkeys(parts))
    return f"{text}; {why}" if why else text
