"""A small project for starts given as `path:line` and routes registered by a regex,
published with `warehouse.publish`.

harbor: an `api` backend and a `web` frontend whose client modules live in a folder that
is also named `api/` (`api/accounts.ts`). The backend registers `POST /api/sessions` in a
route object written over several lines (`{` on 31, `method:` on 32, `path:` on 33), three
routes on one viewset line (`src/urls.py:11`), and one route by a regex
(`re_path(r'^api/boxes/(?P<slug>[-\\w]+)/seal/?$')`). Every `GET /api/boxes` caller's bridge
carries a long provenance, so a tight budget has to cut some of them.
"""

from __future__ import annotations

from pathlib import Path

from mcp_relations_fixture import _knowledge as knowledge
from mcp_synthetic_code import code_node, edge

from extractors.facts import Edge, Node
from warehouse.catalog import routes_of
from warehouse.publish import publish
from warehouse.tables import frame

P = "harbor"
SEAL = r"POST /api/boxes/(?P<slug>[-\w]+)/seal/?"
VIEWSET = [("GET", "/api/boxes"), ("POST", "/api/boxes"), ("PUT", "/api/boxes/<slug>")]
LIST_CALLERS = 4  # GET /api/boxes is called from this many pages


def _api() -> list[Node]:
    nodes = [
        code_node(P, "api", "route", "POST /api/sessions", "POST /api/sessions", "src/routes/sessions.ts", 31,
                  method="POST", path="/api/sessions"),
        code_node(P, "api", "route", SEAL, SEAL, "src/urls.py", 14, method="POST", path=SEAL.split(" ", 1)[1],
                  segments=[{"kind": "lit", "text": "api"}, {"kind": "lit", "text": "boxes"},
                            {"kind": "param", "text": "slug"}, {"kind": "lit", "text": "seal"}]),
    ]  # fmt: skip
    nodes += [
        code_node(P, "api", "route", f"{m} {p}", f"{m} {p}", "src/urls.py", 11, method=m, path=p)
        for m, p in VIEWSET
    ]
    return nodes


def _call(file: str, line: int, method: str, path: str) -> Node:
    name = f"{method} {{API_ROOT}}{path}"
    return code_node(P, "web", "http_call", f"{name}@{file}:{line}", name, file, line, line + 3,
                     method=method, path=path, env_var="API_ROOT")  # fmt: skip


def _web() -> tuple[list[Node], list[Edge]]:
    wired = [  # (file, line, method, call path, route id qualifier)
        ("api/accounts.ts", 14, "POST", "/api/sessions", "POST /api/sessions"),
        ("src/pages/seal.ts", 5, "POST", "/api/boxes/{slug}/seal", SEAL),
        ("src/pages/editor.ts", 6, "POST", "/api/boxes", "POST /api/boxes"),
        ("src/pages/editor.ts", 20, "PUT", "/api/boxes/{slug}", "PUT /api/boxes/<slug>"),
    ] + [
        (f"src/pages/feeds/listing-number-{i}/model/api.ts", 13, "GET", f"/api/boxes?page={{p}}&f{i}={{v}}", "GET /api/boxes")
        for i in range(LIST_CALLERS)
    ]  # fmt: skip
    nodes, edges = [], []
    for file, line, method, path, route in wired:
        call = _call(file, line, method, path)
        nodes.append(call)
        long = {
            "confidence": "medium",
            "resolution": "KB calls[0] env_var API_ROOT → api",
            "evidence": [f"{file}:{line} call {method} {path}", "src/shared/http.ts:27",
                         "projects/harbor/web/component.md:10 calls[0] env_var API_ROOT"],
        }  # fmt: skip
        edges.append(
            edge(
                call.id,
                f"{P}/api:route:{route}",
                "CALLS",
                P,
                None,
                file,
                line,
                via="API_ROOT",
                envs=["local"],
                **long,
            )  # fmt: skip
        )
    return nodes, edges


def build(tmp: Path) -> dict[str, Path]:
    kb = tmp / "kb"
    kb.mkdir(parents=True, exist_ok=True)
    (kb / "kb.yaml").write_text("name: locate\n", encoding="utf-8")
    wn, we = _web()
    nodes = _api() + wn
    files = sorted({(n.component, n.file) for n in nodes if n.component and n.file})
    nodes += [code_node(P, c, "code_file", f, f, f, 1, 60) for c, f in files]
    kn, ke = knowledge(P, {"api": "api", "web": "frontend"})
    own = {
        "nodes": frame("nodes", nodes),
        "edges": frame("edges", we),
        "unresolved": frame("unresolved", []),
    }
    partitions = {
        P: own,
        "_global": {"nodes": frame("nodes", kn), "edges": frame("edges", ke),
                    "catalog_routes": routes_of({f"{P}/all": {"nodes": own["nodes"]}})},
    }  # fmt: skip
    data = tmp / "data"
    publish(data, partitions, {"components": {}})
    return {"kb": kb, "data": data}
