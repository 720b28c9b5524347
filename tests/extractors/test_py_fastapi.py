"""FastAPI on a small lending-library API written for this test: prefixes held in settings and
f-strings across files, the dependency chain in FastAPI's order at each usage line, handlers
calling crud/repository code across modules."""

from __future__ import annotations

from pyrepo import Graph, at, write

FILES = {
    "app/__init__.py": "",
    "app/core/__init__.py": "",
    "app/core/config.py": """
        from pydantic_settings import BaseSettings


        class Settings(BaseSettings):
            api_v1: str = "/api/v1"
            page_size: int = 20


        def get_settings() -> Settings:
            return Settings()
        """,
    "app/deps.py": """
        from typing import Annotated

        from fastapi import Depends


        def log_request():
            return None


        def require_member():
            return None


        def audit():
            return None


        def rate_limit():
            return None


        def get_current_member():
            return "m"


        def get_repo():
            return None


        CurrentMember = Annotated[str, Depends(get_current_member)]
        """,
    "app/main.py": """
        from fastapi import Depends, FastAPI
        from fastapi.middleware.cors import CORSMiddleware
        from starlette.middleware.gzip import GZipMiddleware

        from app.api import router as api_router
        from app.core.config import get_settings
        from app.deps import log_request
        from platform_config import compute_prefix  # a package's: its value is not in the component


        def build() -> FastAPI:
            settings = get_settings()
            application = FastAPI(dependencies=[Depends(log_request)])
            application.add_middleware(GZipMiddleware)
            application.add_middleware(
                CORSMiddleware,
                allow_origins=["*"],
            )
            application.include_router(api_router, prefix=settings.api_v1)
            application.include_router(api_router, prefix=compute_prefix())
            return application


        app = build()
        """,
    "app/api/__init__.py": """
        from fastapi import APIRouter, Depends

        from app.api import books
        from app.deps import require_member

        BOOKS = "/books"
        router = APIRouter()
        router.include_router(
            books.router, prefix=f"{BOOKS}/catalog", dependencies=[Depends(require_member)]
        )
        """,
    "app/api/books.py": """
        from fastapi import APIRouter, Depends

        from app.crud import books as crud
        from app.deps import CurrentMember, audit, get_repo, rate_limit
        from app.repo import BookRepo

        router = APIRouter(prefix="/items", dependencies=[Depends(audit)])


        @router.get("/{book_id}", dependencies=[Depends(rate_limit)])
        async def get_book(
            book_id: int,
            member: CurrentMember,
            repo: BookRepo = Depends(get_repo),
        ):
            crud.get_book(book_id)
            return await repo.fetch(book_id)
        """,
    "app/crud/__init__.py": "",
    "app/crud/books.py": """
        def get_book(book_id):
            return {"id": book_id}
        """,
    "app/repo.py": """
        class BaseRepo:
            async def fetch(self, key):
                return key


        class BookRepo(BaseRepo):
            pass
        """,
}
ROUTE = "GET /api/v1/books/catalog/items/{book_id}"


def test_prefix_from_settings_field_and_fstring_constant_across_files(tmp_path):
    g = Graph(write(tmp_path, FILES))
    assert ROUTE in g.routes()
    assert g.route_at(ROUTE) == at(FILES, "app/api/books.py", "@router.get(")
    assert g.handler(ROUTE) == "get_book@" + at(FILES, "app/api/books.py", "async def get_book(")


def test_unknown_prefix_keeps_the_route_with_a_placeholder_and_says_why(tmp_path):
    g = Graph(write(tmp_path, FILES))
    assert "GET /{compute_prefix()}/books/catalog/items/{book_id}" in g.routes()
    [row] = [u for u in g.unresolved if u.kind == "route_prefix"]
    assert f"{row.file}:{row.line}" == at(FILES, "app/main.py", "prefix=compute_prefix()")


