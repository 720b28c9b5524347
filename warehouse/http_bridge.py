"""CALLS bridges: an http_call resolved to a route of a component of the same project.

Reads the http_call node attrs written by `extractors/http_calls.py`: `method`,
`url_template` (`{ENV_VAR}jp/contact`, `/api/events/{id}`, `https://host/x`), `env_var`
(the env var carrying the base URL), `base` (a literal base URL, e.g. resolved from a
constant), `path` (the part after the base), `resolved_via` (how the extractor got there).
Missing `path`/`env_var`/`base` are derived from `url_template`.

Where the target comes from, in order of evidence:
1. env values (`values` on env_var nodes, from `.env*` files) whose host is a KB env URL;
2. the caller's KB `calls` entry for that env var (path matched as a route suffix);
3. a literal absolute base URL whose host is a KB env URL;
4. a relative URL: the caller's hosting rewrites (`rewrites` attr of its firebase.json
   code_file node: `/api/**` → function / Cloud Run service), else its own routes.
Only the project's own components are ever candidates.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from typing import Any

from extractors.facts import Edge, Unresolved
from kb.model import Component, KnowledgeBase
from warehouse.routematch import RouteRef, best_routes, join_path, route_of, split_url

_ENV_PREFIX = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_.]*)\}(.*)$", re.S)
FUNCTION_RUNTIMES = {"firebase-functions", "cloud-functions-gen1", "cloud-functions-gen2"}


@dataclass
class Target:
    component: str
    base_path: str | None  # None: only the call path is known → suffix match
    via: str
    resolution: str
    envs: set[str] = field(default_factory=set)


def _env_values(values: Any) -> list[tuple[str, str]]:
    """(source, value) pairs from an env_var node's `values` attr, whatever its shape."""
    if isinstance(values, dict):
        return [(str(k), str(v)) for k, v in values.items() if isinstance(v, str)]
    out: list[tuple[str, str]] = []
    if isinstance(values, list):
        for item in values:
            if isinstance(item, str):
                out.append(("", item))
            elif isinstance(item, dict) and isinstance(item.get("value"), str):
                out.append((str(item.get("file") or item.get("env") or ""), item["value"]))
    return out


def parse_call(attrs: dict[str, Any]) -> tuple[str, str | None, str | None, str | None]:
    """(method, env_var, base, path) of an http_call node."""
    method = str(attrs.get("method") or "GET").upper()
    template = str(attrs.get("url_template") or attrs.get("url") or "")
    env_var, base, path = attrs.get("env_var"), attrs.get("base"), attrs.get("path")
    if isinstance(base, str) and (m := _ENV_PREFIX.match(base)) and not m.group(2):
        env_var, base = env_var or m.group(1), None
    if path is None:
        if (m := _ENV_PREFIX.match(template)) and (env_var in (None, m.group(1))):
            env_var, path = m.group(1), m.group(2)
        elif base and template.startswith(str(base)):
            path = template[len(str(base)) :]
        elif template.startswith(("http://", "https://")) and not base:
            host, url_path = split_url(template)
            base, path = template[: len(template) - len(url_path)] if host else None, url_path
        elif template.startswith("/") or (env_var or base):
            path = template
    if isinstance(env_var, str):
        env_var = env_var.removeprefix("process.env.").removeprefix("import.meta.env.")
    return method, env_var, base, path


