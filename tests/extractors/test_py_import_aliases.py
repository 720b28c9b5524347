"""A library name imported under another name (`import os as opsys`, `from
flask_jwt_extended import jwt_required as signed_in`) is read as the name it stands for:
env reads, the JWT guard's signing-key read, the guard's middleware name, and the user
type `current_user` stands for."""

from __future__ import annotations

from pyrepo import Graph, at, write

FILES = {
    "hive/__init__.py": "",
    "hive/settings.py": """
        import os as opsys
        from os import getenv as env_of


        class Conf:
            SECRET_KEY = opsys.environ.get("HIVE_SIGNING", "dev")
            STORE = env_of("HIVE_STORE")
        """,
    "hive/extensions.py": """
        from flask_jwt_extended import JWTManager as Tokens

        tokens = Tokens()
        """,
    "hive/models.py": """
        class Keeper:
            def badge(self):
                return "k"
        """,
    "hive/auth.py": """
        from hive.extensions import tokens
        from hive.models import Keeper


        @tokens.user_loader_callback_loader
        def load_keeper(identity):
            return Keeper()
        """,
    "hive/views.py": """
        from flask import Blueprint
        from flask_jwt_extended import current_user as viewer, jwt_required as signed_in

        bp = Blueprint("hives", __name__)


        @bp.route("/me", methods=("GET",))
        @signed_in
        def me():
            keeper = viewer
            return keeper.badge()
        """,
    "hive/app.py": """
        from flask import Flask

        from hive import views

        app = Flask(__name__)
        app.register_blueprint(views.bp, url_prefix="/hive")
        """,
}


def test_env_reads_through_an_aliased_os(tmp_path):
    g = Graph(write(tmp_path, FILES))
    reads = {
        (g.nodes[e.dst].name, f"{e.file}:{e.line}")
        for e in g.facts.edges
        if e.type == "READS_ENV" and e.file == "hive/settings.py"
    }
    assert reads == {
        ("HIVE_SIGNING", at(FILES, "hive/settings.py", "SECRET_KEY =")),
        ("HIVE_STORE", at(FILES, "hive/settings.py", "STORE =")),
    }


def test_an_aliased_guard_keeps_its_name_and_its_signing_key_read(tmp_path):
    g = Graph(write(tmp_path, FILES))
    assert [c.split("@")[0] for c in g.chain("GET /hive/me")] == ["jwt_required"]
    guard = [
        e for e in g.facts.edges if e.type == "READS_ENV" and g.nodes[e.src].kind == "middleware"
    ]
    assert [(g.nodes[e.dst].name, f"{e.file}:{e.line}") for e in guard] == [
        ("HIVE_SIGNING", at(FILES, "hive/extensions.py", "tokens = Tokens()"))
    ]


def test_an_aliased_current_user_is_the_loaded_user(tmp_path):
    g = Graph(write(tmp_path, FILES))
    line = at(FILES, "hive/views.py", "keeper.badge()").split(":")[1]
    assert f"hive/models.py#Keeper.badge@{line}" in g.calls("hive/views.py#me")


def test_an_aliased_get_object_or_404_types_its_result(tmp_path):
    files = {
        "requirements.txt": "django\n",
        "combs/models.py": """
            from django.db import models


            class Comb(models.Model):
                def harvest(self):
                    return 1
            """,
        "combs/views.py": """
            from django.shortcuts import get_object_or_404 as fetch_or_404

            from combs.models import Comb


            def harvest(request, pk):
                comb = fetch_or_404(Comb, id=pk)
                return comb.harvest()
            """,
    }
    g = Graph(write(tmp_path, files))
    line = at(files, "combs/views.py", "comb.harvest()").split(":")[1]
    assert f"combs/models.py#Comb.harvest@{line}" in g.calls("combs/views.py#harvest")
