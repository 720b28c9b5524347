"""A small invoicing portfolio for the answer-shape tests, published with `warehouse.publish`.

harbor: a `portal` frontend whose invoice form posts through `{LEDGER_URL}` to the
`ledger` API; every ledger route passes an app-level `audit` middleware and a
`requireSession` guard that reads SESSION_SIGNING_KEY (which resolves to a secret); a
test file reads the same variable. quarry: another project with a component also named
`ledger` and a planted string that must never appear in a harbor answer.
"""

from __future__ import annotations

from pathlib import Path

from mcp_synthetic_code import code_node, edge

from extractors.facts import Edge, Node, Unresolved
from warehouse.publish import publish
from warehouse.tables import frame

H, Q = "harbor", "quarry"
PLANT = "Qz7Secret"
BATCH_UTIL = "src/v2/batches/util.ts"  # declares no route; its folder is POST /v2/batches's path
ROUTES = [  # (method, path, route line, handler, handler line, guard usage line)
    ("GET", "/v2/invoices", 11, "listInvoices", 8, 11),
    ("POST", "/v2/invoices", 12, "createInvoice", 20, 12),
    ("DELETE", "/v2/invoices/:id", 13, "voidInvoice", 40, 13),
]


def _ledger() -> tuple[list[Node], list[Edge]]:
    c, rf, hf = "ledger", "src/routes/invoices.ts", "src/handlers/invoices.ts"
    guard = code_node(
        H, c, "symbol", "requireSession", "requireSession", "src/guards/session.ts", 4, 15
    )
    nodes = [
        code_node(H, c, "code_file", rf, rf, rf, 1),
        code_node(H, c, "code_file", hf, hf, hf, 1),
        guard,
        code_node(H, c, "middleware", "requireSession", "requireSession", rf, 11, symbol=guard.id),
        code_node(H, c, "middleware", "audit", "audit", "src/app.ts", 7, package="auditlog"),
        code_node(
            H,
            c,
            "env_var",
            "SESSION_SIGNING_KEY",
            "SESSION_SIGNING_KEY",
            ".env.sample",
            3,
            declared_in=[".env.sample"],
        ),
        code_node(H, c, "symbol", "sessionTest", "sessionTest", "tests/session.test.ts", 5, 20),
        code_node(
            H,
            c,
            "symbol",
            "invoiceStore.insert",
            "invoiceStore.insert",
            "src/store/invoices.ts",
            30,
            44,
        ),
    ]
    edges = [
        edge(
            guard.id,
            f"{H}/{c}:env_var:SESSION_SIGNING_KEY",
            "READS_ENV",
            H,
            c,
            "src/guards/session.ts",
            6,
            via="process.env",
        ),
        edge(
            f"{H}/{c}:symbol:sessionTest",
            f"{H}/{c}:env_var:SESSION_SIGNING_KEY",
            "READS_ENV",
            H,
            c,
            "tests/session.test.ts",
            7,
            via="process.env",
        ),
        edge(
            f"{H}/{c}:env_var:SESSION_SIGNING_KEY",
            f"{H}:secret:session-key",
            "RESOLVES_TO",
            H,
            None,
        ),
        edge(f"{H}/{c}:code_file:{rf}", f"{H}/{c}:code_file:{hf}", "IMPORTS", H, c, rf, 2),
    ]
    for method, path, line, handler, hline, guard_line in ROUTES:
        rid, hid = f"{H}/{c}:route:{method} {path}", f"{H}/{c}:symbol:{handler}"
        nodes += [
            code_node(
                H,
                c,
                "route",
                f"{method} {path}",
                f"{method} {path}",
                rf,
                line,
                method=method,
                path=path,
            ),
            code_node(H, c, "symbol", handler, handler, hf, hline, hline + 15),
        ]
        edges += [
            edge(rid, hid, "ROUTES_TO", H, c, rf, line),
            edge(
                rid, f"{H}/{c}:middleware:audit", "USES_MIDDLEWARE", H, c, "src/app.ts", 7, order=1
            ),
            edge(
                rid,
                f"{H}/{c}:middleware:requireSession",
                "USES_MIDDLEWARE",
                H,
                c,
                rf,
                guard_line,
                order=2,
            ),
            edge(f"{H}/{c}:code_file:{hf}", hid, "DEFINES", H, c, hf, hline),
        ]
    edges.append(
        edge(
            f"{H}/{c}:symbol:createInvoice",
            f"{H}/{c}:symbol:invoiceStore.insert",
            "CALLS_FN",
            H,
            c,
            "src/handlers/invoices.ts",
            27,
        )
    )
    return nodes, edges


