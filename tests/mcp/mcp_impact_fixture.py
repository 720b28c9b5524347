"""A small harbour portfolio for kb_impact's paths, published with `warehouse.publish`.

quayside: an `api` (an env var declared in .env.example and in a compose service; a
`TOKEN_KEY` constant read by a guard middleware and a signing service; a route guarded by
that middleware), a `web` (calls through an API base URL constant naming the host, calls
through a generated client whose host comes from `VITE_QUAY_HOST`, one of them in a test)
and an `infra` (a Terraform Secret Manager secret whose payload carries env vars; the
catalog secret `quay_settings` it stands for). skerry: another project with a planted
string that must never appear in a quayside answer.
"""

from __future__ import annotations

from pathlib import Path

from mcp_synthetic_code import code_node, edge

from extractors.facts import Edge, Node
from warehouse.publish import publish
from warehouse.tables import frame

Q, S = "quayside", "skerry"
PLANT = "Sk3rryHarbour"
HOST = "https://api.quayside.example"


def _file(c: str, rel: str) -> Node:
    return code_node(Q, c, "code_file", rel, rel, rel, 1)


def _id(c: str, kind: str, q: str) -> str:
    return f"{Q}/{c}:{kind}:{q}"


def _api() -> tuple[list[Node], list[Edge]]:
    c = "api"
    nodes = [
        _file(c, ".env.example"),
        _file(c, "docker-compose.yml"),
        code_node(Q, c, "env_var", "BERTH_DB_URL", "BERTH_DB_URL", "src/db.ts", 3,
                  declared_in=[".env.example", "docker-compose.yml"]),
        code_node(Q, c, "symbol", "src/db.ts#connect", "connect", "src/db.ts", 2, 9),
        code_node(Q, c, "symbol", "src/config.ts#TOKEN_KEY", "TOKEN_KEY", "src/config.ts", 2),
        code_node(Q, c, "symbol", "src/guard.ts#DockGuard.check", "DockGuard.check", "src/guard.ts", 10, 20),
        code_node(Q, c, "symbol", "src/token.ts#TokenService.sign", "TokenService.sign", "src/token.ts", 25, 33),
        code_node(Q, c, "middleware", "DockGuard", "DockGuard", "src/guard.ts", 8,
                  symbol=_id(c, "symbol", "src/guard.ts#DockGuard.check")),
        code_node(Q, c, "route", "GET /moorings", "GET /moorings", "src/moorings.ts", 12),
        code_node(Q, c, "symbol", "src/moorings.ts#listMoorings", "listMoorings", "src/moorings.ts", 13, 20),
    ]  # fmt: skip
    key = _id(c, "symbol", "src/config.ts#TOKEN_KEY")
    env = _id(c, "env_var", "BERTH_DB_URL")
    edges = [
        edge(_id(c, "code_file", ".env.example"), env, "DECLARES", Q, c, ".env.example", 3),
        edge(_id(c, "code_file", "docker-compose.yml"), env, "DECLARES", Q, c,
             "docker-compose.yml", 12, service="app", via="docker-compose"),
        edge(_id(c, "symbol", "src/db.ts#connect"), env, "READS_ENV", Q, c, "src/db.ts", 3),
        edge(_id(c, "symbol", "src/guard.ts#DockGuard.check"), key, "READS_ENV", Q, c,
             "src/guard.ts", 14, constant=True, via="TOKEN_KEY"),
        edge(_id(c, "symbol", "src/token.ts#TokenService.sign"), key, "READS_ENV", Q, c,
             "src/token.ts", 30, constant=True, via="TOKEN_KEY"),
        edge(_id(c, "route", "GET /moorings"), _id(c, "middleware", "DockGuard"),
             "USES_MIDDLEWARE", Q, c, "src/moorings.ts", 11, order=1),
        edge(_id(c, "route", "GET /moorings"), _id(c, "symbol", "src/moorings.ts#listMoorings"),
             "ROUTES_TO", Q, c, "src/moorings.ts", 12),
    ]  # fmt: skip
    return nodes, edges


def _call(file: str, line: int, method: str, path: str, **attrs) -> Node:
    url = attrs.pop("url", path)
    return code_node(Q, "web", "http_call", f"{method} {url}@{file}:{line}", f"{method} {url}",
                     file, line, method=method, path=path, url_template=url, **attrs)  # fmt: skip


