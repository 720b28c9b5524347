"""A component whose folder is itself a Python package (its `repo:` points at `src/shop`,
which holds an `__init__.py`): its modules import each other by the package's name,
`from shop.paths import PREFIX`, and that name resolves to the component's own file."""

from __future__ import annotations

from pyrepo import Graph, write


def test_absolute_imports_through_the_package_the_component_root_is(tmp_path):
    root = tmp_path / "src" / "shop"
    write(tmp_path / "src", {"__init__.py": ""})  # not a package root above: src is one too
    write(root, {
        "__init__.py": "",
        "requirements.txt": "fastapi\n",
        "paths.py": 'PREFIX = "/shop"\n',
        "api/__init__.py": "",
        "api/lamps.py": """
            from fastapi import APIRouter

            from src.shop.paths import PREFIX

            router = APIRouter(prefix=PREFIX + "/lamps")


            @router.get("/")
            def lamps():
                return []
            """,
        "main.py": """
            from fastapi import FastAPI

            from src.shop.api.lamps import router
            from src.shop.paths import PREFIX

            app = FastAPI()
            app.include_router(router)


            @app.get(PREFIX + "/health")
            def health():
                return "ok"
            """,
    })  # fmt: skip
    graph = Graph(root)
    assert graph.routes() == ["GET /shop/health", "GET /shop/lamps/"]
