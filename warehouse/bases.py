"""Where a call's base URL points, per environment, at the project level.

Evidence, from the project's code facts and its KB (never another project's):
- env values: `values` {file: value} on `env_var` / `config_value` nodes (the file names the
  mode: `.env` every mode, `.env.production` production, `.env.example` example, compose
  files, Angular `environment[.config].ts`), a default the code gives (`holes[].default`),
  and Terraform / Cloud Run `env_values` of the service that is a component;
- hosts: `envs.*.url` of every component of the project, and the caller's KB `calls:`
  entries (`url`, `host`, `env_var`, `path`);
- relative URLs (warehouse.relative): the caller's own API routes, proxies and rewrites,
  KB `calls: path` entries, a component on the caller's own host.

A KB url's path is never stripped to force a match (a route without it may only lack its
mount prefix); when only the stripped path matches, the unresolved reason names that route.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kb.model import Component, KnowledgeBase
from vocab.pathparts import Seg, text_segments
from warehouse.urls import BARE_HOST, bare_host, env_mode, netloc, starts_with

FUNCTION_RUNTIMES = {"firebase-functions", "cloud-functions-gen1", "cloud-functions-gen2"}
LEVELS = ("low", "medium", "high")


def weakest(*levels: str) -> str:
    return min(levels, key=LEVELS.index)


@dataclass
class Target:
    """One component a call may reach, how the call's path maps onto its routes, and the
    evidence for it."""

    component: str
    prefix: list[Seg] | None  # before the call path; None: unknown (as is, KB path, suffix)
    via: str
    resolution: str  # env-var | kb-calls | url | host | proxy | rewrite | same-origin | …
    how: str  # the evidence in words, for reasons and answers
    envs: set[str] = field(default_factory=set)
    evidence: list[str] = field(default_factory=list)  # `file:line what`, in chain order
    confidence: str = "high"
    mount: list[Seg] = field(default_factory=list)  # the KB url's path (named, never stripped)
    path: list[Seg] | None = None  # the whole route path the request arrives with
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
        self.hosts: dict[str, list[tuple[str, str, list[Seg]]]] = {}  # host → [(comp, env, path)]
        for cid, comp in sorted(self.components.items()):
            for env, cfg in sorted(comp.envs.items()):
                loc = netloc(str(cfg.get("url") or ""))
                if loc:
                    self.hosts.setdefault(loc[0], []).append((cid, env, loc[1]))
        self.env_values: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self.proxies: dict[str, list[dict[str, Any]]] = {}
        self.rewrites: dict[str, list[dict[str, Any]]] = {}
        self.symbol_names: dict[str, set[str]] = {}
        self.services: dict[str, tuple[str, str]] = {}  # compose service → (component, evidence)
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
                            {"file": file, **r} for r in rules if isinstance(r, dict)
                        )
            elif kind == "symbol":
                self.symbol_names.setdefault(comp, set()).add(n["name"].rsplit(".", 1)[-1])
            elif kind == "tf_resource":
                self._tf_env(attrs)
            elif kind == "setting" and str(n["name"]).endswith(".build"):
                self._compose_build(comp, n)

    def _compose_build(self, comp: str, n: dict[str, Any]) -> None:
        """A compose service built from another component's repository (`build: ../api`):
        its service name is that component's host on the compose network."""
        head, _, svc = str(n["name"]).removesuffix(".build").partition(".")
        mine = self.components.get(comp)
        if head != "services" or not svc or mine is None or mine.repo_path is None:
            return
        where = (mine.repo_path / str(n.get("file") or "")).parent / str(
            n["attrs"].get("value") or "."
        )
        built = where.resolve()
        for cid, other in sorted(self.components.items()):
            if other.repo_path is not None and other.repo_path.resolve() == built:
                ev = f"{n.get('file')}:{n.get('line') or 1} compose service {svc} builds {cid}"
                self.services.setdefault(svc, (cid, ev))

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

    def kb_line(self, component: str, dotted: str, what: str) -> str:
        """`projects/p/c/component.md:LINE what` — a KB statement as evidence."""
        comp = self.components.get(component)
        if comp is None or comp.doc is None:
            return what
        return f"{comp.doc.path}:{comp.doc.line_of(dotted)} {what}"

    def kb_paths(self, component: str) -> list[list[Seg]]:
        """Distinct paths of a component's KB env URLs (`/api`), longest first."""
        comp = self.components.get(component)
        seen: dict[str, list[Seg]] = {}
        for cfg in comp.envs.values() if comp else []:
            loc = netloc(str(cfg.get("url") or ""))
            if loc and loc[1]:
                seen["/".join(s.text for s in loc[1])] = loc[1]
        return sorted(seen.values(), key=lambda p: (-len(p), [s.text for s in p]))

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
    """Where an absolute URL or an env var base points."""

    def by_url(
        self, caller: str, host: str, path: list[Seg], via: str, prefix: list[Seg]
    ) -> tuple[list[Target], str]:
        """Targets of an absolute URL (host, typed path): the caller's `calls` url/host
        entries, then KB env URLs, then a compose / cluster service name. `prefix`: the part
        of the path before the call's own path."""
        comp = self.components.get(caller)
        for entry in comp.calls() if comp else []:
            if entry.key not in ("url", "host") or entry.component not in self.components:
                continue
            want = netloc(entry.value if entry.key == "url" else f"http://{entry.value}")
            if want is None:
                continue
            same = want[0] == host or (entry.key == "host" and ":" not in want[0]
                                       and want[0] == bare_host(host))  # fmt: skip
            if same and (entry.key == "host" or starts_with(path, want[1])):
                ev = self.kb_line(
                    caller, f"calls.{entry.index}", f"calls[{entry.index}] {entry.label}"
                )
                how = f"KB calls[{entry.index}] {entry.label} of {caller}"
                via = f"calls-entry {entry.label}" if via.startswith("host ") else via
                mount = want[1] if entry.key == "url" else []
                envs = self.envs(entry.component)
                t = Target(entry.component, prefix, via, "kb-calls", how, envs, [ev], mount=mount)
                return [t], ""
        found = self.hosts.get(host, [])
        name = bare_host(host)
        if not found and "." not in name and name in self.components and name != "localhost":
            how = f"host {host} is the service name of component {name} (compose/cluster DNS)"
            return [
                Target(name, prefix, via, "host", how, self.envs(name), confidence="medium")
            ], ""
        if not found and name in self.services and name != "localhost":
            cid, ev = self.services[name]
            how = f"host {host} is compose service {name}, built from {cid}'s repository"
            return [Target(cid, prefix, via, "host", how, self.envs(cid), [ev], "medium")], ""
        if not found:
            return [], f"host {host} not in the KB (no envs.*.url or calls entry names it)"
        fitting = [f for f in found if starts_with(path, f[2])] or found
        depth = max(len(f[2]) for f in fitting)
        best = [f for f in fitting if len(f[2]) == depth]
        comps = sorted({c for c, _, _ in best})
        if len(comps) > 1:
            return [], f"host {host} is the KB URL of several components: {', '.join(comps)}"
        envs = {e for _, e, _ in best}
        how = f"host {host} is KB envs.{'+'.join(sorted(envs))}.url of {comps[0]}"
        ev = self.kb_line(
            comps[0], f"envs.{sorted(envs)[0]}.url", f"envs.{'+'.join(sorted(envs))}.url"
        )
        kind = "url" if depth else "host"
        return [Target(comps[0], prefix, via, kind, how, envs, [ev], mount=best[0][2])], ""

    def env_candidates(self, caller: str, var: str, default: str | None) -> list[tuple[str, str]]:
        """(source, value) of an env var for the caller: its files, Terraform, then the
        default the code gives when nothing sets it."""
        found = list(self.env_values.get((caller, var), []))
        if default and not any(v == default for _, v in found):
            found.append(("code default", default))
        return found

    def by_env(
        self, caller: str, var: str, default: str | None, segs: list[Seg], relative
    ) -> tuple[list[list[Target]], list[str]]:
        """Tiers of targets of a call `{VAR}` + `segs`: from the var's values (each mode,
        the code's default too), then KB `calls` env_var entries. `relative(value_path,
        via)` resolves a value that is itself a path."""
        found: list[Target] = []
        later: list[list[Target]] = []
        misses: list[str] = []
        for source, value in self.env_candidates(caller, var, default):
            mode = env_mode(source) if source else "*"
            where = f"{var}={value} ({source or 'env'})"
            if BARE_HOST.match(value):  # `api.example.com[:port][/path]`: a host, no scheme
                value = ("http://" if value.startswith("localhost") else "https://") + value
            loc = netloc(value) if "://" in value else None
            if loc:
                ts, why = self.by_url(caller, loc[0], [*loc[1], *segs], var, loc[1])
                tiers = [ts]
            elif value.startswith("/"):
                tiers, why = relative(text_segments(value), var)
            else:
                tiers, why = [], f"value {value!r} is not a URL"
            for t in (t for tier in tiers for t in tier):
                t.how = f"{where}: {t.how}"
                t.evidence.insert(0, f"{source or 'env'} {var}={value}")
                t.modes.add(mode)
                if t.resolution in ("url", "host"):
                    t.resolution = "env-var"
                if mode == "example":
                    t.confidence = weakest(t.confidence, "medium")
            if loc and tiers:
                found += tiers[0]
            else:
                later += [tier for tier in tiers if tier]
            if why:
                misses.append(f"{where}: {why}")
        comp = self.components.get(caller)
        for entry in comp.calls() if comp else []:
            if entry.key != "env_var" or entry.value != var:
                continue
            ev = self.kb_line(caller, f"calls.{entry.index}", f"calls[{entry.index}] env_var {var}")
            if entry.component not in self.components:
                misses.append(f"KB calls names {entry.component!r}, not in project {self.project}")
            elif not any(t.component == entry.component for t in found):
                how = f"KB calls[{entry.index}] env_var {var} → {entry.component}"
                envs = self.envs(entry.component)
                found.append(
                    Target(entry.component, None, var, "kb-calls", how, envs, [ev], "medium")
                )
            else:
                for t in found:
                    if t.component == entry.component:
                        t.how += f" + KB calls[{entry.index}]"
                        t.confidence = "high"  # the KB says so too
                        t.evidence.append(ev)
                        t.envs |= self.envs(entry.component)
        return [t for t in [found, *later] if t], misses
