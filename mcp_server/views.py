"""kb_entity on a component: built around its relationships, planned as whole sections.

In order of information value: its own routes (handler and route-level middleware, the
chain every route shares once), outbound calls grouped by target component → route →
handler, inbound calls by calling component, env vars read and secrets, the calls that
stay unresolved, then the rest — Terraform (resources by type, variables apart),
settings, triggers, runtime per env, packages, attributes, docs, exported functions,
edge counts. Under a tight budget every section keeps its whole list in less detail
(mcp_server.sections); the least valuable section gives way first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from mcp_server.budget import Answer
from mcp_server.facts import (
    declared_text,
    eattrs,
    env_read_sites,
    ins,
    is_test,
    name,
    outs,
    secrets_of_env,
)
from mcp_server.graph import ProjectGraph
from mcp_server.impact_code import inline_reads
from mcp_server.relations import inbound_section, outbound_section, routes_section
from mcp_server.render import ref, short, where
from mcp_server.sections import Section, levels, plan, scratch
from mcp_server.settings import section, settings_of, value_from

Extra = Callable[[Answer], None]  # a renderer of trailing lines (docs, ADRs) from the tool


def own(pg: ProjectGraph, comp: str, kind: str) -> list[str]:
    nodes = [
        n
        for n, d in pg.of_kind(kind)
        if d.get("component") == comp and d.get("project") == pg.project
    ]
    return sorted(nodes, key=lambda n: (pg.node(n).get("file") or "", pg.node(n).get("line") or 0))


def _one(name_: str, lines: list[str], value: int, summary: str, keep: bool = False) -> Section:
    """A list section: whole, or one summary line."""
    if len(lines) > 1:
        return Section(name_, levels(full=lines, summary=[summary]), value, keep)
    return Section(name_, levels(full=lines), value, keep)


def _listed(title: str, items: list[str], value: int) -> Section:
    """A titled list of the rest: whole, or its count."""
    return _one(title, [f"{title} ({len(items)}):", *items], value, f"{title}: {len(items)}")


def settings_section(pg: ProjectGraph, ids: list[str], title: str, value: int) -> Section | None:
    """Config/deploy statements (`name = value (file:line)`): dense single facts (a mount
    prefix, a Node version, an image), so they give way after the env reads and the
    inbound calls although they are listed after them."""
    if not ids:
        return None
    full = scratch(lambda a: section(pg, a, ids, title, 9, group=None))
    compact = [f"{title} ({len(ids)}): name = value (file:line)"]
    for n in ids:
        value_ = pg.attrs(n).get("value")
        shown = f" = {short(value_, 50)}" if value_ not in (None, "") else ""
        loc = where(pg, n).split(" ", 1)[-1]
        compact.append(f"  {short(pg.node(n).get('name'), 40)}{shown} ({loc}){value_from(pg, n)}")
    names = ", ".join(short(pg.node(n).get("name"), 40) for n in ids)
    summary = [f"{title} ({len(ids)}): {names} (kb_entity name=<setting> gives one's value)"]
    return Section(title, levels(full=full, compact=compact, summary=summary), value)


def env_section(pg: ProjectGraph, comp: str, value: int) -> Section | None:
    """Env vars the component reads (read sites, where declared, the secret), then the
    KB secrets it uses."""
    envs = [e for e in own(pg, comp, "env_var") if ins(pg, e, "READS_ENV")]
    envs.sort(key=lambda n: str(pg.node(n).get("name")))
    cid = f"{pg.project}:component:{comp}"
    secrets = outs(pg, cid, "USES_SECRET") if cid in pg.g else []
    if not envs and not secrets:
        return None
    head = (
        f"env vars read by {pg.project}/{comp} ({len(envs)}): name → read sites; declared; secret"
    )
    full, compact = [head], [head]
    for e in envs:
        inline = {u for u, _ in inline_reads(pg, e)}
        prod, test = env_read_sites(pg, e, skip=inline)
        sites = ", ".join(s.split(" (")[0] for s in prod[:4])
        sites += f" +{len(prod) - 4}" if len(prod) > 4 else ""
        if inline:
            sites += f"{', ' if sites else ''}inline in {len(inline)} route registrations"
        sites = sites or "tests only"
        sites += f" (+{len(test)} in tests)" if test else ""
        secret = "".join(f" → secret {name(pg, s, 50)}" for s in secrets_of_env(pg, e))
        full.append(f"  {name(pg, e, 60)} read at {sites}; {declared_text(pg, e)}{secret}")
        first = prod[0].split(" (")[0].split(" ", 1)[-1] if prod else "tests only"
        compact.append(f"  {name(pg, e, 60)} ({len(prod)} reads, first {first}){secret}")
    if secrets:
        full.append(f"secrets ({len(secrets)}):")
        compact.append(
            f"secrets ({len(secrets)}): " + ", ".join(name(pg, s, 40) for s, _ in secrets)
        )
    for s, d in secrets:
        a = pg.attrs(s)
        bits = " ".join(f"{k}={short(a[k], 50)}" for k in ("env_var", "store", "ref") if a.get(k))
        loc = f"{d.get('file')}:{d.get('line')}" if d.get("file") else where(pg, s)
        full.append(f"  {name(pg, s, 60)} {bits} ({loc})")
    names = ", ".join(name(pg, e, 40) for e in envs)
    summary = [
        f"env vars read ({len(envs)}): {names}" + (f"; secrets {len(secrets)}" if secrets else "")
    ]
    return Section("env vars", levels(full=full, compact=compact, summary=summary), value)


def terraform_section(pg: ProjectGraph, comp: str, value: int) -> Section | None:
    """Terraform of the component: resources by type, then variables, outputs, providers —
    a variable is not a resource."""
    tf = own(pg, comp, "tf_resource")
    if not tf:
        return None
    blocks: dict[str, list[str]] = {}
    for n in tf:
        blocks.setdefault(str(pg.attrs(n).get("block") or "resource"), []).append(n)
    resources = blocks.pop("resource", [])
    full = [
        f"terraform of {pg.project}/{comp}: {len(resources)} resources"
        + "".join(f", {len(v)} {k}s" for k, v in sorted(blocks.items()))
    ]
    compact = list(full)
    by_type: dict[str, list[str]] = {}
    for n in resources:
        by_type.setdefault(str(name(pg, n, 200)).split(".", 1)[0], []).append(n)
    for t, ns in sorted(by_type.items()):
        full.append(
            f"  {t} ({len(ns)}): "
            + ", ".join(
                f"{name(pg, n, 60).split('.', 1)[-1]} ({where(pg, n).split(' ', 1)[-1]})"
                for n in ns
            )
        )
        compact.append(
            f"  {t} ({len(ns)}): " + ", ".join(name(pg, n, 60).split(".", 1)[-1] for n in ns)
        )
    for block, ns in sorted(blocks.items()):
        shown = []
        for n in ns:
            default = pg.attrs(n).get("default")
            extra = f" = {short(default, 40)}" if default not in (None, "") else ""
            shown.append(f"{name(pg, n, 50)}{extra} ({where(pg, n).split(' ', 1)[-1]})")
        full.append(f"  {block}s ({len(ns)}): " + ", ".join(shown))
        compact.append(f"  {block}s ({len(ns)}): " + ", ".join(name(pg, n, 40) for n in ns))
    summary = [
        full[0] + " — types " + ", ".join(f"{t} {len(v)}" for t, v in sorted(by_type.items()))
    ]
    return Section("terraform", levels(full=full, compact=compact, summary=summary), value)


def _runtime(pg: ProjectGraph, cid: str) -> list[str]:
    envs = sorted(outs(pg, cid, "HAS_ENV"), key=lambda x: str(pg.node(x[0]).get("name")))
    lines = [f"runtime per env ({len(envs)}):"] if envs else []
    for e, _ in envs:
        a = pg.attrs(e)
        bits = " ".join(
            f"{k}={short(a[k], 60)}"
            for k in ("runtime", "url", "region", "gcp_project", "deploy")
            if a.get(k)
        )
        lines.append(f"  {a.get('env') or name(pg, e)}: {bits}".rstrip())
    return lines


def _packages(pg: ProjectGraph, cid: str) -> list[str]:
    pkgs = outs(pg, cid, "USES_PACKAGE")
    if not pkgs:
        return []
    stack = pg.attrs(cid).get("stack") or []
    words = {str(s).lower() for s in (stack if isinstance(stack, list) else [stack])}
    named = [
        (p, d)
        for p, d in pkgs
        if any(w and w in str(pg.node(p).get("name")).lower() for w in words)
    ]
    shown = ", ".join(
        f"{name(pg, p, 40)} {eattrs(d).get('version') or ''} ({d.get('file')}:{d.get('line')})".replace(
            "  ", " "
        )
        for p, d in named[:8]
    )
    return [f"packages: {len(pkgs)}" + (f"; naming its stack: {shown}" if shown else "")]


def _symbols(pg: ProjectGraph, comp: str) -> tuple[list[str], list[str]]:
    """(trigger lines, exported function refs) of the component."""
    triggers, exported = [], []
    for n, d in pg.of_kind("symbol"):
        if d.get("component") != comp or d.get("project") != pg.project:
            continue
        a = pg.attrs(n)
        if a.get("trigger") or a.get("triggers"):
            extra = f" on {a['resource']}" if a.get("resource") else ""
            triggers.append(
                f"  [{a.get('trigger') or a.get('triggers')}{extra}] {ref(pg, n, kind=False)}"
            )
        elif (a.get("exported") or a.get("export")) and a.get("symbol_kind") not in (
            "variable",
            "anonymous",
            "type",
            "interface",
        ):
            exported.append(n)
    exported.sort(key=lambda n: (pg.node(n).get("file") or "", pg.node(n).get("line") or 0))
    return sorted(triggers), [f"  {ref(pg, n, kind=False)}" for n in exported]


def component_view(pg: ProjectGraph, ans: Answer, comp: str, extra: Extra | None = None) -> None:
    ans.touch(pg.project, comp)
    cid = f"{pg.project}:component:{comp}"
    label = f"{pg.project}/{comp}"
    routes = own(pg, comp, "route")
    calls = own(pg, comp, "http_call")
    parts = [
        routes_section(pg, label, routes, 100),
        outbound_section(pg, calls, 95),
        inbound_section(pg, routes, 90),
        env_section(pg, comp, 80),
        terraform_section(pg, comp, 85 if not routes and not calls else 60),
    ]
    tests = sum(is_test(pg.node(c).get("file")) for c in calls)
    rows = pg.unresolved_of(comp)
    notes = ([f"  (+{tests} call sites in tests left out)"] if tests else []) + (
        [f"unresolved/dynamic calls: {len(rows)} (kb_neighbors on the component lists them)"]
        if rows
        else []
    )
    parts.append(Section("unresolved", levels(full=notes), 75, keep=False) if notes else None)
    parts.append(settings_section(pg, settings_of(pg, comp), "settings", 92))
    triggers, exported = _symbols(pg, comp)
    if triggers:
        parts.append(_listed("triggers", triggers, 49))
    if cid in pg.g:
        runtime = _runtime(pg, cid)
        parts.append(
            _one("runtime", runtime, 45, f"runtime: {len(runtime) - 1} envs") if runtime else None
        )
        parts.append(Section("packages", levels(full=_packages(pg, cid)), 35, keep=False))
        attrs = [f"{k}: {short(', '.join(map(str, v)) if isinstance(v, list) else v, 200)}"
                 for k, v in sorted(pg.attrs(cid).items())
                 if k != "repo_path" and v not in (None, "", [], {})]  # fmt: skip
        parts.append(Section("attributes", levels(full=attrs), 30, keep=False) if attrs else None)
    if extra is not None:
        docs = scratch(extra)
        parts.append(_one("docs", docs, 25, f"docs and ADRs: {max(len(docs) - 1, 0)}"))
    if exported:
        parts.append(_listed("exported functions", exported, 20))
    if cid in pg.g:
        counts = Counter(d["type"] for _, _, d in pg.g.out_edges(cid, data=True))
        if counts:
            line = "edges: " + ", ".join(f"out {t}={n}" for t, n in sorted(counts.items()))
            parts.append(Section("edge counts", levels(full=[line]), 10, keep=False))
    plan(ans, [p for p in parts if p is not None])