def _portal() -> tuple[list[Node], list[Edge], list[Unresolved]]:
    c, ff = "portal", "src/forms/invoice.tsx"
    call = code_node(
        H, c, "http_call", "invoice.tsx:31", "POST {LEDGER_URL}/v2/invoices", ff, 31, method="POST"
    )
    rates = code_node(
        H,
        c,
        "http_call",
        "rates.ts:5",
        "GET https://rates.example.net/today",
        "src/lib/rates.ts",
        5,
        base="https://rates.example.net",
    )
    nodes = [
        code_node(H, c, "code_file", ff, ff, ff, 1),
        code_node(
            H,
            c,
            "code_file",
            "src/pages/billing.tsx",
            "src/pages/billing.tsx",
            "src/pages/billing.tsx",
            1,
        ),
        code_node(H, c, "code_file", "src/lib/rates.ts", "src/lib/rates.ts", "src/lib/rates.ts", 1),
        code_node(H, c, "symbol", "InvoiceForm", "InvoiceForm", ff, 12, 60),
        code_node(H, c, "symbol", "todayRate", "todayRate", "src/lib/rates.ts", 3, 9),
        code_node(H, c, "symbol", "money#1", "formatAmount", "src/lib/money.ts", 2, 6),
        code_node(H, c, "symbol", "money#2", "formatAmount", "src/forms/total.tsx", 4, 9),
        call,
        rates,
    ]
    edges = [
        edge(f"{H}/{c}:code_file:{ff}", f"{H}/{c}:symbol:InvoiceForm", "DEFINES", H, c, ff, 12),
        edge(
            f"{H}/{c}:code_file:src/pages/billing.tsx",
            f"{H}/{c}:code_file:{ff}",
            "IMPORTS",
            H,
            c,
            "src/pages/billing.tsx",
            3,
        ),
        edge(f"{H}/{c}:symbol:InvoiceForm", call.id, "CALLS_HTTP", H, c, ff, 31),
        edge(f"{H}/{c}:symbol:todayRate", rates.id, "CALLS_HTTP", H, c, "src/lib/rates.ts", 5),
        edge(
            call.id,
            f"{H}/ledger:route:POST /v2/invoices",
            "CALLS",
            H,
            None,
            ff,
            31,
            via="LEDGER_URL",
            envs=["dev", "prod"],
        ),
    ]
    unresolved = [
        Unresolved(H, c, "src/forms/dyn.ts", 9, "http_call", "fetch(urlFor(kind))", "dynamic URL")
    ]
    return nodes, edges, unresolved


def _knowledge() -> tuple[list[Node], list[Edge]]:
    nodes = [Node(f"{H}:project:{H}", "project", "Harbor", H, None, f"projects/{H}/project.md", 1)]
    edges = []
    for c, stack in (("ledger", ["express"]), ("portal", ["react"])):
        cid = f"{H}:component:{c}"
        doc = f"projects/{H}/{c}/component.md"
        nodes.append(Node(cid, "component", c, H, None, doc, 2, None, {"stack": stack}))
        edges.append(edge(f"{H}:project:{H}", cid, "HAS_COMPONENT", H, None, doc, 2))
        eid = f"{H}:env_instance:{c}/prod"
        nodes.append(
            Node(
                eid,
                "env_instance",
                f"{c} prod",
                H,
                None,
                doc,
                9,
                None,
                {"env": "prod", "component": c, "runtime": "cloud-run"},
            )
        )
        edges.append(edge(cid, eid, "HAS_ENV", H, None, doc, 9))
        for i, pkg in enumerate([*stack, "lodash", "zod"]):
            edges.append(
                edge(
                    cid,
                    f"_global:package:{pkg}",
                    "USES_PACKAGE",
                    H,
                    c,
                    "package.json",
                    10 + i,
                    version="1.0.0",
                )
            )
    nodes += [
        Node(f"_global:package:{p}", "package", p, None, None)
        for p in ("express", "react", "lodash", "zod")
    ]
    secret = Node(
        f"{H}:secret:session-key",
        "secret",
        "session-key",
        H,
        None,
        f"projects/{H}/ledger/component.md",
        14,
        None,
        {"store": "secret-manager", "env_var": "SESSION_SIGNING_KEY"},
    )
    nodes.append(secret)
    edges.append(
        edge(
            f"{H}:component:ledger",
            secret.id,
            "USES_SECRET",
            H,
            None,
            f"projects/{H}/ledger/component.md",
            14,
        )
    )
    nodes.append(
        Node(
            f"{Q}:component:ledger",
            "component",
            "ledger",
            Q,
            None,
            f"projects/{Q}/ledger/component.md",
            2,
        )
    )
    return nodes, edges


def build(tmp: Path) -> dict[str, Path]:
    kb = tmp / "kb"
    kb.mkdir(parents=True, exist_ok=True)
    (kb / "kb.yaml").write_text("name: answers\n", encoding="utf-8")
    ln, le = _ledger()
    pn, pe, pu = _portal()
    kn, ke = _knowledge()
    qn = [
        code_node(
            Q,
            "ledger",
            "route",
            "GET /v2/invoices/:id",
            "GET /v2/invoices/:id",
            f"src/{PLANT}.ts",
            4,
        ),
        code_node(
            Q, "ledger", "symbol", "requireSession", "requireSession", f"src/{PLANT}.ts", 9, 12
        ),
        code_node(Q, "ledger", "route", "POST /v2/batches", "POST /v2/batches", "src/batch.ts", 6),
        code_node(Q, "ledger", "middleware", "rateLimit", "rateLimit", "src/batch.ts", 3),
        code_node(Q, "ledger", "code_file", BATCH_UTIL, BATCH_UTIL, BATCH_UTIL, 1),
        code_node(
            Q,
            "ledger",
            "symbol",
            "maxBatch",
            "maxBatch",
            "src/batch.ts",
            1,
            exported=True,
            symbol_kind="variable",
        ),
    ]
    qe = [  # quarry's other route gets a middleware that GET /v2/invoices/:id does not
        edge(
            f"{Q}/ledger:route:POST /v2/batches",
            f"{Q}/ledger:middleware:rateLimit",
            "USES_MIDDLEWARE",
            Q,
            "ledger",
            "src/batch.ts",
            5,
            order=1,
        )
    ]
    partitions = {
        H: {
            "nodes": frame("nodes", ln + pn),
            "edges": frame("edges", le + pe),
            "unresolved": frame("unresolved", pu),
        },
        Q: {
            "nodes": frame("nodes", qn),
            "edges": frame("edges", qe),
            "unresolved": frame("unresolved", []),
        },
        "_global": {"nodes": frame("nodes", kn), "edges": frame("edges", ke)},
    }
    data = tmp / "data"
    publish(data, partitions, {"components": {}})
    return {"kb": kb, "data": data}
