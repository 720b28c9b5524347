"""A small portfolio for the relationship answers, published with `warehouse.publish`.

orbit: a `gateway` BFF (30 routes over six resources, helmet and cors on every route, a
`requireAuth` guard on the writes, a JWT middleware built inline in two registrations)
calling five backends (`users`, `billing`, `search`, `media`, `notify`); `users` serves
`POST /{API_PREFIX}/v1/auth/{provider}/login`, its prefix unresolved; `notify` registers
one handler under two paths. The `web` frontend calls the gateway from a Vue Options-API
method (`Books.addBook`) and a React class-field handler (`TodoApp.handleAddTodo`),
through a wrapper and `VITE_GATEWAY_URL` (a value per env file); one login call's base is
unresolved. `infra` holds Terraform resources and variables. A function `formatPrice`
lives in two components; a symbol is named like the `search` component.
delta: another project serving `POST /api/users`, with a planted string that must never
appear in an orbit answer.

The UI handler symbols are shaped as the extraction emits them (`Component.method`,
`symbol_kind: method`); tests/mcp/test_answers_from_code.py traces them from source.
"""

from __future__ import annotations

from pathlib import Path

from mcp_synthetic_code import code_node, edge

from extractors.facts import Edge, Node, Unresolved
from warehouse.catalog import routes_of
from warehouse.publish import publish
from warehouse.tables import frame

ORBIT, DELTA = "orbit", "delta"
PLANT = "Dq9Planted"
RESOURCES = ["books", "todos", "profiles", "invoices", "payments", "uploads"]
VERBS = [("GET", "", "list"), ("POST", "", "create"), ("GET", "/:id", "show"),
         ("PUT", "/:id", "update"), ("DELETE", "/:id", "remove")]  # fmt: skip
BACKENDS = [  # (component, method, path, handler, client file)
    ("users", "GET", "/v1/users/:id", "usersController.show", "src/clients/users.ts"),
    ("billing", "POST", "/charges", "chargesController.create", "src/clients/billing.ts"),
    ("search", "GET", "/query", "searchController.query", "src/clients/search.ts"),
    ("media", "POST", "/uploads", "uploadsController.create", "src/clients/media.ts"),
    ("notify", "POST", "/messages", "messagesController.send", "src/clients/notify.ts"),
]
LOGIN = "POST /{API_PREFIX}/v1/auth/{provider}/login"