class HttpBridge:
    def __init__(self, kb: KnowledgeBase, project: str, nodes: list[dict[str, Any]]):
        self.project = project
        proj = kb.projects.get(project)
        self.components: dict[str, Component] = dict(proj.components) if proj else {}
        self.hosts: dict[str, list[tuple[str, str]]] = {}  # host → [(component, env)]
        for cid, comp in sorted(self.components.items()):
            for env, cfg in sorted(comp.envs.items()):
                host, _ = split_url(str(cfg.get("url") or ""))
                if host:
                    self.hosts.setdefault(host, []).append((cid, env))
        self.routes: dict[str, list[RouteRef]] = {}
        self.env_values: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self.rewrites: dict[str, list[dict[str, Any]]] = {}
        self.symbol_names: dict[str, set[str]] = {}
        for n in nodes:
            comp, attrs = n.get("component"), n["attrs"]
            if n["kind"] == "route":
                method, path = route_of(n["name"], attrs)
                ref = RouteRef(n["id"], comp, method, path, n.get("file"), n.get("line"))
                self.routes.setdefault(comp, []).append(ref)
            elif n["kind"] == "env_var":
                key = (comp, str(attrs.get("name") or n["name"]))
                self.env_values.setdefault(key, []).extend(_env_values(attrs.get("values")))
            elif n["kind"] == "code_file" and isinstance(attrs.get("rewrites"), list):
                self.rewrites.setdefault(comp, []).extend(
                    r for r in attrs["rewrites"] if isinstance(r, dict)
                )
            elif n["kind"] == "symbol":
                self.symbol_names.setdefault(comp, set()).add(n["name"].rsplit(".", 1)[-1])

    # -- where does the call go? -------------------------------------------------------
    def _by_host(self, url: str, via: str, how: str) -> Target | None:
        host, path = split_url(url)
        found = self.hosts.get(host or "")
        if not found:
            return None
        comps = sorted({c for c, _ in found})
        if len(comps) != 1:
            return None
        envs = {e for c, e in found}
        return Target(
            comps[0], path, via, f"{how} matched KB envs.{'+'.join(sorted(envs))}.url", envs
        )

    def _envs(self, component: str) -> set[str]:
        comp = self.components.get(component)
        return set(comp.envs) if comp else set()

    def _function_component(self, name: str | None) -> str | None:
        funcs = [
            cid
            for cid, comp in sorted(self.components.items())
            if comp.field("role") == "functions"
            or any(cfg.get("runtime") in FUNCTION_RUNTIMES for cfg in comp.envs.values())
        ]
        if len(funcs) == 1:
            return funcs[0]
        named = [c for c in funcs if c == name or (name and name in self.symbol_names.get(c, ()))]
        return named[0] if len(named) == 1 else None

    def _by_rewrite(self, caller: str, path: str) -> tuple[Target | None, str | None]:
        for rule in self.rewrites.get(caller, []):
            source = str(rule.get("source") or "")
            if not source or not fnmatch.fnmatchcase(path, source.replace("**", "*")):
                continue
            if rule.get("function"):
                fn = rule["function"]
                fn = fn.get("functionId") if isinstance(fn, dict) else fn
                comp = self._function_component(str(fn))
                if comp is None:
                    return None, f"hosting rewrite {source} → function {fn}: no functions component"
                how = f"hosting rewrite to function {fn}"
                return Target(comp, "", f"rewrite {source}", how, self._envs(caller)), None
            run = rule.get("run")
            if isinstance(run, dict) and run.get("serviceId"):
                sid = str(run["serviceId"])
                comp = sid if sid in self.components else None
                if comp is None:
                    return None, f"hosting rewrite {source} → Cloud Run {sid}: no such component"
                how = f"hosting rewrite to run {sid}"
                return Target(comp, "", f"rewrite {source}", how, self._envs(caller)), None
            return None, None  # a static destination (SPA fallback): not an API call
        return None, None

    def targets(self, caller: str, attrs: dict[str, Any]) -> tuple[list[Target], str]:
        """Candidate targets, or [] and the reason nothing could be resolved."""
        method, env_var, base, path = parse_call(attrs)
        if _callable(attrs):
            fn = _callable(attrs)
            comp = self._function_component(fn)
            if comp is None:
                return [], f"callable function {fn}: no functions component in the project"
            how = "Firebase callable → functions"
            return [Target(comp, "", f"callable {fn}", how, self._envs(comp))], ""
        found: list[Target] = []
        template = str(attrs.get("url_template") or "")
        if template.startswith(("http://", "https://")) and "{" in template.split("/")[2]:
            # an env part inside the host (`https://{TENANT}.zendesk.com`): a KB host or external
            host = template.split("/")[2].lower()
            pattern = re.compile(
                ".+".join(re.escape(p) for p in re.split(r"\{[^}]*\}", host)) + "$"
            )
            hits = sorted({c for h, cs in self.hosts.items() if pattern.match(h) for c, _ in cs})
            if len(hits) != 1:
                return [], "external" if not hits else f"host {host} matches components {hits}"
            envs = {e for h, cs in self.hosts.items() if pattern.match(h) for _, e in cs}
            return [Target(hits[0], "", env_var or host, f"host pattern {host}", envs)], ""
        if env_var:
            values = self.env_values.get((caller, env_var), [])
            for source, value in values:
                t = self._by_host(value, env_var, f"env value ({source or 'env'})")
                if t:
                    found.append(t)
            comp = self.components.get(caller)
            for entry in comp.list_field("calls") if comp else []:
                if not isinstance(entry, dict) or entry.get("env_var") != env_var:
                    continue
                target = str(entry.get("component") or "")
                if target not in self.components:
                    return [], f"KB calls names component {target!r}, not in project {self.project}"
                if any(t.component == target for t in found):
                    for t in found:  # the KB mapping holds for every env of the target
                        t.resolution += " + KB calls"
                        t.envs |= set(self.components[target].envs)
                    continue
                bases = {split_url(v)[1] for _, v in values if "://" in v}
                envs = set(self.components[target].envs)
                for b in sorted(bases) or [None]:
                    found.append(Target(target, b, env_var, "KB calls", set(envs)))
            if not found:
                why = "no value in .env files matches a KB env URL" if values else "no value found"
                return [], f"unknown base: env var {env_var} ({why}) and no KB `calls` entry"
            return found, ""
        if base:
            via = str(attrs.get("resolved_via") or f"literal {split_url(str(base))[0]}")
            t = self._by_host(str(base) + (path or ""), via, f"literal base {base}")
            if t:
                t.base_path = split_url(str(base))[1]
                return [t], ""
            return [], "external"
        if path and path.startswith("/"):
            t, why = self._by_rewrite(caller, path)
            if t:
                return [t], ""
            if why:
                return [], why
            if self.routes.get(caller):
                how = "same-origin route of the caller"
                return [Target(caller, "", "relative", how, self._envs(caller))], ""
            return [], "relative URL and no hosting rewrite or same-origin route serves it"
        return [], "dynamic URL: base or path is computed at run time"


