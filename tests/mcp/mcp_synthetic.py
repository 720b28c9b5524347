"""A small, realistic two-project warehouse published with `warehouse.publish`.

Both projects have a component named `api` (and `web`), so names collide across
projects. acme-shop carries the spec's contact-form chain (Next.js form → HTTP call →
Express route → middleware → handler → service → env var → secret); globex-portal
carries a planted unique string (`Xyzzy42`) that must never show up in an answer
scoped to acme-shop. Used for cases the bundled example cannot show (collisions,
huge fan-out, planted strings, staleness on a repo the test edits).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from mcp_synthetic_code import PLANT, acme, edge, globex  # noqa: F401  (PLANT is re-exported)

from extractors.facts import Edge, Node
from kb.versions import component_version
from warehouse.publish import publish
from warehouse.tables import frame


def _git_repo(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    env = ["-c", "user.email=t@example.com", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    subprocess.run(["git", "-C", str(folder), "add", "."], check=True)
    subprocess.run(["git", "-C", str(folder), *env, "commit", "-q", "-m", "init"], check=True)


def _knowledge(p: str, comps: dict[str, dict], runtime: str) -> tuple[list[Node], list[Edge]]:
    doc = f"projects/{p}/project.md"
    nodes = [Node(f"{p}:project:{p}", "project", p.title(), p, None, doc, 1)]
    edges = []
    rt = Node(f"{p}:runtime:{runtime}", "runtime", runtime, p, None)
    nodes.append(rt)
    for c, attrs in comps.items():
        cdoc = f"projects/{p}/components/{c}.md"
        cid = f"{p}:component:{c}"
        nodes.append(Node(cid, "component", c, p, None, cdoc, 2, None, attrs))
        edges.append(edge(f"{p}:project:{p}", cid, "HAS_COMPONENT", p, None, cdoc, 2))
        for env in ("dev", "prod"):
            eid = f"{p}:env_instance:{c}/{env}"
            url = f"https://{c}{'' if env == 'prod' else '.dev'}.{p}.example.com"
            nodes.append(
                Node(
                    eid,
                    "env_instance",
                    f"{c} {env}",
                    p,
                    None,
                    cdoc,
                    10,
                    None,
                    {
                        "env": env,
                        "component": c,
                        "runtime": runtime,
                        "url": url,
                        "gcp_project": f"{p}-{env}",
                    },
                )
            )
            edges.append(edge(cid, eid, "HAS_ENV", p, None, cdoc, 10))
            edges.append(edge(eid, rt.id, "RUNS_ON", p, None, cdoc, 11))
        edges.append(
            edge(
                cid,
                "_global:package:express",
                "USES_PACKAGE",
                p,
                c,
                "package.json",
                12,
                version="4.18.2",
            )
        )
    return nodes, edges


def build(tmp: Path) -> dict[str, Path]:
    """Publish the warehouse under tmp; returns paths (kb, data, repos)."""
    kb = tmp / "kb"
    kb.mkdir(parents=True, exist_ok=True)
    (kb / "kb.yaml").write_text("name: synthetic\ntoken_budget: 1200\n", encoding="utf-8")
    repos = tmp / "repos"
    api_repo = repos / "acme-shop" / "api"
    _git_repo(
        api_repo,
        {
            "src/services/zendesk.ts": "export const createTicket = () => 1;\n",
            "package.json": "{}\n",
        },
    )
    globex_api = repos / "globex-portal" / "api"
    globex_api.mkdir(parents=True, exist_ok=True)
    (globex_api / "index.ts").write_text("export {};\n", encoding="utf-8")
    an, ae, au = acme()
    gn, ge, gu = globex()
    kn1, ke1 = _knowledge(
        "acme-shop",
        {
            "web": {"stack": ["nextjs"], "role": "frontend"},
            "api": {"stack": ["express"], "role": "api"},
        },
        "cloud-run",
    )
    kn2, ke2 = _knowledge(
        "globex-portal",
        {
            "web": {"stack": ["nuxt"], "role": "frontend"},
            "api": {"stack": ["express"], "role": "api"},
        },
        "gke",
    )
    secret = Node(
        "acme-shop:secret:zendesk-api-token",
        "secret",
        "zendesk-api-token",
        "acme-shop",
        None,
        "projects/acme-shop/components/api.md",
        20,
        None,
        {"store": "secret-manager"},
    )
    ke1.append(
        edge(
            "acme-shop:component:api",
            secret.id,
            "USES_SECRET",
            "acme-shop",
            None,
            "projects/acme-shop/components/api.md",
            20,
        )
    )
    catalog_node = Node(
        "_global:package:express",
        "package",
        "express",
        None,
        None,
        None,
        None,
        None,
        {"used_by": ["acme-shop/api", "globex-portal/api"]},
    )
    catalog = [
        {
            "project": "acme-shop",
            "component": "api",
            "ecosystem": "npm",
            "package": "express",
            "name": "express",
            "version": "4.18.2",
            "declared": "^4.18.0",
            "file": "package.json",
            "line": 12,
        },
        {
            "project": "globex-portal",
            "component": "api",
            "ecosystem": "npm",
            "package": "express",
            "name": "express",
            "version": "4.19.2",
            "declared": "^4.19.0",
            "file": "package.json",
            "line": 9,
        },
        {
            "project": "acme-shop",
            "component": "web",
            "ecosystem": "npm",
            "package": "next",
            "name": "next",
            "version": "14.1.0",
            "declared": "14.1.0",
            "file": "package.json",
            "line": 15,
        },
    ]
    docs = [
        {
            "path": "projects/acme-shop/components/api.md",
            "project": "acme-shop",
            "component": "api",
            "kind": "component",
            "type": "reference",
            "title": "Contact API (Zendesk tickets via ZENDESK_API_TOKEN)",
            "verification_status": "verified",
            "verified_at": "2024-01-01",
            "frontmatter": {"id": "api"},
        },
    ]
    adrs = [
        {
            "id": "0001",
            "project": "acme-shop",
            "status": "proposed",
            "date": "2024-02-01",
            "summary": "Use Zendesk for contact tickets; token ZENDESK_API_TOKEN",
            "path": "projects/acme-shop/adr/0001-zendesk.md",
        }
    ]
    partitions = {
        "acme-shop": {
            "nodes": frame("nodes", an),
            "edges": frame("edges", ae),
            "unresolved": frame("unresolved", au),
        },
        "globex-portal": {
            "nodes": frame("nodes", gn),
            "edges": frame("edges", ge),
            "unresolved": frame("unresolved", gu),
        },
        "_global": {
            "nodes": frame("nodes", [*kn1, *kn2, secret, catalog_node]),
            "edges": frame("edges", [*ke1, *ke2]),
            "catalog_packages": frame("catalog_packages", catalog),
            "docs": frame("docs", docs),
            "adrs": frame("adrs", adrs),
            "problems": frame(
                "problems",
                [
                    {
                        "severity": "warning",
                        "path": "projects/acme-shop/project.md",
                        "line": 3,
                        "rule": "stale",
                        "message": "verified long ago",
                    }
                ],
            ),
        },
    }
    components = {
        "acme-shop/api": {"version": component_version(api_repo), "repo": str(api_repo)},
        "globex-portal/api": {"version": component_version(globex_api), "repo": str(globex_api)},
    }
    data = tmp / "data"
    publish(data, partitions, {"components": components})
    return {"kb": kb, "data": data, "repos": repos, "api_repo": api_repo}
