"""Where a call's base URL points, per environment, at the project level.

Evidence, from the project's code facts and its KB (never another project's):
- env values: `values` {file: value} on `env_var` / `config_value` nodes. The file names
  the mode: `.env`/`.env.local` (every mode), `.env.development[.local]` (development),
  `.env.production` (production), `.env.<mode>`, `.env.example` (example),
  compose files (`docker-compose[.mode].yml`), Angular `environment[.config].ts`;
- Terraform/Cloud Run: `env_values` {NAME: value} (or `env_values_by_env` {env: {NAME: value}})
  on a `tf_resource` whose service name (`resource_name`) is a component of the project;
- hosts: `envs.*.url` of every component of the project, and the caller's KB `calls:`
  entries (`url`, `host`, `env_var`);
- relative URLs: the caller's own API routes (never page routes), then another component
  served on the caller's own origin (same host in the KB, longer path), then dev-server
  proxies / rewrites (`proxies` on code_file nodes: vite `server.proxy`, CRA `proxy`,
  next.config `rewrites`), then Firebase Hosting `rewrites` (firebase.json code_file).

Rule for a KB url's path: routes carry their full path (global prefix included), so the
call's URL path is matched as is: `https://api.example.com/api` + call
`https://api.example.com/api/articles` → route `/api/articles`. The KB url's path is never
stripped to force a match (a route without it may just lack its mount prefix); when only
the stripped path matches, the unresolved reason names that route.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Any

from kb.model import Component, KnowledgeBase
from warehouse.routematch import join_path, segments
from warehouse.urls import BARE_HOST, env_mode, is_prefix, join_url, netloc, proxy_path

FUNCTION_RUNTIMES = {"firebase-functions", "cloud-functions-gen1", "cloud-functions-gen2"}


@dataclass
class Target:
    """One component a call may reach, and how the call's path maps onto its routes."""

    component: str
    prefix: str | None  # prepended to the call path; None: unknown (as is, KB path, suffix)
    via: str
    resolution: str
    envs: set[str] = field(default_factory=set)
    mount: str = ""  # the KB url's path: named in the miss reason, never stripped to match
    weak: bool = False  # evidence is an example file or a KB entry without a value
    path: str | None = None  # the route path the request arrives with, when rewritten
    modes: set[str] = field(default_factory=set)  # build modes of the env values used


def _values(attrs: dict[str, Any]) -> list[tuple[str, str]]:
    values = attrs.get("values")
    if isinstance(values, dict):
        return [(str(k), v) for k, v in sorted(values.items()) if isinstance(v, str)]
    out: list[tuple[str, str]] = []
    for item in values if isinstance(values, list) else []:
        if isinstance(item, str):
            out.append(("", item))
        elif isinstance(item, dict) and isinstance(item.get("value"), str):
            out.append((str(item.get("file") or item.get("env") or ""), item["value"]))
    return out


class ProjectEvidence:
    """Base-URL evidence of one project: KB hosts, env values, proxies, rewrites."""

    def __init__(self, kb: KnowledgeBase, project: str, nodes: list[dict[str, Any]]):
        proj = kb.projects.get(project)
        self.project = project
        self.components: dict[str, Component] = dict(proj.components) if proj else {}
        self.hosts: dict[str, list[tuple[str, str, str]]] = {}  # netloc → [(comp, env, path)]
        for cid, comp in sorted(self.components.items()):
            for env, cfg in sorted(comp.envs.items()):
                loc = netloc(str(cfg.get("url") or ""))
                if loc:
                    self.hosts.setdefault(loc[0], []).append((cid, env, loc[1]))
        self.env_values: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self.proxies: dict[str, list[dict[str, Any]]] = {}
        self.rewrites: dict[str, list[dict[str, Any]]] = {}
        self.symbol_names: dict[str, set[str]] = {}
        for n in nodes:
            comp, attrs, kind = n.get("component") or "", n["attrs"], n["kind"]
            if kind in ("env_var", "config_value"):
                key = (comp, str(attrs.get("name") or n["name"]))
                self.env_values.setdefault(key, []).extend(_values(attrs))
            elif kind == "code_file":
                for attr, into in (("rewrites", self.rewrites), ("proxies", self.proxies)):
                    rules = attrs.get(attr)
                    if isinstance(rules, list):
                        file = n.get("file")
                        into.setdefault(comp, []).extend(
                            {**r, "file": file} for r in rules if isinstance(r, dict)
                        )
            elif kind == "symbol":
                self.symbol_names.setdefault(comp, set()).add(n["name"].rsplit(".", 1)[-1])
            elif kind == "tf_resource":
                self._tf_env(attrs)

    def _tf_env(self, attrs: dict[str, Any]) -> None:
        """Cloud Run env values set in Terraform, for the component that service is."""
        comp = self.run_component(str(attrs.get("resource_name") or attrs.get("name") or ""))
        if comp is None:
            return
        by_env = attrs.get("env_values_by_env")
        sets = by_env.items() if isinstance(by_env, dict) else []
        plain = attrs.get("env_values")
        for env, values in [*sets, ("*", plain)]:
            for name, value in (values or {}).items() if isinstance(values, dict) else []:
                if isinstance(value, str):
                    source = f"terraform ({env})" if env != "*" else "terraform"
                    self.env_values.setdefault((comp, str(name)), []).append((source, value))

    def envs(self, component: str) -> set[str]:
        comp = self.components.get(component)
        return set(comp.envs) if comp else set()

    def kb_paths(self, component: str) -> list[str]:
        """Distinct paths of a component's KB env URLs (`/api`), longest first."""
        comp = self.components.get(component)
        paths = {
            "/" + "/".join(segments(loc[1]))
            for cfg in (comp.envs.values() if comp else [])
            if (loc := netloc(str(cfg.get("url") or "")))
        }
        return sorted((p for p in paths if p != "/"), key=lambda p: (-len(p), p))

    # -- components behind names ---------------------------------------------------------
    def run_component(self, service: str) -> str | None:
        """The component a Cloud Run service id stands for: same id, else the only one."""
        if service in self.components:
            return service
        run = [
            cid
            for cid, comp in sorted(self.components.items())
            if any(cfg.get("runtime") == "cloud-run" for cfg in comp.envs.values())
        ]
        return run[0] if len(run) == 1 else None

    def function_component(self, name: str | None) -> str | None:
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


