"""Warehouses for the viewer tests, published with the real `warehouse.publish`.

`publish_sample` writes a small two-project portfolio shaped like the bundled example
(knowledge layer in `_global`, code and bridges per project, an empty project) and
`publish_large` a synthetic 5,000-node / 10,000-edge partition for the scale test.
"""

from __future__ import annotations

import random
from pathlib import Path

from extractors.facts import Edge, Node
from warehouse.publish import publish
from warehouse.tables import frame

P = "acme-shop"


def _k(kind: str, q: str, name: str | None = None, project: str = P, **attrs) -> Node:
    return Node(f"{project}:{kind}:{q}", kind, name or q, project, None, attrs=attrs)


def _c(comp: str, kind: str, q: str, name: str, file: str, line: int, **attrs) -> Node:
    return Node(f"{P}/{comp}:{kind}:{q}", kind, name, P, comp, file, line, attrs=attrs)


def _e(src: Node, dst: Node, type_: str, comp: str | None = None, file=None, line=None, **attrs):
    return Edge(src.id, dst.id, type_, src.project or P, comp, file, line, attrs=attrs)


def sample_partitions() -> dict[str, dict[str, list]]:
    project = _k("project", P, runtime="cloud-run")
    web, api = _k("component", "web"), _k("component", "contact-api", stack="express")
    prod = _k("env_instance", "contact-api/prod", url="https://api.acme.example")
    runtime = _k("runtime", "cloud-run")
    secret = _k("secret", "ZENDESK_TOKEN", location="gcp-secret-manager", sha256_prefix="3fa1c2")
    adr = _k("adr", "0003", "Use Zendesk for contact tickets", status="accepted")
    globex = _k("project", "globex-portal", project="globex-portal")
    g_comp = _k("component", "portal", project="globex-portal")
    express = Node("_global:package:express", "package", "express", None, None)
    knowledge = [project, web, api, prod, runtime, secret, adr, globex, g_comp, express]
    k_edges = [
        _e(project, web, "HAS_COMPONENT"),
        _e(project, api, "HAS_COMPONENT"),
        _e(api, prod, "HAS_ENV"),
        _e(prod, runtime, "RUNS_ON"),
        _e(api, secret, "USES_SECRET"),
        _e(adr, api, "DECIDES"),
        _e(globex, g_comp, "HAS_COMPONENT"),
        _e(api, express, "USES_PACKAGE"),
    ]

    form_file = _c(
        "web",
        "code_file",
        "src/components/contact-form.tsx",
        "contact-form.tsx",
        "src/components/contact-form.tsx",
        1,
    )
    form = _c(
        "web",
        "symbol",
        "ContactForm",
        "ContactForm",
        "src/components/contact-form.tsx",
        105,
        exported=True,
    )
    call = _c(
        "web",
        "http_call",
        "contact-form.tsx:112",
        "POST {NEXT_PUBLIC_CONTACT_API_URL}jp/contact",
        "src/components/contact-form.tsx",
        112,
        method="POST",
    )
    route = _c(
        "contact-api",
        "route",
        "POST /api/jp/contact",
        "POST /api/jp/contact",
        "src/routes/contact.ts",
        18,
        method="POST",
        path="/api/jp/contact",
    )
    limit = _c(
        "contact-api", "middleware", "rateLimit", "rateLimit", "src/middleware/rate-limit.ts", 7
    )
    handler = _c(
        "contact-api",
        "symbol",
        "sendContactEmailJp",
        "contactController.sendContactEmailJp",
        "src/controllers/contact.ts",
        40,
    )
    zendesk = _c(
        "contact-api",
        "symbol",
        "createTicket",
        "zendeskService.createTicket",
        "src/services/zendesk.ts",
        22,
    )
    env = _c(
        "contact-api", "env_var", "ZENDESK_TOKEN", "ZENDESK_TOKEN", "src/services/zendesk.ts", 5
    )
    files = [
        _c("contact-api", "code_file", f"src/{name}", name, f"src/{name}", 1)
        for name in ("routes/contact.ts", "controllers/contact.ts", "services/zendesk.ts")
    ]
    code = [form_file, form, call, route, limit, handler, zendesk, env, *files]
    c_edges = [
        _e(form_file, form, "DEFINES", "web", "src/components/contact-form.tsx", 105),
        _e(form, call, "CALLS_HTTP", "web", "src/components/contact-form.tsx", 112),
        _e(
            call,
            route,
            "CALLS",
            None,
            "src/components/contact-form.tsx",
            112,
            via="NEXT_PUBLIC_CONTACT_API_URL",
            envs=["dev", "prod"],
        ),
        _e(route, limit, "USES_MIDDLEWARE", "contact-api", "src/routes/contact.ts", 18, order=1),
        _e(route, handler, "ROUTES_TO", "contact-api", "src/routes/contact.ts", 18),
        _e(handler, zendesk, "CALLS_FN", "contact-api", "src/controllers/contact.ts", 44),
        _e(zendesk, env, "READS_ENV", "contact-api", "src/services/zendesk.ts", 5),
        _e(env, secret, "RESOLVES_TO"),
        _e(web, form_file, "HAS_CODE"),
        _e(files[0], route, "DEFINES", "contact-api", "src/routes/contact.ts", 18),
        _e(files[1], handler, "DEFINES", "contact-api", "src/controllers/contact.ts", 40),
        _e(files[2], zendesk, "DEFINES", "contact-api", "src/services/zendesk.ts", 22),
        _e(files[0], files[1], "IMPORTS", "contact-api", "src/routes/contact.ts", 2),
        _e(files[1], files[2], "IMPORTS", "contact-api", "src/controllers/contact.ts", 3),
        *[_e(api, f, "HAS_CODE") for f in files],
    ]
    portal = Node(
        "globex-portal/portal:symbol:main",
        "symbol",
        "main",
        "globex-portal",
        "portal",
        "src/main.ts",
        3,
    )
    return {
        "_global": {"nodes": knowledge, "edges": k_edges},
        P: {"nodes": code, "edges": c_edges},
        "globex-portal": {"nodes": [portal], "edges": [_e(g_comp, portal, "HAS_CODE")]},
        "empty-proj": {"nodes": [], "edges": []},
    }