def _web() -> tuple[list[Node], list[Edge]]:
    c = "web"
    base = _id(c, "setting", "src/api/base.ts:4:API_BASE")
    nodes = [
        code_node(Q, c, "setting", "src/api/base.ts:4:API_BASE", "API_BASE", "src/api/base.ts", 4,
                  value=HOST, about="API base URL constant", source="code",
                  refers_to="api.quayside.example"),
        code_node(Q, c, "env_var", "VITE_QUAY_HOST", "VITE_QUAY_HOST", ".env", 1),
        _call("src/berths.ts", 12, "GET", "/berths", url=f"{HOST}/berths", base_setting=base),
        _call("src/login.ts", 20, "POST", "/login", url=f"{HOST}/login", base_setting=base),
        _call("src/__tests__/berths.test.ts", 5, "GET", "/berths", url=f"{HOST}/berths",
              base_setting=base),
        _call("src/pages/Dock.vue", 40, "PUT", "/docks/{id}", url="{VITE_QUAY_HOST}/docks/{id}",
              env_var="VITE_QUAY_HOST"),
    ]  # fmt: skip
    return nodes, []


def _infra() -> tuple[list[Node], list[Edge]]:
    c = "infra"
    tf = _id(c, "tf_resource", "google_secret_manager_secret.quay_settings")
    nodes = [
        _file(c, "terraform/secrets.tf"),
        code_node(Q, c, "tf_resource", "google_secret_manager_secret.quay_settings",
                  "google_secret_manager_secret.quay_settings", "terraform/secrets.tf", 4, 8,
                  secret_id="quay_settings"),
    ]  # fmt: skip
    edges = []
    for line, var in ((13, "BERTH_DB_URL"), (14, "TOKEN_SALT")):
        env = _id(c, "env_var", var)
        nodes.append(code_node(Q, c, "env_var", var, var, "terraform/secrets.tf", line))
        edges += [
            edge(_id(c, "code_file", "terraform/secrets.tf"), env, "DECLARES", Q, c,
                 "terraform/secrets.tf", line),
            edge(env, tf, "RESOLVES_TO", Q, c, "terraform/secrets.tf", line, via="secret payload",
                 secret_id="quay_settings", at="terraform/secrets.tf:5"),
        ]  # fmt: skip
    return nodes, edges


def _knowledge() -> list[Node]:
    nodes = [
        Node(f"{Q}:project:{Q}", "project", "Quayside", Q, None, f"projects/{Q}/project.md", 1)
    ]
    for c in ("api", "web", "infra"):
        nodes.append(Node(f"{Q}:component:{c}", "component", c, Q, None,
                          f"projects/{Q}/{c}/component.md", 2))  # fmt: skip
    nodes.append(Node(f"{Q}:secret:quay_settings", "secret", "quay_settings", Q, None,
                      f"projects/{Q}/infra/component.md", 9, None,
                      {"store": "secret-manager", "ref": "<project>/quay_settings"}))  # fmt: skip
    nodes.append(Node(f"{S}:project:{S}", "project", "Skerry", S, None, f"projects/{S}/p.md", 1))
    return nodes


def build(tmp: Path) -> dict[str, Path]:
    kb = tmp / "kb"
    kb.mkdir(parents=True, exist_ok=True)
    (kb / "kb.yaml").write_text("name: harbour\n", encoding="utf-8")
    nodes, edges = [], []
    for part in (_api, _web, _infra):
        n, e = part()
        nodes += n
        edges += e
    uses = [edge(f"{Q}:component:api", f"{Q}:secret:quay_settings", "USES_SECRET", Q, None)]
    skerry = [code_node(S, "ops", "symbol", PLANT, PLANT, "src/x.js", 1)]
    partitions = {
        Q: {"nodes": frame("nodes", nodes), "edges": frame("edges", edges),
            "unresolved": frame("unresolved", [])},
        S: {"nodes": frame("nodes", skerry), "edges": frame("edges", []),
            "unresolved": frame("unresolved", [])},
        "_global": {"nodes": frame("nodes", _knowledge()), "edges": frame("edges", uses)},
    }  # fmt: skip
    data = tmp / "data"
    publish(data, partitions, {"components": {}})
    return {"kb": kb, "data": data}
