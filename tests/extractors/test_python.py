"""Python extraction on small repos written for the test: symbols, imports, calls, routes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from pyrepo import write

from extractors.registry import extract_component


def facts_of(root: Path, project: str = "p", component: str = "api"):
    facts = extract_component(project, component, root)
    assert not [p for p in facts.problems if p.rule.startswith("extractor-")], facts.problems
    nodes = {n.id.split(":", 2)[2]: n for n in facts.nodes}
    edges = {(e.src.split(":", 2)[2], e.dst.split(":", 2)[2], e.type): e for e in facts.edges}
    return facts, nodes, edges


FASTAPI = {
    "app/__init__.py": "",
    "app/main.py": """
        from fastapi import Depends, FastAPI
        from app.routers import orders
        from app.security import verify_key

        app = FastAPI()
        app.include_router(orders.router, prefix="/v1", dependencies=[Depends(verify_key)])

        @app.get("/healthz")
        def healthz():
            return {"ok": True}
        """,
    "app/security.py": """
        def verify_key():
            return True

        def current_user():
            return "u"

        def audit():
            pass
        """,
    "app/routers/__init__.py": "",
    "app/routers/orders.py": """
        from fastapi import APIRouter, Depends
        from ..security import audit, current_user
        from ..services import orders as order_service
        from .missing import nothing

        router = APIRouter(prefix="/orders", dependencies=[Depends(audit)])


        @router.get("")
        def list_orders(user=Depends(current_user)):
            return order_service.list_orders(user)


        @router.post("/{order_id}")
        async def update_order(order_id: str):
            return order_service.Store().save(order_id)
        """,
    "app/services/__init__.py": "",
    "app/services/orders.py": """
        import app.security


        def list_orders(user):
            app.security.audit()
            return _load(user)


        def _load(user):
            return []


        class Store:
            def save(self, order_id):
                return self.write(order_id)

            def write(self, order_id):
                return order_id
        """,
}


def test_fastapi_routes_get_prefixes_from_router_and_include_across_files(tmp_path):
    facts, nodes, edges = facts_of(write(tmp_path, FASTAPI))
    routes = sorted(n.name for n in facts.nodes if n.kind == "route")
    assert routes == ["GET /healthz", "GET /v1/orders", "POST /v1/orders/{order_id}"]
    route = nodes["GET /v1/orders"]
    assert (route.file, route.line) == ("app/routers/orders.py", 9)
    assert route.attrs["method"] == "GET" and route.attrs["path"] == "/v1/orders"
    assert ("GET /v1/orders", "app/routers/orders.py#list_orders", "ROUTES_TO") in edges
    assert (
        "POST /v1/orders/{order_id}",
        "app/routers/orders.py#update_order",
        "ROUTES_TO",
    ) in edges
    chain = sorted(
        (e.attrs["order"], e.dst.rsplit("#", 1)[-1])
        for e in facts.edges
        if e.type == "USES_MIDDLEWARE" and e.src.endswith(":GET /v1/orders")
    )
    # include_router deps, then the router's, then the handler's parameter Depends
    assert chain == [(1, "verify_key"), (2, "audit"), (3, "current_user")]
    assert not [e for e in facts.edges if e.type == "USES_MIDDLEWARE" and "healthz" in e.src]


def test_python_symbols_imports_and_calls_resolve_within_the_component(tmp_path):
    facts, nodes, edges = facts_of(write(tmp_path, FASTAPI))
    store = nodes["app/services/orders.py#Store.save"]
    assert store.kind == "symbol" and store.attrs["symbol_kind"] == "method"
    assert (store.line, store.end_line) == (14, 15)
    assert nodes["app/services/orders.py#_load"].attrs["exported"] is False
    assert ("app/routers/orders.py", "app/services/orders.py", "IMPORTS") in edges
    assert ("app/routers/orders.py", "app/security.py", "IMPORTS") in edges
    assert ("app/main.py", "app/routers/orders.py", "IMPORTS") in edges
    calls = {(s, d) for s, d, t in edges if t == "CALLS_FN"}
    assert ("app/routers/orders.py#list_orders", "app/services/orders.py#list_orders") in calls
    assert ("app/routers/orders.py#update_order", "app/services/orders.py#Store") in calls
    assert ("app/services/orders.py#list_orders", "app/security.py#audit") in calls
    assert ("app/services/orders.py#Store.save", "app/services/orders.py#Store.write") in calls
    [miss] = [u for u in facts.unresolved if u.kind == "import"]
    assert (miss.file, miss.line) == ("app/routers/orders.py", 4) and ".missing" in miss.reason
    pkgs = nodes["app/routers/orders.py"].attrs["packages"]
    assert pkgs == ["fastapi"]


FLASK = {
    "main.py": """
        from app import create_app

        app = create_app()
        """,
    "app/__init__.py": """
        from flask import Flask

        from app.admin import admin_bp
        from app.reports import bp


        def create_app():
            app = Flask(__name__)
            app.register_blueprint(bp)
            app.register_blueprint(admin_bp, url_prefix="/admin")

            @app.before_request
            def load_user():
                pass

            @app.route("/", methods=["GET", "HEAD"])
            def index():
                return "ok"

            return app
        """,
    "app/reports.py": """
        from flask import Blueprint

        bp = Blueprint("reports", __name__, url_prefix="/reports")


        @bp.get("/")
        def list_reports():
            return []


        @bp.route("/<int:report_id>", methods=["GET", "DELETE"])
        def report(report_id):
            return {}
        """,
    "app/admin.py": """
        from flask import Blueprint

        admin_bp = Blueprint("admin", __name__, url_prefix="/ignored")


        @admin_bp.before_request
        def require_admin():
            pass


        @admin_bp.post("/sync")
        def sync():
            return {}
        """,
}


def test_flask_blueprint_prefixes_registration_override_and_before_request(tmp_path):
    facts, nodes, edges = facts_of(write(tmp_path, FLASK))
    routes = sorted(n.name for n in facts.nodes if n.kind == "route")
    assert routes == [
        "DELETE /reports/<int:report_id>",
        "GET /",
        "GET /reports/",
        "GET /reports/<int:report_id>",
        "HEAD /",
        "POST /admin/sync",
    ]
    assert ("GET /reports/<int:report_id>", "app/reports.py#report", "ROUTES_TO") in edges
    index = [d for s, d, t in edges if s == "GET /" and t == "ROUTES_TO"]
    assert index == ["app/__init__.py#create_app.<locals>.index"]
    chain = sorted(
        (e.attrs["order"], e.dst.rsplit(".", 1)[-1].rsplit("#", 1)[-1])
        for e in facts.edges
        if e.type == "USES_MIDDLEWARE" and e.src.endswith(":POST /admin/sync")
    )
    assert chain == [(1, "load_user"), (2, "require_admin")]
    assert ("main.py", "app/__init__.py#create_app") in {
        (s, d) for s, d, t in edges if t == "CALLS_FN"
    }
    names = {r.name for r in facts.catalog if r.table == "middleware"}
    assert names == {"load_user", "require_admin"}


def test_router_never_mounted_keeps_its_own_prefix_and_says_so(tmp_path):
    facts, nodes, _ = facts_of(write(tmp_path, {
        "svc.py": """
            from fastapi import APIRouter
            router = APIRouter(prefix="/items")

            @router.delete("/{item_id}")
            def remove(item_id: int):
                return None
            """,
    }))  # fmt: skip
    route = nodes["DELETE /items/{item_id}"]
    assert route.attrs["mounted"] is False


def test_add_url_rule_and_missing_module_of_a_local_package(tmp_path):
    facts, nodes, edges = facts_of(write(tmp_path, {
        "app/__init__.py": "",
        "app/views.py": "def ping():\n    return 'pong'\n",
        "app/main.py": """
            from flask import Flask
            from app.views import ping
            import app.nothere

            app = Flask(__name__)
            app.add_url_rule("/ping", "ping", view_func=ping, methods=["POST"])
            """,
    }))  # fmt: skip
    assert ("POST /ping", "app/views.py#ping", "ROUTES_TO") in edges
    assert nodes["POST /ping"].line == 6
    [miss] = [u for u in facts.unresolved if u.kind == "import"]
    assert miss.line == 3 and "app.nothere not found" in miss.reason
    assert nodes["app/main.py"].attrs["packages"] == ["flask"]


def test_edge_lines_are_the_same_in_every_process(tmp_path):
    """Which line an IMPORTS / CALLS_FN edge keeps follows document order, so a rebuild in a
    new process gives the same graph (tree-sitter's own capture order varies per process)."""
    names = [f"f{i}" for i in range(40)]
    util = "".join(f"def {n}():\n    return {i}\n\n" for i, n in enumerate(names))
    main = "".join(f"from app.util import {n}\n" for n in names)
    main += "\n\ndef run():\n" + "".join(f"    {n}()\n" for n in names) + "    f0()\n"
    root = write(tmp_path, {"app/__init__.py": "", "app/util.py": util, "app/main.py": main})
    script = (
        "import sys; from extractors.registry import extract_component; "
        "f = extract_component('p', 'api', sys.argv[1]); "
        "print(sorted((e.src, e.dst, e.type, e.line) for e in f.edges))"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", script, str(root)],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[2],
        ).stdout
        for _ in range(3)
    }
    assert len(runs) == 1
    _, _, edges = facts_of(root)
    first_call = len(names) + 4  # the first line of run()'s body
    assert edges[("app/main.py#run", "app/util.py#f0", "CALLS_FN")].line == first_call
    assert edges[("app/main.py#run", "app/util.py#f39", "CALLS_FN")].line == first_call + 39
    assert edges[("app/main.py", "app/util.py", "IMPORTS")].line in range(1, len(names) + 1)