def _gateway() -> tuple[list[Node], list[Edge]]:
    c = "gateway"
    nodes = [
        code_node(ORBIT, c, "middleware", "helmet", "helmet", "src/app.ts", 10, package="helmet"),
        code_node(ORBIT, c, "middleware", "cors", "cors", "src/app.ts", 11, package="cors"),
        code_node(ORBIT, c, "symbol", "requireAuth", "requireAuth", "src/guards/auth.ts", 3, 14),
        code_node(
            ORBIT,
            c,
            "middleware",
            "requireAuth",
            "requireAuth",
            "src/guards/auth.ts",
            3,
            symbol=f"{ORBIT}/{c}:symbol:requireAuth",
        ),  # fmt: skip
        code_node(ORBIT, c, "env_var", "JWT_SECRET", "JWT_SECRET", ".env.example", 2),
    ]
    edges: list[Edge] = []
    for i, res in enumerate(RESOURCES):
        rf, hf = f"src/routes/{res}.ts", f"src/controllers/{res}.ts"
        for j, (method, tail, verb) in enumerate(VERBS):
            line, hline = 5 + j, 10 + 12 * j
            rid = f"{ORBIT}/{c}:route:{method} /{res}{tail}"
            hid = f"{ORBIT}/{c}:symbol:{res}Controller.{verb}"
            nodes += [
                code_node(ORBIT, c, "route", f"{method} /{res}{tail}", f"{method} /{res}{tail}", rf, line,
                          method=method, path=f"/{res}{tail}", mounts=["src/app.ts:20"]),  # fmt: skip
                code_node(ORBIT, c, "symbol", f"{res}Controller.{verb}", f"{res}Controller.{verb}", hf, hline, hline + 9),
            ]  # fmt: skip
            edges += [
                edge(rid, hid, "ROUTES_TO", ORBIT, c, rf, line),
                edge(rid, f"{ORBIT}/{c}:middleware:helmet", "USES_MIDDLEWARE", ORBIT, c, "src/app.ts", 10, order=1),
                edge(rid, f"{ORBIT}/{c}:middleware:cors", "USES_MIDDLEWARE", ORBIT, c, "src/app.ts", 11, order=2),
            ]  # fmt: skip
            if method != "GET":
                edges.append(edge(rid, f"{ORBIT}/{c}:middleware:requireAuth", "USES_MIDDLEWARE", ORBIT, c, rf, line,
                                  order=3, expr="requireAuth"))  # fmt: skip
        if i < len(BACKENDS):  # each of the first five resources calls one backend
            comp, method, path, handler, cf = BACKENDS[i]
            env = f"{comp.upper()}_URL"
            call = code_node(ORBIT, c, "http_call", f"{comp}@{cf}:8", f"{method} {{{env}}}{path}", cf, 8,
                             method=method, path=path, env_var=env, client="fetch")  # fmt: skip
            nodes.append(call)
            edges += [
                edge(f"{ORBIT}/{c}:symbol:{res}Controller.create", call.id, "CALLS_HTTP", ORBIT, c, cf, 8),
                edge(call.id, f"{ORBIT}/{comp}:route:{method} {path}", "CALLS", ORBIT, None, cf, 8, via=env, envs=["dev", "prod"],
                     **({"confidence": "medium", "match": "param", "resolution": f"KB calls[0] env_var {env}",
                         "evidence": [f"{env} = http://users:8080", {"kind": "compose service", "file": "compose.yaml", "line": 12}]}
                        if comp == "users" else {"dead_code": True} if comp == "search" else {})),
            ]  # fmt: skip
    for line in (5, 6):  # jwt({secret: process.env.JWT_SECRET}) written in two registrations
        mid = f"{ORBIT}/{c}:middleware:jwt@src/routes/books.ts:{line}"
        nodes.append(
            code_node(
                ORBIT,
                c,
                "middleware",
                f"jwt@src/routes/books.ts:{line}",
                "jwt",
                "src/routes/books.ts",
                line,
            )
        )
        edges.append(
            edge(
                mid,
                f"{ORBIT}/{c}:env_var:JWT_SECRET",
                "READS_ENV",
                ORBIT,
                c,
                "src/routes/books.ts",
                line,
            )
        )
        method, tail, _ = VERBS[line - 5]  # the route registered on that line gets it
        route = f"{ORBIT}/{c}:route:{method} /books{tail}"
        edges.append(
            edge(route, mid, "USES_MIDDLEWARE", ORBIT, c, "src/routes/books.ts", line, order=4)
        )
    nodes.append(
        code_node(ORBIT, c, "symbol", "signToken", "signToken", "src/auth/tokens.ts", 4, 9)
    )
    edges.append(
        edge(
            f"{ORBIT}/{c}:symbol:signToken",
            f"{ORBIT}/{c}:env_var:JWT_SECRET",
            "READS_ENV",
            ORBIT,
            c,
            "src/auth/tokens.ts",
            5,
        )
    )
    return nodes, edges


