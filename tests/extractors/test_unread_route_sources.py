"""Routes a framework takes from another file — an OpenAPI document, a content type's
schema, a route module — whose file is missing or unreadable: the registration is an
`unresolved` row saying which file and why, never a silent zero."""

from __future__ import annotations

import json

from jsrepo import extract


def rows(f, kind: str = "route") -> list[tuple[str, int, str, str]]:
    return [(u.file, u.line, u.expr, u.reason) for u in f.unresolved if u.kind == kind]


def test_an_openapi_document_that_is_missing_or_broken_is_named(tmp_path):
    f = extract(tmp_path, {
        "requirements.txt": "connexion==3.1.0\n",
        "svc/__init__.py": "",
        "svc/app.py": """
            import connexion

            app = connexion.FlaskApp(__name__, specification_dir="spec/")
            app.add_api("gone.yaml")
            app.add_api("broken.yaml")
            """,
        "svc/spec/broken.yaml": "paths: [unclosed\n",
    })  # fmt: skip
    assert not f.kind("route")
    found = rows(f)
    assert (
        "svc/app.py",
        4,
        "gone.yaml",
        "no file svc/spec/gone.yaml in the component: its routes are not read",
    ) in found
    assert (
        "svc/app.py",
        5,
        "broken.yaml",
        "svc/spec/broken.yaml is not an OpenAPI document (YAML or JSON)",
    ) in found


def test_a_strapi_core_router_without_its_schema_is_named(tmp_path):
    f = extract(tmp_path, {
        "package.json": json.dumps({"dependencies": {"@strapi/strapi": "4.25.0"}}),
        "src/api/buoy/routes/buoy.js": """
            const { createCoreRouter } = require('@strapi/strapi').factories;
            module.exports = createCoreRouter('api::buoy.buoy');
            """,
    })  # fmt: skip
    assert not f.kind("route")
    [(file, line, expr, reason)] = rows(f)
    assert (file, line, expr) == ("src/api/buoy/routes/buoy.js", 2, "api::buoy.buoy")
    assert "schema.json" in reason


def test_a_react_router_entry_naming_no_module_is_named(tmp_path):
    f = extract(tmp_path, {
        "package.json": json.dumps({"devDependencies": {"@react-router/dev": "7.1.0"}}),
        "app/routes.ts": """
            import { route } from "@react-router/dev/routes";
            export default [route("tides", "routes/tides.tsx")];
            """,
    })  # fmt: skip
    assert not f.kind("route")
    assert rows(f) == [("app/routes.ts", 2, "routes/tides.tsx",
                        "the route module is not a file of the component: its loader and "
                        "action are not read")]  # fmt: skip