KITCHEN = {
    "kitchen/__init__.py": "",
    "kitchen/ovens.py": """
        class Oven:
            def __init__(self, heat):
                self.heat = heat

            def bake(self, tray):
                return tray

            @classmethod
            def preheated(cls):
                return cls(220)


        class GasOven(Oven):
            pass


        class ElectricOven(Oven):
            pass


        OVENS = {"gas": GasOven, "electric": ElectricOven}
        """,
    "kitchen/service.py": """
        from kitchen.ovens import OVENS, Oven


        class Bakery:
            oven_class = Oven

            def __init__(self):
                self._oven = self.oven_class(180)

            def bake(self, tray):
                return self._oven.bake(tray)


        def oven_for(kind):
            return OVENS[kind](200)


        def helper_in_a_closure():
            def inner():
                return 1

            return inner


        def uses_the_closure():
            fn = helper_in_a_closure()
            return fn()
        """,
}


def test_python_calls_follow_what_the_engine_evaluates(tmp_path):
    """A method reached through an instance kept in an attribute, a class kept in a class
    attribute, a class chosen from a table, `cls(...)` in a classmethod and a closure handed
    back: each call an edge to the function or class the evaluator finds."""
    _, _, edges = facts_of(write(tmp_path, KITCHEN))
    calls = {(s, d) for s, d, t in edges if t == "CALLS_FN"}
    assert ("kitchen/service.py#Bakery.bake", "kitchen/ovens.py#Oven.bake") in calls
    assert ("kitchen/service.py#Bakery.__init__", "kitchen/ovens.py#Oven") in calls
    assert ("kitchen/service.py#oven_for", "kitchen/ovens.py#GasOven") in calls
    assert ("kitchen/service.py#oven_for", "kitchen/ovens.py#ElectricOven") in calls
    assert ("kitchen/ovens.py#Oven.preheated", "kitchen/ovens.py#Oven") in calls
    closure = "kitchen/service.py#helper_in_a_closure.<locals>.inner"
    assert ("kitchen/service.py#uses_the_closure", closure) in calls
    assert (
        "kitchen/service.py#uses_the_closure",
        "kitchen/service.py#helper_in_a_closure",
    ) in calls
    # a function nested in the caller is the caller's own code: no edge to itself
    assert not [c for c in calls if c[0] == "kitchen/service.py#helper_in_a_closure"]


GREENHOUSE = {
    "house/__init__.py": "",
    "house/climate.py": """
        from typing import Annotated, Optional


        class Vent:
            def open(self):
                return True


        def air(vent: "Vent"):
            return vent.open()


        def maybe_air(vent: Optional[Vent]):
            return vent.open()


        def newer_air(vent: Vent | None):
            return vent.open()


        def noted_air(vent: Annotated[Vent, "the north vent"]):
            return vent.open()
        """,
}


def test_python_annotations_type_a_parameter(tmp_path):
    """A parameter whose annotation names a class of the component is an instance of it:
    a forward-reference string, `Optional[…]`, `… | None`, `Annotated[…, …]`."""
    _, _, edges = facts_of(write(tmp_path, GREENHOUSE))
    calls = {(s, d) for s, d, t in edges if t == "CALLS_FN"}
    for fn in ("air", "maybe_air", "newer_air", "noted_air"):
        assert (f"house/climate.py#{fn}", "house/climate.py#Vent.open") in calls, fn
