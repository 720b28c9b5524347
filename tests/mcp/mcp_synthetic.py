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
from typing import Any

from extractors.facts import Edge, Node, Unresolved
from kb.versions import component_version
from warehouse.publish import publish
from warehouse.tables import frame

PLANT = "Xyzzy42"
FANOUT = 60


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


def _code(
    p: str,
    c: str,
    kind: str,
    q: str,
    name: str,
    file: str,
    line: int,
    end: int | None = None,
    **attrs: Any,
) -> Node:
    return Node(f"{p}/{c}:{kind}:{q}", kind, name, p, c, file, line, end or line, attrs)


def _e(
    src: str,
    dst: str,
    t: str,
    p: str,
    c: str | None,
    file: str | None = None,
    line: int | None = None,
    **attrs: Any,
) -> Edge:
    return Edge(src, dst, t, p, c, file, line, attrs)


def _acme() -> tuple[list[Node], list[Edge], list[Unresolved]]:
    p = "acme-shop"
    nodes = [
        _code(
            p,
            "web",
            "code_file",
            "src/components/contact-form.tsx",
            "src/components/contact-form.tsx",
            "src/components/contact-form.tsx",
            1,
        ),
        _code(
            p,
            "web",
            "symbol",
            "ContactForm",
            "ContactForm",
            "src/components/contact-form.tsx",
            105,
            160,
            exported=True,
        ),
        _code(
            p,
            "web",
            "http_call",
            "contact-form.tsx:112",
            "POST {NEXT_PUBLIC_CONTACT_API_URL}jp/contact",
            "src/components/contact-form.tsx",
            112,
        ),
        _code(
            p,
            "web",
            "env_var",
            "NEXT_PUBLIC_CONTACT_API_URL",
            "NEXT_PUBLIC_CONTACT_API_URL",
            "src/components/contact-form.tsx",
            110,
        ),
        _code(
            p,
            "api",
            "route",
            "POST /api/jp/contact",
            "POST /api/jp/contact",
            "src/routes/contact.ts",
            18,
        ),
        _code(p, "api", "route", "GET /api/health", "GET /api/health", "src/routes/index.ts", 9),
        _code(p, "api", "middleware", "rateLimit", "rateLimit", "src/middleware/rate-limit.ts", 7),
        _code(
            p,
            "api",
            "middleware",
            "validateContact",
            "validateContact",
            "src/validators/contact.ts",
            12,
        ),
        _code(
            p,
            "api",
            "symbol",
            "contactController.sendContactEmailJp",
            "contactController.sendContactEmailJp",
            "src/controllers/contact.ts",
            40,
            70,
            exported=True,
        ),
        _code(p, "api", "symbol", "healthCheck", "healthCheck", "src/routes/index.ts", 3, 6),
        _code(
            p,
            "api",
            "symbol",
            "zendeskService.createTicket",
            "zendeskService.createTicket",
            "src/services/zendesk.ts",
            22,
            48,
            exported=True,
        ),
        _code(
            p,
            "api",
            "env_var",
            "ZENDESK_API_TOKEN",
            "ZENDESK_API_TOKEN",
            "src/services/zendesk.ts",
            5,
        ),
        _code(
            p, "api", "symbol", "dispatchEvent", "dispatchEvent", "src/services/events.ts", 4, 12
        ),
    ]
    files = [
        "src/routes/contact.ts",
        "src/routes/index.ts",
        "src/middleware/rate-limit.ts",
        "src/validators/contact.ts",
        "src/controllers/contact.ts",
        "src/services/zendesk.ts",
        "src/services/events.ts",
    ]
    for i in range(FANOUT):
        files.append(f"src/lib/helpers/util{i:02d}.ts")
        nodes.append(
            _code(
                p,
                "api",
                "symbol",
                f"util{i:02d}",
                f"formatField{i:02d}",
                f"src/lib/helpers/util{i:02d}.ts",
                3,
                9,
            )
        )
    nodes += [_code(p, "api", "code_file", f, f, f, 1) for f in files]
    r, h, s = (
        f"{p}/api:route:POST /api/jp/contact",
        f"{p}/api:symbol:contactController.sendContactEmailJp",
        f"{p}/api:symbol:zendeskService.createTicket",
    )
    edges = [
        _e(
            f"{p}/web:symbol:ContactForm",
            f"{p}/web:http_call:contact-form.tsx:112",
            "CALLS_HTTP",
            p,
            "web",
            "src/components/contact-form.tsx",
            112,
        ),
        _e(
            f"{p}/web:symbol:ContactForm",
            f"{p}/web:env_var:NEXT_PUBLIC_CONTACT_API_URL",
            "READS_ENV",
            p,
            "web",
            "src/components/contact-form.tsx",
            110,
        ),
        _e(
            f"{p}/web:http_call:contact-form.tsx:112",
            r,
            "CALLS",
            p,
            None,
            via="NEXT_PUBLIC_CONTACT_API_URL",
            envs=["dev", "prod"],
        ),
        _e(
            r,
            f"{p}/api:middleware:rateLimit",
            "USES_MIDDLEWARE",
            p,
            "api",
            "src/routes/contact.ts",
            18,
            order=1,
        ),
        _e(
            r,
            f"{p}/api:middleware:validateContact",
            "USES_MIDDLEWARE",
            p,
            "api",
            "src/routes/contact.ts",
            18,
            order=2,
        ),
        _e(r, h, "ROUTES_TO", p, "api", "src/routes/contact.ts", 18),
        _e(
            f"{p}/api:route:GET /api/health",
            f"{p}/api:symbol:healthCheck",
            "ROUTES_TO",
            p,
            "api",
            "src/routes/index.ts",
            9,
        ),
        _e(h, s, "CALLS_FN", p, "api", "src/controllers/contact.ts", 52),
        _e(
            s,
            f"{p}/api:env_var:ZENDESK_API_TOKEN",
            "READS_ENV",
            p,
            "api",
            "src/services/zendesk.ts",
            5,
        ),
        _e(
            f"{p}/api:env_var:ZENDESK_API_TOKEN",
            f"{p}:secret:zendesk-api-token",
            "RESOLVES_TO",
            p,
            None,
        ),
        _e(
            f"{p}/web:code_file:src/components/contact-form.tsx",
            f"{p}/web:symbol:ContactForm",
            "DEFINES",
            p,
            "web",
            "src/components/contact-form.tsx",
            105,
        ),
    ]
    for i in range(FANOUT):
        edges.append(
            _e(
                h,
                f"{p}/api:symbol:util{i:02d}",
                "CALLS_FN",
                p,
                "api",
                "src/controllers/contact.ts",
                53 + i,
            )
        )
    for f in files:
        edges.append(_e(f"{p}:component:api", f"{p}/api:code_file:{f}", "HAS_CODE", p, None))
    edges.append(
        _e(
            f"{p}:component:web",
            f"{p}/web:code_file:src/components/contact-form.tsx",
            "HAS_CODE",
            p,
            None,
        )
    )
    unresolved = [
        Unresolved(
            p,
            "web",
            "src/components/contact-form.tsx",
            130,
            "http_call",
            "fetch(buildUrl(kind))",
            "dynamic URL",
        ),
        Unresolved(
            p,
            "api",
            "src/services/events.ts",
            8,
            "call",
            "handlers[name](payload)",
            "dynamic dispatch",
        ),
    ]
    return nodes, edges, unresolved


