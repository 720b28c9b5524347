"""kb_impact's HTTP call sites that go through the target as their base URL.

A frontend's calls rarely name the API host: they go through a base URL constant, an
interceptor or a generated client whose host comes from an env var. The extractor records
that on each http_call (`env_var`, `base_setting` — the id of the base URL setting). So
the call sites affected by an env var, a host/URL or a base URL setting are the http_calls
whose `env_var` is that env var or whose `base_setting` is (or names) the target — listed
at their own call line, production first, tests only counted.
"""

from __future__ import annotations

from mcp_server.budget import Answer
from mcp_server.facts import is_test, name, outs
from mcp_server.graph import ProjectGraph
from mcp_server.render import short, span

SHOWN = 40  # call lines listed before the rest is counted


def base_call_sites(pg: ProjectGraph, seeds: list[str], skip: set[str]) -> list[str]:
    """http_call nodes reaching the network through one of the seeds (not in `skip`)."""
    kinds = {s: pg.node(s).get("kind") for s in seeds}
    envs = {str(pg.node(s).get("name")) for s, k in kinds.items() if k == "env_var"}
    # an env var is its component's own: another repo's variable of that name is another value
    own_env = {(pg.node(s).get("component"), str(pg.node(s).get("name")))
               for s, k in kinds.items() if k == "env_var"}  # fmt: skip
    bases = {s for s, k in kinds.items() if k == "setting"}
    names = envs | {str(pg.node(s).get("name")) for s in seeds}
    for n, _ in pg.of_kind("setting"):  # base URL settings that refer to an env var seed
        if str(pg.attrs(n).get("refers_to")) in names:
            bases.add(n)
    calls = {s for s, k in kinds.items() if k == "http_call"}
    for n, d in pg.of_kind("http_call"):
        if d.get("project") != pg.project:
            continue
        a = pg.attrs(n)
        if (d.get("component"), a.get("env_var")) in own_env or a.get("base_setting") in bases:
            calls.add(n)
    return sorted(
        calls - skip,
        key=lambda c: (str(pg.node(c).get("file")), pg.node(c).get("line") or 0, c),
    )


def render_sites(pg: ProjectGraph, ans: Answer, calls: list[str]) -> None:
    """Production call sites grouped by component and file, each at `file:line`; tests counted."""
    prod = [c for c in calls if not is_test(pg.node(c).get("file"))]
    tests = len(calls) - len(prod)
    if not calls:
        return
    extra = f", +{tests} in tests left out" if tests else ""
    ans.add(f"HTTP call sites through it ({len(prod)} production{extra}):", prio=2)
    by_comp: dict[str, list[str]] = {}
    for c in prod:  # already in file, line order
        by_comp.setdefault(str(pg.node(c).get("component")), []).append(c)
    shown = 0
    for comp, group in by_comp.items():
        ans.touch(pg.project, comp)
        files = len({pg.node(c).get("file") for c in group})
        ans.add(f"{pg.project}/{comp} ({len(group)} in {files} files):", prio=5, indent="  ")
        for c in group[: max(SHOWN - shown, 0)]:
            shown += 1
            ans.add(_site(pg, c), prio=6, group="call site", indent="    ")
    if shown < len(prod):
        ans.cut.append(f"{len(prod) - shown} more call sites")


def _site(pg: ProjectGraph, call: str) -> str:
    """`file:line METHOD path → the route it reaches` of one call."""
    d, a = pg.node(call), pg.attrs(call)
    path = a.get("path") or a.get("url_template") or name(pg, call, 60)
    what = short(f"{a.get('method') or ''} {path}".strip(), 70)
    routes = []
    for r, _ in outs(pg, call, "CALLS"):
        routes.append(name(pg, r, 50))
    to = f" → {', '.join(routes)}" if routes else ""
    return f"{span(d)} {what}{to}"
