"""Route modules loaded from a folder in a loop — `fs.readdirSync(path.join(__dirname,
'routes'))` with `require`, `os.listdir` with `importlib.import_module` — are mounted where
the loop mounts them: the folder's entries are the component's files, and a variable the
loop body assigns reads each pass's element."""

from __future__ import annotations

import json

from jsrepo import extract

KITES = """
    const router = require('express').Router();
    router.get('/', (req, res) => res.json([]));
    module.exports = router;
    """
TIDES = """
    const router = require('express').Router();
    router.post('/:id', (req, res) => res.end());
    module.exports = router;
    """


def test_express_routers_required_from_a_listed_folder_are_mounted(tmp_path):
    f = extract(tmp_path, {
        "package.json": json.dumps({"dependencies": {"express": "4"}}),
        "app.js": """
            const express = require('express');
            const fs = require('fs');
            const path = require('path');
            const app = express();
            for (const file of fs.readdirSync(path.join(__dirname, 'routes'))) {
              const routes = require(`./routes/${file}`);
              app.use(`/api/${file.replace('.js', '')}`, routes);
            }
            module.exports = app;
            """,
        "routes/kites.js": KITES,
        "routes/tides.js": TIDES,
    })  # fmt: skip
    assert sorted(f.kind("route")) == ["GET /api/kites", "POST /api/tides/:id"]
    assert not [u for u in f.unresolved if u.kind == "route_mount"]


def test_python_routers_imported_by_name_from_a_listed_folder_are_mounted(tmp_path):
    router = """
        from fastapi import APIRouter
        router = APIRouter(prefix="/{name}")
        @router.get("/")
        def index():
            return []
        """
    f = extract(tmp_path, {
        "requirements.txt": "fastapi\n",
        "svc/__init__.py": "",
        "svc/routers/__init__.py": "",
        "svc/routers/buoys.py": router.replace("{name}", "buoys"),
        "svc/routers/ports.py": router.replace("{name}", "ports"),
        "svc/main.py": """
            import importlib
            import os

            from fastapi import FastAPI

            app = FastAPI()
            for name in sorted(os.listdir(os.path.join(os.path.dirname(__file__), "routers"))):
                if name.endswith(".py") and name != "__init__.py":
                    module = importlib.import_module(f"svc.routers.{name.removesuffix('.py')}")
                    app.include_router(module.router, prefix="/v1")
            """,
    })  # fmt: skip
    assert sorted(f.kind("route")) == ["GET /v1/buoys/", "GET /v1/ports/"]


def test_a_folder_that_is_not_in_the_component_lists_nothing(tmp_path):
    f = extract(tmp_path, {
        "package.json": json.dumps({"dependencies": {"express": "4"}}),
        "app.js": """
            const express = require('express');
            const fs = require('fs');
            const app = express();
            fs.readdirSync('./plugins').forEach((file) => app.use(require(`./plugins/${file}`)));
            app.get('/health', (req, res) => res.end());
            """,
    })  # fmt: skip
    assert sorted(f.kind("route")) == ["GET /health"]