def _backends() -> tuple[list[Node], list[Edge]]:
    nodes, edges = [], []
    for comp, method, path, handler, _ in BACKENDS:
        rf = f"src/routes/{comp}.ts"
        rid, hid = f"{ORBIT}/{comp}:route:{method} {path}", f"{ORBIT}/{comp}:symbol:{handler}"
        nodes += [
            code_node(ORBIT, comp, "route", f"{method} {path}", f"{method} {path}", rf, 4, method=method, path=path),
            code_node(ORBIT, comp, "symbol", handler, handler, f"src/controllers/{comp}.ts", 6, 30),
        ]  # fmt: skip
        edges.append(edge(rid, hid, "ROUTES_TO", ORBIT, comp, rf, 4))
    dup = f"{ORBIT}/billing:route:POST /charges@src/routes/billing.ts:4"  # one registration, emitted twice
    nodes.append(code_node(ORBIT, "billing", "route", "POST /charges@src/routes/billing.ts:4", "POST /charges",
                           "src/routes/billing.ts", 4, method="POST", path="/charges"))  # fmt: skip
    edges.append(
        edge(
            dup,
            f"{ORBIT}/billing:symbol:chargesController.create",
            "ROUTES_TO",
            ORBIT,
            "billing",
            "src/routes/billing.ts",
            4,
        )
    )
    nodes += [
        code_node(ORBIT, "users", "route", LOGIN, LOGIN, "src/routes/auth.ts", 12, 19, method="POST",
                  path="/{API_PREFIX}/v1/auth/{provider}/login", mounts=["src/main.ts:7"],
                  segments=[{"kind": "hole", "text": "API_PREFIX", "source": "env"}, {"kind": "lit", "text": "v1"},
                            {"kind": "lit", "text": "auth"}, {"kind": "param", "text": "provider", "raw": "{provider}"},
                            {"kind": "lit", "text": "login"}],
                  holes=[{"name": "API_PREFIX", "source": "env"}]),  # fmt: skip
        code_node(ORBIT, "users", "symbol", "authController.login", "authController.login", "src/routes/auth.ts", 14, 19),
        code_node(ORBIT, "users", "env_var", "API_PREFIX", "API_PREFIX", "src/main.ts", 7),
        code_node(ORBIT, "users", "setting", "src/main.ts:7:prefix", "setGlobalPrefix", "src/main.ts", 7,
                  value="{API_PREFIX}", about="global route prefix"),  # fmt: skip
        code_node(ORBIT, "search", "symbol", "search", "search", "src/lib/search.ts", 3, 8),
        code_node(ORBIT, "billing", "symbol", "billing#formatPrice", "formatPrice", "src/money.ts", 2, 6),
        code_node(ORBIT, "notify", "route", "GET /api/messages", "GET /api/messages", "src/routes/notify.ts", 9, method="GET"),
        code_node(ORBIT, "notify", "route", "GET /api/api/messages", "GET /api/api/messages", "src/routes/notify.ts", 9, method="GET"),
        code_node(ORBIT, "notify", "symbol", "messagesController.list", "messagesController.list", "src/controllers/notify.ts", 40, 52),
    ]  # fmt: skip
    edges += [
        edge(f"{ORBIT}/users:route:{LOGIN}", f"{ORBIT}/users:symbol:authController.login", "ROUTES_TO", ORBIT, "users", "src/routes/auth.ts", 12),
        edge(f"{ORBIT}/notify:route:GET /api/messages", f"{ORBIT}/notify:symbol:messagesController.list", "ROUTES_TO", ORBIT, "notify", "src/routes/notify.ts", 9),
        edge(f"{ORBIT}/notify:route:GET /api/api/messages", f"{ORBIT}/notify:symbol:messagesController.list", "ROUTES_TO", ORBIT, "notify", "src/routes/notify.ts", 9),
    ]  # fmt: skip
    return nodes, edges


