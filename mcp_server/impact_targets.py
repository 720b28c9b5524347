"""What kb_impact's target names: any node of the project, found by what an agent knows.

In order: a folder, a URL or host (env instances, call sites, hosts, settings naming it),
an env var or secret by name, any node by name/id/`path:line` (constants, routes,
Terraform addresses like `google_cloud_run_v2_service.server`, cookies …), the last part
of a dotted or qualified name (`django_settings` → `google_secret_manager_secret.django_settings`),
settings whose value names it, nodes whose attrs name it as a whole word, the catalog.
Nothing found is a plain "no — per the static graph" with the nearest names, not an error.
"""

from __future__ import annotations

import difflib
import re

from mcp_server.budget import Answer
from mcp_server.graph import ProjectGraph
from mcp_server.negatives import NO
from mcp_server.render import attrs_text, short, where
from mcp_server.resolve import candidates, resolve
from mcp_server.settings import is_setting, line_of, naming, section

# a URL, or a host name (`api.example.com`) — not a Terraform address (`type.name`)
_URLISH = re.compile(r"^[a-z]+://|^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}(/|$)", re.I)
URL_KINDS = {"env_instance", "http_call", "host", "component", "setting"}
MAX_SEEDS = 40


def _own(pg: ProjectGraph, ids: list[str], component: str | None) -> list[str]:
    return [i for i in ids if not component or pg.node(i).get("component") in (component, None)]


def _folder(pg: ProjectGraph, text: str, component: str | None) -> list[str]:
    stripped = text.rstrip("/")
    is_folder = text.endswith("/") or any(
        f.startswith(stripped + "/") for f in pg.by_file if "/" in stripped or "." not in stripped
    )
    if not (is_folder and stripped and stripped not in pg.g and stripped.lower() not in pg.by_name):
        return []
    return [
        i
        for f, v in pg.by_file.items()
        if f.startswith(stripped + "/")
        for i in v
        if not component or pg.node(i).get("component") == component
    ]


_FILE_EXT = {"py", "js", "ts", "tsx", "jsx", "mjs", "json", "yaml", "yml", "md", "tf", "go", "vue"}


def _url(pg: ProjectGraph, text: str) -> list[str]:
    bare = "://" not in text and text.split("/")[0].rsplit(".", 1)[-1].lower() in _FILE_EXT
    if not _URLISH.search(text) or bare:
        return []
    host = re.sub(r"^[a-z]+://", "", text, flags=re.I).split("/")[0].lower()
    return [
        i
        for i, d in pg.g.nodes(data=True)
        if d.get("kind") in URL_KINDS
        and (host in str(d.get("name", "")).lower() or host in attrs_text(d).lower())
    ]


def _last_part(pg: ProjectGraph, text: str, component: str | None) -> list[str]:
    """Nodes whose dotted/qualified name ends in the text (a Terraform resource's label)."""
    low = text.lower()
    ids = [
        i
        for name, v in pg.by_name.items()
        if name.endswith("." + low) or name.endswith(":" + low)
        for i in v
        if pg.node(i).get("project") == pg.project
    ]
    return _own(pg, ids, component)


def _attr_texts(pg: ProjectGraph) -> list[tuple[str, str]]:
    """(node id, attrs as text) of the project's nodes with attrs, built once per graph."""
    cached = getattr(pg, "_attr_texts", None)
    if cached is None:
        cached = [
            (i, attrs_text(d))
            for i, d in pg.g.nodes(data=True)
            if d.get("project") == pg.project and d.get("kind") != "code_file" and d.get("attrs")
        ]
        pg._attr_texts = cached  # type: ignore[attr-defined]
    return cached


def _mentions(pg: ProjectGraph, text: str, component: str | None) -> list[str]:
    """The project's nodes whose attrs name the text as a whole word (a cookie in a call's
    attrs, a secret id in a Terraform resource's)."""
    if len(text) < 3:
        return []
    pat = re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])", re.I)
    ids = [i for i, blob in _attr_texts(pg) if pat.search(blob)]
    return _own(pg, ids, component)


def seeds_for(pg: ProjectGraph, target: str, component: str | None) -> list[str]:
    """The target's nodes (several when several are named so), or [] when none is."""
    text = target.strip()
    if component and component not in pg.components:
        resolve(pg, text, component, "target")  # one line: unknown component, the known ones
    found = _folder(pg, text, component) or _url(pg, text)
    if found:
        return found
    named = [
        i
        for i in pg.by_name.get(text.lower(), [])
        if pg.node(i).get("kind") in ("env_var", "secret")
        and (not component or pg.node(i).get("component") in (component, None))
    ]
    if named:
        return sorted(named)
    ids = candidates(pg, text, component)
    if not ids and ":" not in text:
        for kind in ("package", "middleware_name", "host", "tf_resource_type", "env_var_name"):
            if f"_global:{kind}:{text}" in pg.g:
                return [f"_global:{kind}:{text}"]
    for finder in (_last_part, naming_in, _mentions):
        if ids:
            break
        ids = finder(pg, text, component)
    return sorted(set(ids))[:MAX_SEEDS]


def naming_in(pg: ProjectGraph, text: str, component: str | None) -> list[str]:
    return naming(pg, [text], component)


def no_target(pg: ProjectGraph, ans: Answer, text: str, component: str | None) -> None:
    scope = pg.project + (f"/{component}" if component else "")
    ans.add(
        f"{NO}: nothing named '{short(text, 80)}' in {scope} — no node (constant, symbol, "
        "route, env var, secret, setting, host, Terraform resource) has that name, and no "
        "setting or attribute mentions it."
    )
    own = {
        n: [i for i in ids if pg.node(i).get("project") == pg.project]
        for n, ids in pg.by_name.items()
        if n
    }
    own = {n: ids for n, ids in own.items() if ids}  # this project's nodes, not the catalog
    low = text.lower()
    near = difflib.get_close_matches(low, list(own), n=6, cutoff=0.5)
    near += [n for n in own if low in n and n not in near][: 8 - len(near)]
    shown = [own[n][0] for n in near]
    if shown:
        ans.add("nearest names:")
    for i in shown:
        loc = where(pg, i)
        ans.add(
            f"{pg.node(i).get('kind')} {short(pg.node(i).get('name'), 80)}"
            + (f" ({loc})" if loc else ""),
            prio=5,
            indent="  ",
        )


def settings_naming(pg: ProjectGraph, ans: Answer, seeds: list[str], text: str) -> None:
    """The seeds that are settings (value at file:line), then the project's settings that
    name the target or a seed (a rewrite naming the service, a default naming the region)."""
    own = [s for s in seeds if is_setting(pg, s)]
    for s in own[:10]:
        ans.add(f"setting: {line_of(pg, s)}", prio=1)
    needles = {text}
    for s in seeds[:10]:
        if is_setting(pg, s):
            continue
        name = str(pg.node(s).get("name") or "")
        needles.add(name)
        if pg.node(s).get("kind") == "tf_resource" and "." in name:
            needles.add(name.rsplit(".", 1)[-1])
    others = [n for n in naming(pg, sorted(needles)) if n not in own]
    section(pg, ans, others, "settings that name it", 3)