def _globex() -> tuple[list[Node], list[Edge], list[Unresolved]]:
    p = "globex-portal"
    nodes = [
        _code(
            p,
            "api",
            "route",
            f"GET /internal/{PLANT.lower()}-only",
            f"GET /internal/{PLANT.lower()}-only",
            "src/routes/internal.ts",
            11,
        ),
        _code(
            p,
            "api",
            "symbol",
            f"GlobexSecretSauce{PLANT}",
            f"GlobexSecretSauce{PLANT}",
            "src/secret/sauce.ts",
            3,
            30,
            exported=True,
        ),
        _code(
            p,
            "api",
            "env_var",
            f"GLOBEX_{PLANT.upper()}_KEY",
            f"GLOBEX_{PLANT.upper()}_KEY",
            "src/secret/sauce.ts",
            4,
        ),
        _code(p, "web", "symbol", "ContactForm", "ContactForm", "app/contact/form.tsx", 8, 40),
        _code(
            p,
            "api",
            "code_file",
            "src/secret/sauce.ts",
            "src/secret/sauce.ts",
            "src/secret/sauce.ts",
            1,
        ),
    ]
    edges = [
        _e(nodes[0].id, nodes[1].id, "ROUTES_TO", p, "api", "src/routes/internal.ts", 11),
        _e(nodes[1].id, nodes[2].id, "READS_ENV", p, "api", "src/secret/sauce.ts", 4),
    ]
    unresolved = [
        Unresolved(
            p,
            "api",
            "src/secret/sauce.ts",
            20,
            "http_call",
            f"axios.get({PLANT}Url)",
            "dynamic URL",
        )
    ]
    return nodes, edges, unresolved


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
        edges.append(_e(f"{p}:project:{p}", cid, "HAS_COMPONENT", p, None, cdoc, 2))
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
            edges.append(_e(cid, eid, "HAS_ENV", p, None, cdoc, 10))
            edges.append(_e(eid, rt.id, "RUNS_ON", p, None, cdoc, 11))
        edges.append(
            _e(
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
    an, ae, au = _acme()
    gn, ge, gu = _globex()
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
        _e(
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