def _callable(attrs: dict[str, Any]) -> str | None:
    """The function name of a Firebase `httpsCallable(functions, 'name')` call."""
    if attrs.get("resolved_via") != "callable":
        return None
    name = attrs.get("function") or str(attrs.get("path") or "").strip("/")
    return str(name) or None


def calls_edges(
    kb: KnowledgeBase, project: str, nodes: list[dict[str, Any]]
) -> tuple[list[Edge], list[Unresolved]]:
    """CALLS edges and unresolved http_calls of one project (nodes with parsed attrs)."""
    bridge = HttpBridge(kb, project, nodes)
    edges: list[Edge] = []
    unresolved: list[Unresolved] = []
    for n in nodes:
        if n["kind"] != "http_call":
            continue
        caller, attrs = n.get("component") or "", n["attrs"]
        expr = str(attrs.get("url_template") or n["name"])

        def miss(reason: str, n: dict[str, Any] = n, caller: str = caller, expr: str = expr):
            unresolved.append(
                Unresolved(
                    project,
                    caller,
                    n.get("file") or "",
                    n.get("line") or 1,
                    "http_call",
                    expr,
                    reason,
                )
            )

        targets, why = bridge.targets(caller, attrs)
        if not targets:
            if why != "external":
                miss(why)
            continue
        method, _, _, path = parse_call(attrs)
        if _callable(attrs):  # a callable is served by the function of that name, any method
            method, path = "*", "/" + str(_callable(attrs))
        if path is None:
            miss("dynamic URL: the path is computed at run time")
            continue
        hits: dict[str, tuple[Target, str, str, str]] = {}  # route id → (target, kind, full, conf)
        tried: list[str] = []
        for t in targets:
            routes = bridge.routes.get(t.component, [])
            full = join_path(t.base_path, path) if t.base_path is not None else path
            matches = best_routes(method, full, routes, suffix=t.base_path is None)
            if not matches and t.base_path is not None:
                matches = best_routes(method, path, routes, suffix=True)
            tried.append(f"{method} {full} in {t.component}")
            for m in matches:
                conf = "high" if m.kind == "exact" and not m.suffix else "medium"
                if len(matches) > 1 or m.kind == "loose":
                    conf = "low"
                hits.setdefault(m.route.id, (t, "suffix" if m.suffix else m.kind, full, conf))
        if not hits:
            miss("no matching route: " + "; ".join(dict.fromkeys(tried)))
            continue
        for route_id, (t, kind, full, conf) in sorted(hits.items()):
            envs = sorted({e for x in targets if x.component == t.component for e in x.envs})
            edges.append(
                Edge(
                    n["id"],
                    route_id,
                    "CALLS",
                    project,
                    caller,
                    n.get("file"),
                    n.get("line"),
                    {
                        "via": t.via,
                        "envs": envs,
                        "confidence": conf,
                        "resolution": t.resolution,
                        "match": kind,
                        "target_component": t.component,
                        "path": full,
                    },
                )
            )
    return edges, unresolved
