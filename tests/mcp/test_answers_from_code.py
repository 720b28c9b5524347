"""Answers built from source code, through a real MCP client over stdio: the shelf/dock
portfolio (mcp_ui_fixture) is extracted, bridged and published by the real layers, so each
answer depends on what the extraction emits — UI handlers as trace starts, NestJS
app-level middleware and guards as written — and on the resolver and the negatives engine."""

from __future__ import annotations

import mcp_ui_fixture as fixture
import pytest
from mcp_ask import asker, serve

SHELF = "shelf"


@pytest.fixture(scope="module")
def shelf(tmp_path_factory: pytest.TempPathFactory):
    yield from serve(fixture.build, tmp_path_factory.mktemp("from-code"))


ask = asker("src/server.js")  # dock's code never shows in a shelf answer


@pytest.mark.parametrize(
    ("start", "first", "route", "built"),
    [
        (  # a Vue Options-API method
            "addBook",
            "symbol Books.addBook (shelf/web src/components/Books.vue:14-16)",
            "route POST /api/books (shelf/api src/books.controller.ts:10)",
            "+ /api/books; through send (src/lib/api.ts:6); axios",
        ),
        (  # a `<script setup>` function
            "save",
            "symbol save (shelf/web src/components/Settings.vue:6-8)",
            "route PUT /api/settings (shelf/api src/books.controller.ts:13)",
            "+ /api/settings; axios",
        ),
        (  # a React class field holding an arrow function
            "handleAddTodo",
            "symbol TodoApp.handleAddTodo (shelf/admin src/TodoApp.jsx:9-12)",
            "route POST /api/todos (shelf/api src/todos.controller.ts:5)",
            "+ /api/todos; axios",
        ),
    ],
)
def test_a_trace_starts_from_a_ui_handler_and_reaches_the_handler(
    shelf, start, first, route, built
):
    text = ask(shelf, "kb_trace", start=start, project=SHELF)
    lines = text.splitlines()
    assert lines[0] == first
    assert (
        "--CALLS (via VITE_API_URL, envs prod, env-var by projects/shelf/api/component.md:" in text
    )
    assert f"envs.prod.url)--> {route}" in text
    assert (
        "↳ base VITE_API_URL = " in text and "https://api.shelf.example (.env.production:1)" in text
    )
    assert "--ROUTES_TO--> symbol " in text


def test_a_handler_nested_in_a_function_component_is_a_trace_start(shelf):
    text = ask(shelf, "kb_trace", start="handleQuickAdd", project=SHELF)
    lines = text.splitlines()
    assert lines[0].startswith(
        "handleQuickAdd is a handler declared inside QuickAdd (src/QuickAdd.jsx:4) and bound in its JSX"
    )
    assert lines[1] == "symbol QuickAdd (shelf/admin src/QuickAdd.jsx:3-10)"
    assert "--CALLS (via VITE_API_URL, envs prod, env-var by " in text
    assert "envs.prod.url)--> route POST /api/todos" in text


def test_a_component_reaches_the_handler_it_binds(shelf):
    text = ask(shelf, "kb_trace", start="TodoApp", project=SHELF)
    assert text.startswith("symbol TodoApp (shelf/admin src/TodoApp.jsx:6-17)")
    assert "--CALLS_FN (via bound handler)--> symbol TodoApp.handleAddTodo" in text
    assert "route POST /api/todos (shelf/api src/todos.controller.ts:5)" in text


def test_a_component_name_outranks_a_variable_of_that_name(shelf):
    text = ask(shelf, "kb_entity", name="api", project=SHELF)
    assert text.startswith("component api\nid: shelf:component:api\n")
    assert "routes of shelf/api (5)" in text
    text = ask(shelf, "kb_entity", name="api", project=SHELF, component="web")
    assert text.startswith("symbol api\nid: shelf/web:symbol:src/lib/api.ts#api\n")


def test_an_ambiguous_name_lists_its_candidates(shelf):
    text, err = shelf.call("kb_entity", name="formatTitle", project=SHELF)
    assert err and "'formatTitle' matches 2 nodes — pass the id or component=" in text
    assert "shelf/admin src/format.js:1-3" in text and "shelf/web src/lib/format.ts:1-3" in text
    text = ask(shelf, "kb_trace", start="formatTitle", project=SHELF)  # a trace takes each
    assert text.startswith(
        "'formatTitle' matches 2 symbols — each traced (pass the id to pick one):"
    )