def _web() -> tuple[list[Node], list[Edge], list[Unresolved]]:
    c = "web"
    env = code_node(ORBIT, c, "env_var", "VITE_GATEWAY_URL", "VITE_GATEWAY_URL", ".env.development", 1,
                    values={".env.development": "http://localhost:8080", ".env.production": "https://gw.orbit.example"})  # fmt: skip
    wrapper = code_node(ORBIT, c, "symbol", "http.post", "http.post", "src/lib/http.ts", 10, 14)
    nodes = [
        env,
        wrapper,
        code_node(
            ORBIT,
            c,
            "symbol",
            "Books",
            "Books",
            "src/components/Books.vue",
            1,
            40,
            symbol_kind="component",
            framework="vue",
        ),
        code_node(
            ORBIT,
            c,
            "symbol",
            "Books.addBook",
            "Books.addBook",
            "src/components/Books.vue",
            21,
            24,
            symbol_kind="method",
            framework="vue",
            ui_handler=True,
            event="submit",
        ),  # fmt: skip
        code_node(
            ORBIT,
            c,
            "symbol",
            "TodoApp",
            "TodoApp",
            "src/components/TodoApp.jsx",
            3,
            30,
            symbol_kind="class",
        ),
        code_node(
            ORBIT,
            c,
            "symbol",
            "TodoApp.handleAddTodo",
            "TodoApp.handleAddTodo",
            "src/components/TodoApp.jsx",
            4,
            8,
            symbol_kind="method",
            ui_handler=True,
            event="submit",
        ),  # fmt: skip
        code_node(ORBIT, c, "symbol", "web#formatPrice", "formatPrice", "src/lib/price.ts", 1, 4),
        code_node(
            ORBIT,
            c,
            "symbol",
            "LoginButton.signIn",
            "LoginButton.signIn",
            "src/components/LoginButton.vue",
            12,
            16,
        ),
    ]
    edges = [
        edge(
            f"{ORBIT}/{c}:code_file:.env.development",
            env.id,
            "DECLARES",
            ORBIT,
            c,
            ".env.development",
            1,
        ),
        edge(
            f"{ORBIT}/{c}:code_file:.env.production",
            env.id,
            "DECLARES",
            ORBIT,
            c,
            ".env.production",
            1,
        ),
    ]
    for sym, line, path, route in (
        ("Books.addBook", 22, "/books", "POST /books"),
        ("TodoApp.handleAddTodo", 6, "/todos", "POST /todos"),
    ):
        file = str(next(n.file for n in nodes if n.name == sym))
        call = code_node(ORBIT, c, "http_call", f"{path}@{file}:{line}", f"POST {{VITE_GATEWAY_URL}}{path}", file, line,
                         method="POST", path=path, env_var="VITE_GATEWAY_URL", client="axios",
                         wrapper=wrapper.id, hops=["src/lib/http.ts:12"])  # fmt: skip
        nodes.append(call)
        edges += [
            edge(f"{ORBIT}/{c}:symbol:{sym}", call.id, "CALLS_HTTP", ORBIT, c, file, line),
            edge(call.id, f"{ORBIT}/gateway:route:{route}", "CALLS", ORBIT, None, file, line, via="VITE_GATEWAY_URL", envs=["dev", "prod"]),
        ]  # fmt: skip
    login = code_node(ORBIT, c, "http_call", "login@src/components/LoginButton.vue:14", "POST {AUTH_URL}/v1/auth/{provider}/login",
                      "src/components/LoginButton.vue", 14, method="POST", path="/v1/auth/{provider}/login", env_var="AUTH_URL")  # fmt: skip
    nodes.append(login)
    edges.append(
        edge(
            f"{ORBIT}/{c}:symbol:LoginButton.signIn",
            login.id,
            "CALLS_HTTP",
            ORBIT,
            c,
            "src/components/LoginButton.vue",
            14,
        )
    )
    unresolved = [
        Unresolved(
            ORBIT,
            c,
            "src/components/LoginButton.vue",
            14,
            "http_call",
            "`${AUTH_URL}/v1/auth/${provider}/login`",
            "base AUTH_URL is set nowhere in the repo",
        ),  # fmt: skip
        Unresolved(
            ORBIT,
            c,
            "src/lib/track.ts",
            7,
            "http_call",
            "fetch(endpoints[kind])",
            "dynamic URL: computed key",
        ),
    ]
    return nodes, edges, unresolved


