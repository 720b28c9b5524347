"""Where a same-origin (relative) URL goes, in order: the caller's own API routes, its
proxies and rewrites (gateway models: Vite, CRA, webpack devServer, Next, nginx, Firebase
Hosting), the caller's KB `calls: {path: …}` entries, another component served on the
caller's own host, the component whose repository serves the caller's files. When none
applies the reason says which of these the project has and why each does not fit."""

from __future__ import annotations

import fnmatch

from vocab.pathparts import Seg, shown, text_segments
from warehouse.bases import ProjectBases, Target, weakest
from warehouse.urls import apply_rule, netloc, starts_with


class Relative:
    def __init__(self, bases: ProjectBases, api_components: set[str], pages: dict[str, int]):
        self.b = bases
        self.api = api_components  # components with API routes in the graph
        self.pages = pages

    def tiers(
        self, caller: str, segs: list[Seg], via: str = "", page_relative: bool = False
    ) -> tuple[list[list[Target]], str]:
        """Ordered tiers of targets (the first that matches wins) and why there is none."""
        b, tiers, why = self.b, [], []
        envs = b.envs(caller)
        conf = "medium" if page_relative else "high"
        how = "same-origin API route" + (" (a page-relative URL, read from the site root)"
                                         if page_relative else "")  # fmt: skip
        if caller in self.api:
            tiers.append([Target(caller, [], via or "same-origin", "same-origin", how, envs,
                                 confidence=conf, path=list(segs))])  # fmt: skip
        proxied, pwhy = self._proxied(caller, segs, via)
        tiers.append(proxied)
        rewritten, rwhy = self._rewritten(caller, segs)
        tiers.append(rewritten)
        tiers.append(self._kb_paths(caller, segs, via))
        tiers.append(self._shared_host(caller, segs, via))
        tiers.append(self._serving(caller, segs, via))
        for t in (t for tier in tiers for t in tier):
            t.path = list(segs) if t.path is None else t.path
            if page_relative:
                t.confidence = weakest(t.confidence, "medium")
        own = caller in self.api
        tiers = [t for t in tiers if t]
        if len(tiers) == int(own):  # nothing but the caller's own routes
            why.append(self._nothing(caller, segs, pwhy or rwhy, own))
        return tiers, "; ".join(w for w in why if w)

    def _nothing(self, caller: str, segs: list[Seg], rule_why: str, own: bool) -> str:
        """The true reason a relative URL reaches nothing (else): what the caller has,
        and why none of it covers this path."""
        path = shown(segs)
        mine = (f"{caller} has only {self.pages[caller]} page routes (HTML)" if self.pages.get(caller)
                else f"{caller} has no API routes of its own")  # fmt: skip
        rules = self.b.proxies.get(caller, []) + self.b.rewrites.get(caller, [])
        if rule_why:
            gw = rule_why
        elif rules:
            files = sorted({str(r.get("file")) for r in rules})
            gw = f"no proxy or rewrite of {caller} ({', '.join(files)}) covers {path}"
        else:
            gw = f"{caller} has no proxy or rewrite rule (dev server, hosting, gateway)"
        return (f"relative URL {path}: {'' if own else mine + '; '}{gw}; no KB "
                f"`calls: {{path: …}}` entry of {caller} and no other component on its host")  # fmt: skip

    def _proxied(self, caller: str, segs: list[Seg], via: str) -> tuple[list[Target], str]:
        b = self.b
        for rule in b.proxies.get(caller, []):
            sent = apply_rule(rule, segs)
            if sent is None:
                continue
            origin, dest = sent
            role = str(rule.get("role") or "proxy")
            label = f"{rule.get('kind') or 'dev-server'} {role} {rule.get('source')} → {rule.get('target')}"
            ev = f"{rule.get('file')}:{rule.get('line') or 1} {label}"
            if isinstance(rule.get("env_var"), str):
                return self._env_proxied(caller, rule, segs, role, label, ev)
            if not origin:  # an internal rewrite: the same origin, another path
                t = Target(
                    caller, [], via or label, "rewrite", label, b.envs(caller), [ev], path=dest
                )
                return ([t] if caller in self.api else []), (
                    "" if caller in self.api else f"{label}: {caller} has no API routes"
                )
            loc = netloc(origin)
            if loc is None:
                return [], f"{label}: target is not an absolute URL"
            ts, why = b.by_url(caller, loc[0], dest, via or label, [])
            for t in ts:
                t.path, t.mount = dest, []
                t.resolution = "proxy" if role == "proxy" else "rewrite"
                t.how = f"{label}: {t.how}"
                t.evidence.insert(0, ev)
            return ts, f"{label}: {why}" if why else ""
        return [], ""

    def _env_proxied(self, caller: str, rule: dict, segs: list[Seg], role: str, label: str,
                     ev: str) -> tuple[list[Target], str]:  # fmt: skip
        """A proxy whose target is an env var (`target: env.API_URL`): the var's values
        (env files, compose, KB `calls` env_var entries), as a call's env base is read."""
        var = str(rule["env_var"])
        sent = apply_rule({**rule, "target": "http://env.invalid"}, segs)
        dest = sent[1] if sent else list(segs)
        no_path = lambda _v, _via: ([], "the value is a path, not an origin")  # noqa: E731
        tiers, misses = self.b.by_env(caller, var, None, dest, no_path)
        found = next((tier for tier in tiers if tier), [])
        for t in found:
            if t.prefix is not None:
                t.path, t.mount = [*t.prefix, *dest], []
            t.resolution = "proxy" if role == "proxy" else "rewrite"
            t.how = f"{label}: {t.how}"
            t.evidence.insert(0, ev)
        why = "; ".join(misses) or f"no value of {var} in .env*/compose files and no KB calls entry"
        return found, "" if found else f"{label}: {why}"

    def _rewritten(self, caller: str, segs: list[Seg]) -> tuple[list[Target], str]:
        """Firebase Hosting rewrites of the caller: `/api/**` → a function or Cloud Run."""
        b = self.b
        text = shown(segs)
        for rule in b.rewrites.get(caller, []):
            source = str(rule.get("source") or "")
            if not source or not fnmatch.fnmatchcase(text, source.replace("**", "*")):
                continue
            via, ev = (
                f"rewrite {source}",
                f"{rule.get('file')}:{rule.get('line') or 1} rewrite {source}",
            )
            if rule.get("function"):
                fn = rule["function"]
                fn = fn.get("functionId") if isinstance(fn, dict) else fn
                comp = b.function_component(str(fn))
                if comp is None:
                    return [], f"hosting rewrite {source} → function {fn}: no functions component"
                how = f"hosting rewrite to function {fn}"
                return [Target(comp, [], via, "rewrite", how, b.envs(caller), [ev])], ""
            run = rule.get("run")
            if isinstance(run, dict) and run.get("serviceId"):
                sid = str(run["serviceId"])
                comp = b.run_component(sid)
                if comp is None:
                    return [], f"hosting rewrite {source} → Cloud Run {sid}: no such component"
                how = f"hosting rewrite to Cloud Run service {sid} ({comp})"
                envs = b.envs(caller) | b.envs(comp)
                return [Target(comp, [], via, "rewrite", how, envs, [ev])], ""
            return [], f"hosting rewrite {source} is a static destination (an SPA fallback)"
        return [], ""

    def _kb_paths(self, caller: str, segs: list[Seg], via: str) -> list[Target]:
        """The caller's KB `calls: {path: /api, component: api}`: relative URLs under that
        path go to that component (the longest path wins)."""
        b = self.b
        comp = b.components.get(caller)
        fits = [
            (len(text_segments(e.value)), e)
            for e in (comp.calls() if comp else [])
            if e.key == "path"
            and e.component in b.components
            and starts_with(segs, text_segments(e.value))
        ]
        if not fits:
            return []
        _, e = max(fits, key=lambda x: x[0])
        ev = b.kb_line(caller, f"calls.{e.index}", f"calls[{e.index}] path {e.value}")
        how = f"KB calls[{e.index}] path {e.value} of {caller} → {e.component}"
        return [Target(e.component, [], via or f"calls-entry path {e.value}", "kb-calls", how,
                       b.envs(caller) | b.envs(e.component), [ev])]  # fmt: skip

    def _shared_host(self, caller: str, segs: list[Seg], via: str) -> list[Target]:
        """Another component whose KB url is on the caller's own host, under a path."""
        b, out = self.b, []
        comp = b.components.get(caller)
        for env, cfg in sorted(comp.envs.items() if comp else []):
            loc = netloc(str(cfg.get("url") or ""))
            for other, kenv, kpath in b.hosts.get(loc[0], []) if loc else []:
                if other != caller and kpath and starts_with(segs, kpath):
                    how = f"{other} is KB envs.{kenv}.url on {caller}'s own host {loc[0]}"
                    ev = b.kb_line(other, f"envs.{kenv}.url", f"envs.{kenv}.url")
                    out.append(Target(other, [], via or f"host {loc[0]}", "same-origin", how,
                                      {env, kenv}, [ev]))  # fmt: skip
        return out

    def _serving(self, caller: str, segs: list[Seg], via: str) -> list[Target]:
        """The component whose repository holds the caller's (an API that serves its own
        frontend: templates, a static folder): relative URLs reach its routes."""
        b = self.b
        mine = b.components.get(caller)
        if mine is None or mine.repo_path is None:
            return []
        out = []
        for cid, comp in sorted(b.components.items()):
            if cid == caller or cid not in self.api or comp.repo_path is None:
                continue
            try:
                mine.repo_path.resolve().relative_to(comp.repo_path.resolve())
            except ValueError:
                continue
            how = f"{caller}'s files are inside {cid}'s repository ({comp.field('repo')}), which serves them"
            ev = b.kb_line(caller, "repo", f"repo {mine.field('repo')} inside {comp.field('repo')}")
            out.append(Target(cid, [], via or "same-origin", "same-origin", how,
                              b.envs(caller) | b.envs(cid), [ev], "medium"))  # fmt: skip
        return out
