"""A value defined in terms of itself — a module that reads its own name, two modules that
read each other's, a class whose base is made from the class, a parameter named like the
module its type comes from — ends in an unknown part, not in a crash that loses every route
and call of the component; and Python's `getattr(obj, name, default)` is the default where
the member is not known."""

from __future__ import annotations

from pyrepo import Graph, write

FASTAPI_APP = """
    from fastapi import FastAPI
    from paths import PREFIX

    app = FastAPI()


    @app.get(PREFIX + "/lamps")
    def lamps():
        return []


    @app.get("/health")
    def health():
        return "ok"
    """


def test_a_module_reading_its_own_name_keeps_the_routes(tmp_path):
    write(tmp_path, {
        "requirements.txt": "fastapi\n",
        # the module imports itself; while it is first run its own name is not set yet
        "paths.py": 'import paths\n\nPREFIX = getattr(paths, "PREFIX", "/shop")\n',
        "main.py": FASTAPI_APP,
    })  # fmt: skip
    assert Graph(tmp_path).routes() == ["GET /health", "GET /shop/lamps"]


def test_two_python_modules_reading_each_other_keep_the_routes(tmp_path):
    write(tmp_path, {
        "requirements.txt": "fastapi\n",
        "paths.py": "import other\n\nPREFIX = other.BASE\n",
        "other.py": "import paths\n\nBASE = paths.PREFIX\n",
        "main.py": FASTAPI_APP,
    })  # fmt: skip
    graph = Graph(tmp_path)
    assert "GET /health" in graph.routes()
    [lamps] = [r for r in graph.routes() if r.endswith("/lamps")]  # prefix unknown, kept
    assert any(u.line == 7 and u.file == "main.py" for u in graph.unresolved), lamps


def test_two_js_modules_reading_each_other_keep_the_routes(tmp_path):
    write(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "a.js": "import { B } from './b';\nexport const A = B;\n",
        "b.js": "import { A } from './a';\nexport const B = A;\n",
        "server.js": """
            import express from 'express';
            import { A } from './a';
            const app = express();
            app.get(A + '/lamps', (req, res) => res.json([]));
            app.get('/health', (req, res) => res.send('ok'));
            """,
    })  # fmt: skip
    routes = Graph(tmp_path).routes()  # (Graph fails on an extractor's failure)
    assert "GET /health" in routes and any(r.endswith("/lamps") for r in routes)


def test_getattr_with_a_default_is_the_default_for_a_setting_not_defined(tmp_path):
    write(tmp_path, {
        "requirements.txt": "fastapi\n",
        "settings.py": 'API_ROOT = "/v2"\n',
        "main.py": """
            from fastapi import FastAPI
            import settings

            app = FastAPI()


            @app.get(getattr(settings, "API_PREFIX", "/shop") + "/lamps")
            def lamps():
                return []


            @app.get(getattr(settings, "API_ROOT", "/v1") + "/bulbs")
            def bulbs():
                return []
            """,
    })  # fmt: skip
    assert Graph(tmp_path).routes() == ["GET /shop/lamps", "GET /v2/bulbs"]


def test_a_parameter_named_like_the_module_its_type_comes_from(tmp_path):
    # an annotation is read outside its function: `pdb: pdb.Pdb` names the module, not the
    # parameter itself (read as the parameter, its type was its own type, without end)
    write(tmp_path, {
        "requirements.txt": "requests\n",
        "hooks.py": """
            import os
            import pdb

            import requests


            def enter(config, pdb: pdb.Pdb):
                return requests.get(os.environ["DEBUG_URL"] + "/debug")
            """,
    })  # fmt: skip
    graph = Graph(tmp_path)
    calls = [n for n in graph.facts.nodes if n.kind == "http_call"]
    assert [n.line for n in calls] == [8]
    assert any(n.kind == "env_var" and n.name == "DEBUG_URL" for n in graph.facts.nodes)


def test_a_class_whose_base_is_made_from_the_class_itself(tmp_path):
    # `shape` is first a Base, then a Square, whose base is read off `shape`: reading which
    # library class Square derives from reads `shape`, which makes a Square again
    write(tmp_path, {
        "requirements.txt": "fastapi\n",
        "shapes.py": """
            class Base:
                def kind(self):
                    return Base


            def build():
                shape = Base()

                class Square(shape.kind()):
                    pass

                shape = Square()
                return shape
            """,
        "main.py": FASTAPI_APP,
        "paths.py": 'PREFIX = "/shop"\n',
    })  # fmt: skip
    assert Graph(tmp_path).routes() == ["GET /health", "GET /shop/lamps"]