def _infra() -> list[Node]:
    c = "infra"
    return [
        code_node(ORBIT, c, "tf_resource", "google_cloud_run_v2_service.gateway", "google_cloud_run_v2_service.gateway",
                  "main.tf", 1, 30, block="resource"),  # fmt: skip
        code_node(ORBIT, c, "tf_resource", "google_storage_bucket.media", "google_storage_bucket.media", "main.tf", 32, 40, block="resource"),
        code_node(ORBIT, c, "tf_resource", "var.region", "var.region", "variables.tf", 1, 4, block="variable", default="europe-west1"),
        code_node(ORBIT, c, "tf_resource", "var.project_id", "var.project_id", "variables.tf", 6, 8, block="variable"),
    ]  # fmt: skip


def _knowledge(p: str, comps: dict[str, str]) -> tuple[list[Node], list[Edge]]:
    nodes = [Node(f"{p}:project:{p}", "project", p.title(), p, None, f"projects/{p}/project.md", 1)]
    edges = []
    for comp, role in comps.items():
        cid, doc = f"{p}:component:{comp}", f"projects/{p}/{comp}/component.md"
        nodes.append(Node(cid, "component", comp, p, None, doc, 2, None, {"role": role}))
        edges.append(edge(f"{p}:project:{p}", cid, "HAS_COMPONENT", p, None, doc, 2))
        eid = f"{p}:env_instance:{comp}/prod"
        nodes.append(Node(eid, "env_instance", f"{comp} prod", p, None, doc, 9, None,
                          {"env": "prod", "component": comp, "runtime": "cloud-run"}))  # fmt: skip
        edges.append(edge(cid, eid, "HAS_ENV", p, None, doc, 9))
    return nodes, edges


def build(tmp: Path) -> dict[str, Path]:
    kb = tmp / "kb"
    kb.mkdir(parents=True, exist_ok=True)
    (kb / "kb.yaml").write_text("name: relations\n", encoding="utf-8")
    gn, ge = _gateway()
    bn, be = _backends()
    wn, we, wu = _web()
    orbit_nodes = gn + bn + wn + _infra()
    files = sorted({(n.component, n.file) for n in orbit_nodes if n.component and n.file})
    orbit_nodes += [
        code_node(ORBIT, c, "code_file", f, f, f, 1, 60)
        for c, f in files + [("web", ".env.production")]
    ]
    roles = {
        "gateway": "api",
        "web": "frontend",
        "infra": "infra",
        **{b[0]: "api" for b in BACKENDS},
    }
    kn, ke = _knowledge(ORBIT, roles)
    dn, de = _knowledge(DELTA, {"api": "api", "portal": "frontend"})
    delta_nodes = [
        code_node(DELTA, "api", "route", "POST /api/users", "POST /api/users", f"src/{PLANT}.ts", 3, method="POST", path="/api/users"),
    ]  # fmt: skip
    orbit = {
        "nodes": frame("nodes", orbit_nodes),
        "edges": frame("edges", ge + be + we),
        "unresolved": frame("unresolved", wu),
    }
    delta = {
        "nodes": frame("nodes", delta_nodes),
        "edges": frame("edges", []),
        "unresolved": frame("unresolved", []),
    }
    catalog_routes = routes_of(
        {f"{ORBIT}/all": {"nodes": orbit["nodes"]}, f"{DELTA}/api": {"nodes": delta["nodes"]}}
    )
    partitions = {
        ORBIT: orbit,
        DELTA: delta,
        "_global": {"nodes": frame("nodes", kn + dn), "edges": frame("edges", ke + de), "catalog_routes": catalog_routes},
    }  # fmt: skip
    data = tmp / "data"
    publish(data, partitions, {"components": {}})
    return {"kb": kb, "data": data}
