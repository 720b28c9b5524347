"""A small shipping portfolio with `setting` nodes, published with `warehouse.publish`.

tidewater: an `api` (package.json engines, an app mount `/v2`, a route whose validator
usage is written on its USES_MIDDLEWARE edge, a cookie), a `web` (a Hosting rewrite to
the Cloud Run service, a hard-coded API base URL constant, SDK-implied hosts) and an
`infra` (Terraform variable defaults: region, service name; a Cloud Run resource; a test
fixture also named `region`). No env var anywhere. skerry: another project deploying to
the same region, with a planted string that must never appear in a tidewater answer.
"""

from __future__ import annotations

from pathlib import Path

from mcp_synthetic_code import code_node, edge

from extractors.facts import Edge, Node
from warehouse.publish import publish
from warehouse.tables import frame

T, S = "tidewater", "skerry"
PLANT = "Sk3rryOnly"
ROUTE_ID = f"{T}/api:route:src/routes/ships.js:10"  # an id that does not carry the name


def setting(
    p: str, c: str, file: str, line: int, name: str, value: str, about: str, source: str, **more
) -> Node:  # noqa: E501
    return code_node(p, c, "setting", f"{file}:{line}:{name}", name, file, line,
                     value=value, about=about, source=source, **more)  # fmt: skip


def _file(p: str, c: str, rel: str) -> Node:
    return code_node(p, c, "code_file", rel, rel, rel, 1)


def _declares(s: Node) -> Edge:
    return edge(f"{s.project}/{s.component}:code_file:{s.file}", s.id, "DECLARES",
                s.project, s.component, s.file, s.line)  # fmt: skip


def _api() -> tuple[list[Node], list[Edge]]:
    c = "api"
    settings = [
        setting(T, c, "package.json", 5, "node", ">=18.12", "Node.js version", "package.json"),
        setting(T, c, "src/app.js", 12, "app.use", "/v2", "API version prefix (app mount)", "express"),
        setting(T, c, "docker-compose.yml", 7, "image", "postgres:15.3", "database image", "compose"),
    ]  # fmt: skip
    nodes = [
        _file(T, c, "package.json"),
        _file(T, c, "src/app.js"),
        _file(T, c, "src/routes/ships.js"),
        *settings,
        code_node(T, c, "route", "src/routes/ships.js:10", "GET /v2/ships", "src/routes/ships.js", 10),
        code_node(T, c, "symbol", "listShips", "listShips", "src/handlers/ships.js", 4, 20),
        code_node(T, c, "middleware", "validate", "validate", "src/middleware/validate.js", 3),
        code_node(T, c, "cookie", "__sid", "__sid", "src/session.js", 12, about="session cookie"),
        code_node(T, c, "symbol", "readSession", "readSession", "src/session.js", 10, 18),
    ]  # fmt: skip
    edges = [_declares(s) for s in settings if s.file != "docker-compose.yml"] + [
        edge(ROUTE_ID, f"{T}/{c}:symbol:listShips", "ROUTES_TO", T, c, "src/routes/ships.js", 10),
        edge(ROUTE_ID, f"{T}/{c}:middleware:validate", "USES_MIDDLEWARE", T, c,
             "src/routes/ships.js", 10, order=1, text="validate(shipRules.list)"),
        edge(f"{T}/{c}:symbol:readSession", f"{T}/{c}:cookie:__sid", "READS_COOKIE", T, c,
             "src/session.js", 12),
    ]  # fmt: skip
    return nodes, edges


def _web() -> tuple[list[Node], list[Edge]]:
    c = "web"
    settings = [
        setting(T, c, "firebase.json", 9, "rewrites", "/api/** -> run:harbor-api (europe-west1)",
                "Firebase Hosting rewrite to Cloud Run", "firebase.json", refers_to="harbor-api"),
        setting(T, c, "src/api.js", 3, "API_URL", "https://api.tidewater.example/v2",
                "API base URL constant (hard-coded)", "code"),
        setting(T, c, "rollup.config.mjs", 44, "__api_base__", "/api",
                "build-time constant", "rollup replace", refers_to="SHIP_API"),
    ]  # fmt: skip
    nodes = [_file(T, c, "firebase.json"), _file(T, c, "src/api.js"), *settings,
             code_node(T, c, "env_var", "SHIP_API", "SHIP_API", ".env", 1),
             code_node(T, c, "sdk_call", "src/db.js:9", "Firestore getDoc ships", "src/db.js", 9,
                       about="SDK call to a managed backend, not an HTTP call"),
             code_node(T, c, "symbol", "src/api.js#apiClient", "apiClient", "src/api.js", 2, 8)]  # fmt: skip
    return nodes, [_declares(s) for s in settings]


