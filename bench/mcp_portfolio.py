"""A generated portfolio for bench/mcp.py when the real scale portfolio can't be fetched.

13 projects × 4 components (~52 components, ~50k nodes) published with
`warehouse.publish`, with a web → api HTTP chain, middleware, env vars, unresolved
calls, catalog rows and doc chunks in every project.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

PROJECTS, COMPONENTS = 13, ("web", "api", "infra", "cms")
FILES, SYMBOLS, ROUTES = 160, 720, 60


def generate(tmp: Path) -> dict[str, Any]:
    """Publish the synthetic scale portfolio; returns kb/data paths and sample names."""
    from warehouse.publish import publish
    from warehouse.tables import frame

    rnd = random.Random(7)
    kb, repos, data = tmp / "kb", tmp / "repos", tmp / "data"
    kb.mkdir(parents=True)
    (kb / "kb.yaml").write_text("name: bench\ntoken_budget: 2000\n", encoding="utf-8")
    partitions: dict[str, dict[str, Any]] = {}
    gnodes: list[dict] = []
    gedges: list[dict] = []
    packages: list[dict] = []
    chunks: list[dict] = []
    components: dict[str, dict[str, str]] = {}
    for pi in range(PROJECTS):
        p = f"proj-{pi:02d}"
        nodes: list[dict] = []
        edges: list[dict] = []
        unresolved: list[dict] = []
        gnodes.append(
            {
                "id": f"{p}:project:{p}",
                "kind": "project",
                "name": p,
                "project": p,
                "file": f"projects/{p}/project.md",
                "line": 1,
            }
        )
        for c in COMPONENTS:
            folder = repos / p / c
            folder.mkdir(parents=True)
            (folder / "README.md").write_text(f"# {p} {c}\n", encoding="utf-8")
            components[f"{p}/{c}"] = {"version": "", "repo": str(folder)}
            cid = f"{p}:component:{c}"
            gnodes.append(
                {
                    "id": cid,
                    "kind": "component",
                    "name": c,
                    "project": p,
                    "file": f"projects/{p}/{c}.md",
                    "line": 2,
                    "attrs": {"stack": ["express" if c == "api" else "nextjs"]},
                }
            )
            gedges.append(
                {"src": f"{p}:project:{p}", "dst": cid, "type": "HAS_COMPONENT", "project": p}
            )
            for env in ("dev", "prod"):
                eid = f"{p}:env_instance:{c}/{env}"
                gnodes.append(
                    {
                        "id": eid,
                        "kind": "env_instance",
                        "name": f"{c} {env}",
                        "project": p,
                        "file": f"projects/{p}/{c}.md",
                        "line": 9,
                        "attrs": {
                            "env": env,
                            "component": c,
                            "runtime": rnd.choice(["cloud-run", "gke", "vercel"]),
                            "url": f"https://{c}.{env}.{p}.example",
                        },
                    }
                )
                gedges.append({"src": cid, "dst": eid, "type": "HAS_ENV", "project": p})
            for pkg in ("express", "next", "zod", "axios")[: 2 + pi % 3]:
                packages.append(
                    {
                        "project": p,
                        "component": c,
                        "ecosystem": "npm",
                        "package": pkg,
                        "name": pkg,
                        "version": f"4.{pi}.{rnd.randint(0, 9)}",
                        "declared": "^4.0.0",
                        "file": "package.json",
                        "line": 10 + len(pkg),
                    }
                )
            pre = f"{p}/{c}"
            for f in range(FILES):
                path = f"src/mod{f // 20}/file{f}.ts"
                nodes.append(
                    {
                        "id": f"{pre}:code_file:{path}",
                        "kind": "code_file",
                        "name": path,
                        "project": p,
                        "component": c,
                        "file": path,
                        "line": 1,
                    }
                )
                edges.append(
                    {"src": cid, "dst": f"{pre}:code_file:{path}", "type": "HAS_CODE", "project": p}
                )
            for s in range(SYMBOLS):
                path = f"src/mod{(s % FILES) // 20}/file{s % FILES}.ts"
                sid = f"{pre}:symbol:fn{s}"
                nodes.append(
                    {
                        "id": sid,
                        "kind": "symbol",
                        "name": f"{c}Fn{s}",
                        "project": p,
                        "component": c,
                        "file": path,
                        "line": 3 + s // FILES * 10,
                        "end_line": 9 + s // FILES * 10,
                    }
                )
                edges.append(
                    {
                        "src": f"{pre}:code_file:{path}",
                        "dst": sid,
                        "type": "DEFINES",
                        "project": p,
                        "component": c,
                    }
                )
                for t in rnd.sample(range(SYMBOLS), 2):
                    if t > s:
                        edges.append(
                            {
                                "src": sid,
                                "dst": f"{pre}:symbol:fn{t}",
                                "type": "CALLS_FN",
                                "project": p,
                                "component": c,
                                "file": path,
                                "line": 5,
                            }
                        )
            for e in range(30):
                nodes.append(
                    {
                        "id": f"{pre}:env_var:VAR_{e}",
                        "kind": "env_var",
                        "name": f"{c.upper()}_VAR_{e}",
                        "project": p,
                        "component": c,
                        "file": "src/config.ts",
                        "line": e + 1,
                    }
                )
                edges.append(
                    {
                        "src": f"{pre}:symbol:fn{e * 7}",
                        "dst": f"{pre}:env_var:VAR_{e}",
                        "type": "READS_ENV",
                        "project": p,
                        "component": c,
                    }
                )
            if c == "api":
                for r in range(ROUTES):
                    rid = f"{pre}:route:POST /api/r{r}"
                    nodes.append(
                        {
                            "id": rid,
                            "kind": "route",
                            "name": f"POST /api/r{r}",
                            "project": p,
                            "component": c,
                            "file": "src/routes.ts",
                            "line": r + 10,
                        }
                    )
                    edges.append(
                        {
                            "src": rid,
                            "dst": f"{pre}:symbol:fn{r * 3}",
                            "type": "ROUTES_TO",
                            "project": p,
                            "component": c,
                        }
                    )
                    for o in (1, 2):
                        edges.append(
                            {
                                "src": rid,
                                "dst": f"{pre}:middleware:mw{o}",
                                "type": "USES_MIDDLEWARE",
                                "project": p,
                                "component": c,
                                "attrs": {"order": o},
                            }
                        )
                for o in (1, 2):
                    nodes.append(
                        {
                            "id": f"{pre}:middleware:mw{o}",
                            "kind": "middleware",
                            "name": f"middleware{o}",
                            "project": p,
                            "component": c,
                            "file": "src/mw.ts",
                            "line": o,
                        }
                    )
            if c == "web":
                for h in range(40):
                    hid = f"{pre}:http_call:call{h}"
                    nodes.append(
                        {
                            "id": hid,
                            "kind": "http_call",
                            "name": f"POST {{API_URL}}/api/r{h}",
                            "project": p,
                            "component": c,
                            "file": "src/api.ts",
                            "line": h + 5,
                        }
                    )
                    edges.append(
                        {
                            "src": f"{pre}:symbol:fn{h * 5}",
                            "dst": hid,
                            "type": "CALLS_HTTP",
                            "project": p,
                            "component": c,
                        }
                    )
                    edges.append(
                        {
                            "src": hid,
                            "dst": f"{p}/api:route:POST /api/r{h}",
                            "type": "CALLS",
                            "project": p,
                            "attrs": {"via": "API_URL", "envs": ["dev", "prod"]},
                        }
                    )
            for u in range(10):
                unresolved.append(
                    {
                        "project": p,
                        "component": c,
                        "file": f"src/mod0/file{u}.ts",
                        "line": 7,
                        "kind": "http_call",
                        "expr": f"fetch(url{u})",
                        "reason": "dynamic URL",
                    }
                )
            for d in range(4):
                chunks.append(
                    {
                        "project": p,
                        "component": c,
                        "bucket": "repo",
                        "path": f"{c}/docs/guide{d}.md",
                        "heading_path": f"Guide {d} > Setup",
                        "start_line": 1,
                        "end_line": 20,
                        "tokens": 120,
                        "content_hash": f"{p}{c}{d}",
                        "text": f"# Guide {d}\nHow {c} of {p} handles contact forms, payments and deploys. "
                        * 6,
                        "title": f"{c} guide {d}",
                        "doc_type": "guide",
                        "verification_status": "verified",
                        "seq": d,
                        "mirrors": None,
                    }
                )
        partitions[p] = {
            "nodes": frame("nodes", nodes),
            "edges": frame("edges", edges),
            "unresolved": frame("unresolved", unresolved),
        }
    for pkg in ("express", "next", "zod", "axios"):
        gnodes.append({"id": f"_global:package:{pkg}", "kind": "package", "name": pkg})
    partitions["_global"] = {
        "nodes": frame("nodes", gnodes),
        "edges": frame("edges", gedges),
        "catalog_packages": frame("catalog_packages", packages),
        "doc_chunks": frame("doc_chunks", chunks),
    }
    from kb.versions import component_version

    for info in components.values():
        info["version"] = component_version(Path(info["repo"]))
    publish(data, partitions, {"components": components})
    total = sum(t["nodes"].height for t in partitions.values())
    return {
        "kb": kb,
        "data": data,
        "nodes": total,
        "components": len(components),
        "source": "generated (bench/mcp_portfolio.py)",
    }