def test_dependency_chain_in_fastapi_order_each_at_its_usage_line(tmp_path):
    g = Graph(write(tmp_path, FILES))
    main, books = "app/main.py", "app/api/books.py"
    assert g.chain(ROUTE) == [
        "CORSMiddleware@" + _bare_add_middleware_line(),  # added last: runs first
        "GZipMiddleware@" + at(FILES, main, "add_middleware(GZipMiddleware)"),
        "log_request@" + at(FILES, main, "Depends(log_request)"),
        "require_member@" + at(FILES, "app/api/__init__.py", "Depends(require_member)"),
        "audit@" + at(FILES, books, "Depends(audit)"),
        "rate_limit@" + at(FILES, books, "Depends(rate_limit)"),
        "get_current_member@" + at(FILES, books, "member: CurrentMember"),
        "get_repo@" + at(FILES, books, "Depends(get_repo)"),
    ]


def _bare_add_middleware_line() -> str:
    lines = FILES["app/main.py"].strip("\n").splitlines()
    found = [i for i, line in enumerate(lines, 1) if line.strip() == "application.add_middleware("]
    return f"app/main.py:{found[0]}"


def test_handler_calls_crud_and_repository_methods_across_modules(tmp_path):
    g = Graph(write(tmp_path, FILES))
    books = "app/api/books.py"
    line = lambda s: at(FILES, books, s).split(":")[1]  # noqa: E731
    # the crud function shares the handler's name: a different node, edge at the call line
    assert g.calls(f"{books}#get_book") == sorted(
        [
            f"app/crud/books.py#get_book@{line('crud.get_book(book_id)')}",
            f"app/repo.py#BaseRepo.fetch@{line('repo.fetch(book_id)')}",
        ]
    )


def test_router_never_mounted_and_mount_on_unknown_object_are_reported(tmp_path):
    files = {
        "svc/__init__.py": "",
        "svc/admin.py": """
            from fastapi import APIRouter

            router = APIRouter(prefix="/admin")


            @router.post("/reindex")
            def reindex():
                return None
            """,
        "svc/plugins.py": """
            from svc.admin import router


            def install(host):
                host.include_router(router, prefix="/ops")
            """,
    }
    g = Graph(write(tmp_path, files))
    assert g.routes() == ["POST /admin/reindex"]
    rows = sorted(f"{u.file}:{u.line}" for u in g.unresolved if u.kind == "route_mount")
    assert rows == [
        at(files, "svc/admin.py", "router = APIRouter("),
        at(files, "svc/plugins.py", "host.include_router("),
    ]


def test_route_lists_the_mounts_that_build_its_path_and_each_prefix_is_a_setting(tmp_path):
    g = Graph(write(tmp_path, FILES))
    route = g._route(ROUTE)
    assert route.attrs["mounts"] == [
        at(FILES, "app/main.py", "prefix=settings.api_v1") + " /api/v1 = settings.api_v1",
        at(FILES, "app/api/__init__.py", 'prefix=f"{BOOKS}/catalog"') + " /books/catalog",
        at(FILES, "app/api/books.py", 'APIRouter(prefix="/items"') + " /items",
    ]
    settings = {
        f"{n.file}:{n.line}": n.attrs["value"] for n in g.facts.nodes if n.kind == "setting"
    }
    assert settings[at(FILES, "app/main.py", "prefix=settings.api_v1")] == "/api/v1"
    assert settings[at(FILES, "app/api/books.py", 'APIRouter(prefix="/items"')] == "/items"


def test_dependency_edges_keep_the_call_as_written(tmp_path):
    files = {
        "svc.py": """
            from fastapi import Depends, FastAPI

            app = FastAPI()


            def member(required: bool = True):
                def check():
                    return required

                return check


            @app.get("/shelf")
            def shelf(who=Depends(member(required=False)), other=Depends(member)):
                return who
            """,
    }
    g = Graph(write(tmp_path, files))
    route = g._route("GET /shelf")
    exprs = sorted(
        str(e.attrs.get("expr"))
        for e in g.facts.edges
        if e.src == route.id and e.type == "USES_MIDDLEWARE"
    )
    assert exprs == ["None", "member(required=False)"]