def test_guards_are_told_apart_and_app_middleware_is_shared_once(shelf):
    text = ask(shelf, "kb_entity", name="api", project=SHELF)
    assert "every route first passes: [1] helmet (src/main.ts:7) [2] cors (src/main.ts:8)" in text
    assert "POST /api/books (src/books.controller.ts:10) → BooksController.create" in text
    assert "| [3] AuthGuard('jwt') (src/books.controller.ts:9)" in text
    assert "| [3] AuthGuard('jwt-refresh') (src/auth.controller.ts:6)" in text


def test_middleware_is_found_across_projects_by_how_it_is_written(shelf):
    text, err = shelf.call(
        "kb_find", kind="middleware", query="cors"
    )  # "does any backend use cors?"
    assert not err and "cors — 2 in 2 projects (dock, shelf)" in text
    assert "shelf/api src/main.ts:8" in text  # app.enableCors()
    assert "dock/gate src/boot.ts:5" in text  # NestFactory.create(GateModule, { cors: true })
    text, err = shelf.call("kb_find", kind="middleware", query="AuthGuard*")
    assert not err
    assert "shelf/api src/books.controller.ts:9 as AuthGuard('jwt')" in text
    assert "shelf/api src/auth.controller.ts:6 as AuthGuard('jwt-refresh')" in text
    text, err = shelf.call("kb_find", kind="route", query="POST /api/*")
    assert not err and "POST /api/users (dock/api src/server.js:3)" in text
    assert "POST /api/books (shelf/api src/books.controller.ts:10)" in text


def test_a_cross_project_negative_from_code(shelf):
    text = ask(shelf, "kb_trace", start="web", project=SHELF, to="POST /api/users")
    assert text.startswith(
        "no — per the static graph, and no edge can exist: route 'POST /api/users' is not in "
        "project shelf; it is in project dock"
    )
    assert "→ shelf/api (2): POST /api/books ← src/components/Books.vue:15" in text


@pytest.mark.parametrize("tool", ["kb_trace", "kb_neighbors", "kb_entity"])
def test_does_x_call_y_is_one_engine_for_three_tools(shelf, tool):
    key = {"kb_trace": "start", "kb_neighbors": "node", "kb_entity": "name"}[tool]
    text = ask(shelf, tool, project=SHELF, to="PUT /api/settings", **{key: "admin"})
    assert text.startswith("no — per the static graph: component admin")
    assert "the route exists: declared at shelf/api src/books.controller.ts:13" in text
    assert "its inbound CALLS (1), from other call sites:" in text
    assert "Settings.vue:7 in save" in text
    assert (
        "→ shelf/api (2): POST /api/todos ← src/QuickAdd.jsx:6; POST /api/todos ← src/TodoApp.jsx:11"
        in text
    )
    text = ask(shelf, tool, project=SHELF, to="POST /api/todos", **{key: "handleAddTodo"})
    assert text.startswith("yes — per the static graph: symbol TodoApp.handleAddTodo")


def test_a_handler_view_says_where_its_calls_land_and_how_their_url_is_built(shelf):
    text = ask(shelf, "kb_entity", name="save", project=SHELF)
    assert (
        "  HTTP PUT {VITE_API_URL}/api/settings at shelf/web src/components/Settings.vue:7 → "
        "route PUT /api/settings (shelf/api src/books.controller.ts:13) (via VITE_API_URL, envs prod)"
    ) in text
    assert "    ↳ base VITE_API_URL = http://localhost:3000 (.env.development:1)" in text


def test_an_env_var_impact_stays_in_its_component(shelf):
    """web and admin each read their own VITE_API_URL: rotating web's is not admin's."""
    text = ask(shelf, "kb_impact", target="VITE_API_URL", project=SHELF, component="web")
    assert "HTTP call sites through it (2 production):" in text
    assert "src/components/Books.vue:15 POST /api/books → POST /api/books" in text
    assert "TodoApp.jsx" not in text