def _infra() -> tuple[list[Node], list[Edge]]:
    c = "infra"
    settings = [
        setting(T, c, "terraform/variables.tf", 8, "region", "europe-west1", "default region", "terraform"),
        setting(T, c, "terraform/variables.tf", 20, "service_name", "harbor-api",
                "Cloud Run service name default", "terraform"),
        setting(T, c, "terraform/service.tf", 37, "startup_probe.path", "/v2/ships",
                "Cloud Run startup probe", "terraform"),
    ]  # fmt: skip
    nodes = [
        _file(T, c, "terraform/variables.tf"),
        *settings,
        code_node(T, c, "tf_resource", "google_cloud_run_v2_service.harbor", "google_cloud_run_v2_service.harbor-api",
                  "terraform/service.tf", 1, 40, name_attr="var.service_name"),
        code_node(T, c, "symbol", "test/conftest.py#region", "region", "test/conftest.py", 4, 6),
    ]  # fmt: skip
    return nodes, [_declares(s) for s in settings]


def _knowledge() -> tuple[list[Node], list[Edge]]:
    nodes = [
        Node(f"{T}:project:{T}", "project", "Tidewater", T, None, f"projects/{T}/project.md", 1)
    ]
    edges = []
    for c in ("api", "web", "infra"):
        cid = f"{T}:component:{c}"
        nodes.append(Node(cid, "component", c, T, None, f"projects/{T}/components/{c}.md", 2,
                          None, {"stack": ["express"] if c == "api" else []}))  # fmt: skip
        edges.append(edge(f"{T}:project:{T}", cid, "HAS_COMPONENT", T, None))
    nodes.append(
        Node(f"{S}:project:{S}", "project", "Skerry", S, None, f"projects/{S}/project.md", 1)
    )
    nodes.append(Node(f"{S}:component:ops", "component", "ops", S, None, f"projects/{S}/ops.md", 2))
    return nodes, edges


HOSTS = [  # catalog_hosts: one written in code, one an SDK reaches by itself
    {"project": T, "component": "web", "name": "api.tidewater.example", "file": "src/api.js",
     "line": 3, "attrs": {}},
    {"project": T, "component": "api", "name": "firestore.googleapis.com", "file": "src/db.js",
     "line": 2, "attrs": {"sdk": "firebase/firestore"}},
]  # fmt: skip


def build(tmp: Path) -> dict[str, Path]:
    kb = tmp / "kb"
    kb.mkdir(parents=True, exist_ok=True)
    (kb / "kb.yaml").write_text("name: settings\n", encoding="utf-8")
    nodes, edges = [], []
    for part in (_api, _web, _infra):
        n, e = part()
        nodes += n
        edges += e
    kn, ke = _knowledge()
    skerry = [
        setting(S, "ops", "main.tf", 3, "region", "europe-west1", "default region", "terraform"),
        code_node(S, "ops", "symbol", PLANT, PLANT, "src/x.js", 1),
    ]
    partitions = {
        T: {"nodes": frame("nodes", nodes), "edges": frame("edges", edges),
            "unresolved": frame("unresolved", [])},
        S: {"nodes": frame("nodes", skerry), "edges": frame("edges", []),
            "unresolved": frame("unresolved", [])},
        "_global": {"nodes": frame("nodes", kn), "edges": frame("edges", ke),
                    "catalog_hosts": frame("catalog_hosts", HOSTS)},
    }  # fmt: skip
    data = tmp / "data"
    publish(data, partitions, {"components": {}})
    return {"kb": kb, "data": data}