class ProjectBases(ProjectEvidence):
    """Where a call's base URL points: absolute URLs, env values, relative paths."""

    # -- absolute URLs --------------------------------------------------------------------
    def by_url(self, caller: str, url: str, via: str, prefix: str = "") -> tuple[list[Target], str]:
        """Targets of an absolute URL: caller's `calls` url/host entries, then KB env URLs.
        `prefix`: the part of the URL's path before the call's own path (a base's path)."""
        loc = netloc(url)
        if loc is None:
            return [], f"no base URL: {url!r} is not an absolute http(s) URL"
        host, path = loc
        comp = self.components.get(caller)
        for entry in comp.calls() if comp else []:
            if entry.key == "env_var" or entry.component not in self.components:
                continue
            want = netloc(entry.value if entry.key == "url" else f"http://{entry.value}")
            if want is None:
                continue
            same = want[0] == host or (entry.key == "host" and ":" not in want[0] and
                                       want[0] == host.split(":")[0])  # fmt: skip
            if same and (entry.key == "host" or is_prefix(want[1], path)):
                how = f"KB calls[{entry.index}] {entry.label} of {caller}"
                via = f"calls-entry {entry.label}" if via.startswith("host ") else via
                mount = "/" + "/".join(segments(want[1])) if entry.key == "url" else ""
                envs = self.envs(entry.component)
                return [Target(entry.component, prefix, via, how, envs, mount.rstrip("/"))], ""
        found = self.hosts.get(host, [])
        name = host.split(":")[0]
        if not found and "." not in name and name in self.components and name != "localhost":
            how = f"host {host} is the service name of component {name} (compose/cluster DNS)"
            return [Target(name, prefix, via, how, self.envs(name))], ""
        if not found:
            return [], f"host {host} not in the KB (no envs.*.url or calls entry names it)"
        fitting = [f for f in found if is_prefix(f[2], path)] or found
        depth = max(len(segments(f[2])) for f in fitting)
        best = [f for f in fitting if len(segments(f[2])) == depth]
        comps = sorted({c for c, _, _ in best})
        if len(comps) > 1:
            return [], f"host {host} is the KB URL of several components: {', '.join(comps)}"
        envs = {e for c, e, _ in best}
        mount = "/" + "/".join(segments(best[0][2]))
        how = f"host {host} is KB envs.{'+'.join(sorted(envs))}.url of {comps[0]}"
        return [Target(comps[0], prefix, via, how, envs, "" if mount == "/" else mount)], ""

    # -- env values ------------------------------------------------------------------------
    def by_env(self, caller: str, var: str, path: str) -> tuple[list[list[Target]], list[str]]:
        """Tiers of targets of `{VAR}path`: from the var's values (each mode), then KB `calls`."""
        found: list[Target] = []
        later: list[list[Target]] = []
        misses: list[str] = []
        for source, value in self.env_values.get((caller, var), []):
            mode = env_mode(source) if source else "*"
            where = f"{var}={value} ({source or 'env'})"
            if BARE_HOST.match(value):  # `api.example.com[:port][/path]`: a host, no scheme
                value = ("http://" if value.startswith("localhost") else "https://") + value
            if "://" in value:
                base_path = (netloc(value) or ("", ""))[1]
                ts, why = self.by_url(caller, join_url(value, path), var, base_path)
                tiers = [ts]
            elif value.startswith("/"):
                tiers, why = self.relative(caller, join_path(value, path), var)
            else:
                tiers, why = [], f"value {value!r} is not a URL"
            for t in (t for tier in tiers for t in tier):
                t.resolution = f"{where}: {t.resolution}"
                t.modes.add(mode)
            if tiers and "://" in value:
                found += tiers[0]
            else:
                later += tiers
            if why:
                misses.append(f"{where}: {why}")
        comp = self.components.get(caller)
        for entry in comp.calls() if comp else []:
            if entry.key != "env_var" or entry.value != var:
                continue
            if entry.component not in self.components:
                misses.append(f"KB calls names {entry.component!r}, not in project {self.project}")
            elif not any(t.component == entry.component for t in found):
                how = f"KB calls[{entry.index}] env_var {var} → {entry.component}"
                envs = self.envs(entry.component)
                found.append(Target(entry.component, None, var, how, envs, weak=True))
            else:
                for t in found:
                    if t.component == entry.component:
                        t.resolution += f" + KB calls[{entry.index}]"
                        t.envs |= self.envs(entry.component)
        return [t for t in [found, *later] if t], misses

    # -- relative URLs -------------------------------------------------------------------
    def relative(self, caller: str, path: str, via: str = "") -> tuple[list[list[Target]], str]:
        """Ordered tiers of targets for a same-origin path; the first tier that matches wins."""
        tiers: list[list[Target]] = []
        envs = self.envs(caller)
        tiers.append([Target(caller, "", via or "same-origin", "same-origin API route", envs)])
        proxied, why = self._proxied(caller, path, via)
        tiers.append(proxied)
        rewritten, rwhy = self.rewritten(caller, path)
        tiers.append(rewritten)
        shared = []
        for env, cfg in sorted(self.components[caller].envs.items() if caller in self.components
                               else []):  # fmt: skip
            loc = netloc(str(cfg.get("url") or ""))
            for comp, kenv, kpath in self.hosts.get(loc[0], []) if loc else []:
                if comp != caller and kpath != "/" and is_prefix(kpath, path):
                    how = f"{comp} is KB envs.{kenv}.url on {caller}'s own host {loc[0]}"
                    shared.append(Target(comp, "", via or f"host {loc[0]}", how, {env, kenv}))
        tiers.append(shared)
        for t in (t for tier in tiers for t in tier):
            t.path = path if t.path is None else t.path
        if not (shared or proxied or rewritten or why or rwhy):
            why = "relative URL: no dev-server proxy, rewrite or component on the same host"
        return [t for t in tiers if t], why or rwhy

    def _proxied(self, caller: str, path: str, via: str) -> tuple[list[Target], str]:
        for rule in self.proxies.get(caller, []):
            source, target = str(rule.get("source") or ""), str(rule.get("target") or "")
            dest = proxy_path(source, target, rule.get("strip"), path)
            if dest is None:
                continue
            kind = str(rule.get("kind") or "proxy")
            label = f"{kind} proxy {source} → {target}"
            where = f"{rule.get('file')}:{rule.get('line') or 1}"
            if "://" not in dest:  # an internal rewrite: same origin, new path
                how = f"{label} ({where})"
                return [Target(caller, "", via or label, how, self.envs(caller), path=dest)], ""
            ts, why = self.by_url(caller, dest, via or label)
            for t in ts:
                t.path = "/" + "/".join(segments((netloc(dest) or ("", ""))[1]))
                t.resolution = f"{label} ({where}): {t.resolution}"
                t.mount = ""
            return ts, f"{label}: {why}" if why else ""
        return [], ""

    def rewritten(self, caller: str, path: str) -> tuple[list[Target], str]:
        """Firebase Hosting rewrites of the caller: `/api/**` → function or Cloud Run."""
        for rule in self.rewrites.get(caller, []):
            source = str(rule.get("source") or "")
            if not source or not fnmatch.fnmatchcase(path, source.replace("**", "*")):
                continue
            via = f"rewrite {source}"
            if rule.get("function"):
                fn = rule["function"]
                fn = fn.get("functionId") if isinstance(fn, dict) else fn
                comp = self.function_component(str(fn))
                if comp is None:
                    return [], f"hosting rewrite {source} → function {fn}: no functions component"
                how = f"hosting rewrite to function {fn}"
                return [Target(comp, "", via, how, self.envs(caller))], ""
            run = rule.get("run")
            if isinstance(run, dict) and run.get("serviceId"):
                sid = str(run["serviceId"])
                comp = self.run_component(sid)
                if comp is None:
                    return [], f"hosting rewrite {source} → Cloud Run {sid}: no such component"
                how = f"hosting rewrite to Cloud Run service {sid} ({comp})"
                return [Target(comp, "", via, how, self.envs(caller) | self.envs(comp))], ""
            return [], ""  # a static destination (SPA fallback): not an API call
        return [], ""
