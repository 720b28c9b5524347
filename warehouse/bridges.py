"""Bridge edges between the knowledge layer and one project's code facts.

HAS_CODE (component → code_file), RESOLVES_TO (env_var → KB secret by `env_var`),
PROVISIONS (tf_resource → KB gcp_project, and a Secret Manager tf_resource → KB secret
by `secret_id`), CALLS (http_call → route, see `warehouse.http_bridge`). Everything is
resolved inside one project: a component id such as `api` in another project is never a
candidate.

Entry point for the pipeline: `build_project_graph(kb, project_id, component_tables)`.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from extractors.facts import Edge, Unresolved
from kb.model import KnowledgeBase
from warehouse.http_bridge import calls_edges
from warehouse.reader import parse_attrs
from warehouse.tables import concat, frame

PARTITION_TABLES = ("nodes", "edges", "unresolved", "problems")


def _records(df: pl.DataFrame | None) -> list[dict[str, Any]]:
    if df is None or df.is_empty():
        return []
    rows = df.to_dicts()
    for row in rows:
        row["attrs"] = parse_attrs(row.get("attrs"))
    return rows


def kb_gcp_projects(kb: KnowledgeBase, project: str) -> dict[str, set[str]]:
    """GCP project id → KB envs naming it (`envs.*.gcp_project`, secret `ref` prefixes)."""
    out: dict[str, set[str]] = {}
    proj = kb.projects.get(project)
    for comp in proj.components.values() if proj else []:
        for env, cfg in comp.envs.items():
            if cfg.get("gcp_project"):
                out.setdefault(str(cfg["gcp_project"]), set()).add(env)
        for secret in comp.list_field("secrets"):
            ref = secret.get("ref") if isinstance(secret, dict) else None
            if isinstance(ref, str) and "/" in ref and secret.get("store") == "secret-manager":
                out.setdefault(ref.split("/", 1)[0], set())
    return out


def _kb_secrets(kb: KnowledgeBase, project: str) -> list[tuple[str, dict[str, Any]]]:
    proj = kb.projects.get(project)
    return [
        (cid, s)
        for cid, comp in sorted(proj.components.items() if proj else [])
        for s in comp.list_field("secrets")
        if isinstance(s, dict) and s.get("name")
    ]


def build_bridges(
    kb: KnowledgeBase,
    project: str,
    nodes: list[dict[str, Any]],
    code_edges: list[dict[str, Any]] | None = None,
) -> tuple[list[Edge], list[Unresolved]]:
    """Bridge edges for one project from its code nodes (dicts with parsed `attrs`); its
    code edges (IMPORTS, CALLS_FN, ...) tell which call sites are in dead code."""
    proj = kb.projects.get(project)
    known = set(proj.components) if proj else set()
    nodes = [n for n in nodes if n.get("project") == project]
    edges: list[Edge] = []
    secrets = _kb_secrets(kb, project)
    gcp = kb_gcp_projects(kb, project)
    for n in nodes:
        comp, kind, attrs = n.get("component"), n["kind"], n["attrs"]
        where = (n.get("file"), n.get("line"))
        if kind == "code_file" and comp in known:
            edges.append(
                Edge(f"{project}:component:{comp}", n["id"], "HAS_CODE", project, comp, *where)
            )
        elif kind == "env_var":
            name = str(attrs.get("name") or n["name"])
            own = [s for c, s in secrets if c == comp and s.get("env_var") == name]
            other = [s for c, s in secrets if c != comp and s.get("env_var") == name]
            for s in own or other:
                edges.append(
                    Edge(
                        n["id"],
                        f"{project}:secret:{s['name']}",
                        "RESOLVES_TO",
                        project,
                        comp,
                        *where,
                        {
                            "via": name,
                            "confidence": "high" if own else "medium",
                            "resolution": "secrets[].env_var of this component"
                            if own
                            else "secrets[].env_var of another component of the project",
                        },
                    )
                )
        elif kind == "tf_resource":
            for gid in sorted(set(attrs.get("gcp_projects") or [])):
                if gid in gcp:
                    by_env = attrs.get("gcp_projects_by_env") or {}
                    envs = sorted(e for e, g in by_env.items() if g == gid) or sorted(gcp[gid])
                    edges.append(
                        Edge(
                            n["id"],
                            f"{project}:gcp_project:{gid}",
                            "PROVISIONS",
                            project,
                            comp,
                            *where,
                            {"via": "project", "envs": envs},
                        )
                    )
            secret_id = attrs.get("secret_id")
            if attrs.get("type") == "google_secret_manager_secret" and secret_id:
                for _, s in secrets:
                    ref = str(s.get("ref") or "")
                    if s["name"] == secret_id or ref.endswith("/" + str(secret_id)):
                        edges.append(
                            Edge(
                                n["id"],
                                f"{project}:secret:{s['name']}",
                                "PROVISIONS",
                                project,
                                comp,
                                *where,
                                {"via": "secret_id", "secret_id": secret_id},
                            )
                        )
                        break
    calls, unresolved = calls_edges(kb, project, nodes, code_edges)
    edges.extend(calls)
    return edges, unresolved


def build_project_graph(
    kb: KnowledgeBase, project_id: str, component_tables: dict[str, dict[str, pl.DataFrame]]
) -> dict[str, pl.DataFrame]:
    """One project partition: its components' code facts plus bridge edges and unresolved.

    `component_tables` maps `project/component` to that component's frames (`nodes`,
    `edges`, `unresolved`, `problems`, as `warehouse.tables.frame` builds them); keys of
    other projects are ignored, so nothing of another project can leak in. Problem paths
    get the `project/component/` prefix (relative to repos_root, like `repo:`).
    """
    mine = {k: v for k, v in sorted(component_tables.items()) if k.split("/", 1)[0] == project_id}
    out = {t: concat(t, [v.get(t) for v in mine.values()]) for t in PARTITION_TABLES}
    problems = []
    for key, tables in mine.items():  # a component's problem paths are relative to its repo
        df = tables.get("problems")
        if df is not None and df.height:
            path = pl.col("path")
            keyed = path.str.starts_with("/") | path.str.starts_with(key)
            prefixed = pl.when(keyed).then(path).otherwise(pl.lit(key + "/") + path)
            problems.append(df.with_columns(prefixed.alias("path")))
    out["problems"] = concat("problems", problems)
    nodes = out["nodes"].unique(subset=["id"], keep="first", maintain_order=True)
    code_edges = out["edges"].select("src", "dst", "type").to_dicts()
    edges, unresolved = build_bridges(kb, project_id, _records(nodes), code_edges)
    out["nodes"] = nodes
    out["edges"] = pl.concat([out["edges"], frame("edges", edges)], how="vertical")
    out["unresolved"] = pl.concat(
        [out["unresolved"], frame("unresolved", unresolved)], how="vertical"
    )
    return out