def publish_parts(data_dir: Path, parts: dict[str, dict[str, list]]) -> dict:
    return publish(
        data_dir,
        {
            name: {"nodes": frame("nodes", t["nodes"]), "edges": frame("edges", t["edges"])}
            for name, t in parts.items()
        },
    )


def publish_sample(data_dir: Path, large: bool = False) -> dict:
    parts = sample_partitions()
    if large:
        parts["bigco"] = large_partition()
    return publish_parts(data_dir, parts)


KINDS = ["code_file", "symbol", "symbol", "symbol", "route", "env_var", "http_call", "middleware"]
TYPES = ["CALLS_FN", "CALLS_FN", "IMPORTS", "DEFINES", "READS_ENV", "ROUTES_TO", "CALLS_HTTP"]


def large_partition(n_nodes: int = 5000, n_edges: int = 10000, seed: int = 7) -> dict:
    """A scale-free-ish graph: preferential attachment, so degree varies like real code."""
    rng = random.Random(seed)
    nodes = []
    for i in range(n_nodes):
        comp = f"svc{i % 12}"
        kind = KINDS[i % len(KINDS)]
        nodes.append(
            Node(
                f"bigco/{comp}:{kind}:n{i}",
                kind,
                f"{kind}_{i}",
                "bigco",
                comp,
                f"src/mod{i % 97}.ts",
                1 + i % 400,
            )
        )
    edges, seen, targets = [], set(), [0]
    for i in range(1, n_nodes):  # a spanning tree keeps it connected
        j = rng.choice(targets)
        seen.add((i, j))
        edges.append((i, j))
        targets.extend([i, j])
    while len(edges) < n_edges:
        i, j = rng.randrange(n_nodes), rng.choice(targets)
        if i != j and (i, j) not in seen:
            seen.add((i, j))
            edges.append((i, j))
            targets.append(j)
    return {
        "nodes": nodes,
        "edges": [
            Edge(
                nodes[i].id,
                nodes[j].id,
                TYPES[(i + j) % len(TYPES)],
                "bigco",
                nodes[i].component,
                nodes[i].file,
                nodes[i].line,
            )
            for i, j in edges
        ],
    }
