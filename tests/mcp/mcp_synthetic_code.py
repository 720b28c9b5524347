"""Code facts of the synthetic warehouse: the two projects' partitions.

acme-shop: the spec's contact-form chain plus a 60-way fan-out (for budget tests);
globex-portal: a planted unique string that must never leak into acme-shop answers.
"""

from __future__ import annotations

from typing import Any

from extractors.facts import Edge, Node, Unresolved

PLANT = "Xyzzy42"
FANOUT = 60


def code_node(
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


def edge(
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


def acme() -> tuple[list[Node], list[Edge], list[Unresolved]]:
    p = "acme-shop"
    nodes = [
        code_node(
            p,
            "web",
            "code_file",
            "src/components/contact-form.tsx",
            "src/components/contact-form.tsx",
            "src/components/contact-form.tsx",
            1,
        ),
        code_node(
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
        code_node(
            p,
            "web",
            "http_call",
            "contact-form.tsx:112",
            "POST {NEXT_PUBLIC_CONTACT_API_URL}jp/contact",
            "src/components/contact-form.tsx",
            112,
        ),
        code_node(
            p,
            "web",
            "env_var",
            "NEXT_PUBLIC_CONTACT_API_URL",
            "NEXT_PUBLIC_CONTACT_API_URL",
            "src/components/contact-form.tsx",
            110,
        ),
        code_node(
            p,
            "api",
            "route",
            "POST /api/jp/contact",
            "POST /api/jp/contact",
            "src/routes/contact.ts",
            18,
        ),
        code_node(
            p, "api", "route", "GET /api/health", "GET /api/health", "src/routes/index.ts", 9
        ),
        code_node(
            p, "api", "middleware", "rateLimit", "rateLimit", "src/middleware/rate-limit.ts", 7
        ),
        code_node(
            p,
            "api",
            "middleware",
            "validateContact",
            "validateContact",
            "src/validators/contact.ts",
            12,
        ),
        code_node(
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
        code_node(p, "api", "symbol", "healthCheck", "healthCheck", "src/routes/index.ts", 3, 6),
        code_node(
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
        code_node(
            p,
            "api",
            "env_var",
            "ZENDESK_API_TOKEN",
            "ZENDESK_API_TOKEN",
            "src/services/zendesk.ts",
            5,
        ),
        code_node(
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
            code_node(
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
    nodes += [code_node(p, "api", "code_file", f, f, f, 1) for f in files]
    r, h, s = (
        f"{p}/api:route:POST /api/jp/contact",
        f"{p}/api:symbol:contactController.sendContactEmailJp",
        f"{p}/api:symbol:zendeskService.createTicket",
    )
    edges = [
        edge(
            f"{p}/web:symbol:ContactForm",
            f"{p}/web:http_call:contact-form.tsx:112",
            "CALLS_HTTP",
            p,
            "web",
            "src/components/contact-form.tsx",
            112,
        ),
        edge(
            f"{p}/web:symbol:ContactForm",
            f"{p}/web:env_var:NEXT_PUBLIC_CONTACT_API_URL",
            "READS_ENV",
            p,
            "web",
            "src/components/contact-form.tsx",
            110,
        ),
        edge(
            f"{p}/web:http_call:contact-form.tsx:112",
            r,
            "CALLS",
            p,
            None,
            via="NEXT_PUBLIC_CONTACT_API_URL",
            envs=["dev", "prod"],
        ),
        edge(
            r,
            f"{p}/api:middleware:rateLimit",
            "USES_MIDDLEWARE",
            p,
            "api",
            "src/routes/contact.ts",
            18,
            order=1,
        ),
        edge(
            r,
            f"{p}/api:middleware:validateContact",
            "USES_MIDDLEWARE",
            p,
            "api",
            "src/routes/contact.ts",
            18,
            order=2,
        ),
        edge(r, h, "ROUTES_TO", p, "api", "src/routes/contact.ts", 18),
        edge(
            f"{p}/api:route:GET /api/health",
            f"{p}/api:symbol:healthCheck",
            "ROUTES_TO",
            p,
            "api",
            "src/routes/index.ts",
            9,
        ),
        edge(h, s, "CALLS_FN", p, "api", "src/controllers/contact.ts", 52),
        edge(
            s,
            f"{p}/api:env_var:ZENDESK_API_TOKEN",
            "READS_ENV",
            p,
            "api",
            "src/services/zendesk.ts",
            5,
        ),
        edge(
            f"{p}/api:env_var:ZENDESK_API_TOKEN",
            f"{p}:secret:zendesk-api-token",
            "RESOLVES_TO",
            p,
            None,
        ),
        edge(
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
            edge(
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
        edges.append(edge(f"{p}:component:api", f"{p}/api:code_file:{f}", "HAS_CODE", p, None))
    edges.append(
        edge(
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


def globex() -> tuple[list[Node], list[Edge], list[Unresolved]]:
    p = "globex-portal"
    nodes = [
        code_node(
            p,
            "api",
            "route",
            f"GET /internal/{PLANT.lower()}-only",
            f"GET /internal/{PLANT.lower()}-only",
            "src/routes/internal.ts",
            11,
        ),
        code_node(
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
        code_node(
            p,
            "api",
            "env_var",
            f"GLOBEX_{PLANT.upper()}_KEY",
            f"GLOBEX_{PLANT.upper()}_KEY",
            "src/secret/sauce.ts",
            4,
        ),
        code_node(p, "web", "symbol", "ContactForm", "ContactForm", "app/contact/form.tsx", 8, 40),
        code_node(
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
        edge(nodes[0].id, nodes[1].id, "ROUTES_TO", p, "api", "src/routes/internal.ts", 11),
        edge(nodes[1].id, nodes[2].id, "READS_ENV", p, "api", "src/secret/sauce.ts", 4),
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
