"""Flask on a small greenhouse app written for this test: blueprints registered through a
factory's helper, registration prefixes, add_url_rule and MethodView, before_request hooks,
request extensions and guard decorators as the chain, model calls typed through queries."""

from __future__ import annotations

from pyrepo import Graph, at, write

FILES = {
    "green/__init__.py": "",
    "green/extensions.py": """
        from flask_cors import CORS
        from flask_jwt_extended import JWTManager
        from flask_sqlalchemy import SQLAlchemy


        class Crud:
            def store(self):
                return self


        db = SQLAlchemy(model_class=Crud)
        cors = CORS()
        jwt = JWTManager()
        """,
    "green/settings.py": """
        import os


        class Conf:
            SECRET_KEY = os.environ.get("GREEN_SIGNING", "dev")
        """,
    "green/models.py": """
        from green.extensions import db

        Model = db.Model


        class Plant(Model):
            def water(self, litres):
                return litres


        class Bed(Model):
            plants = db.relationship("Plant", backref=db.backref("bed", uselist=False))

            def rake(self):
                return self
        """,
    "green/security.py": """
        import functools


        def needs_gardener(view):
            @functools.wraps(view)
            def wrapper(*args, **kwargs):
                return view(*args, **kwargs)

            return wrapper
        """,
    "green/app.py": """
        from flask import Flask

        from green import plants
        from green.extensions import cors
        from green.views import PlantView, ping

        PREFIX = "/api"


        def create_app():
            app = Flask(__name__)
            register(app)
            return app


        def register(app):
            cors.init_app(plants.bp)
            app.before_request(open_session)
            app.register_blueprint(plants.bp, url_prefix=PREFIX + "/plants")
            app.add_url_rule("/ping", "ping", view_func=ping)
            app.add_url_rule("/beds/<int:bed_id>", view_func=PlantView.as_view("beds"))


        def open_session():
            return None
        """,
    "green/plants.py": """
        from flask import Blueprint
        from flask_jwt_extended import jwt_required

        from green.models import Plant
        from green.security import needs_gardener

        bp = Blueprint("plants", __name__, url_prefix="/ignored")


        @bp.before_request
        def check_season():
            return None


        @bp.route("/<slug>/water", methods=("POST",))
        @jwt_required
        @needs_gardener
        def water_plant(slug):
            plant = Plant.query.filter_by(slug=slug).first()
            plant.water(2)
            plant.store()
            plant.bed.rake()
            return "", 204
        """,
    "green/views.py": """
        from flask.views import MethodView


        def ping():
            return "pong"


        class PlantView(MethodView):
            def get(self, bed_id):
                return {}

            def delete(self, bed_id):
                return "", 204
        """,
}
WATER = "POST /api/plants/<slug>/water"


def test_routes_by_full_path_across_files_and_registration(tmp_path):
    g = Graph(write(tmp_path, FILES))
    assert g.routes() == [
        "DELETE /beds/<int:bed_id>",
        "GET /beds/<int:bed_id>",
        "GET /ping",
        WATER,
    ]
    assert g.route_at(WATER) == at(FILES, "green/plants.py", "@bp.route(")
    assert g.handler(WATER) == "water_plant@" + at(FILES, "green/plants.py", "def water_plant(")
    assert g.handler("GET /ping") == "ping@" + at(FILES, "green/views.py", "def ping(")
    assert g.handler("DELETE /beds/<int:bed_id>") == "PlantView.delete@" + at(
        FILES, "green/views.py", "def delete("
    )


def test_chain_extension_hooks_then_guard_decorators(tmp_path):
    g = Graph(write(tmp_path, FILES))
    app, plants = "green/app.py", "green/plants.py"
    assert g.chain(WATER) == [
        "open_session@" + at(FILES, app, "app.before_request(open_session)"),
        "CORS@" + at(FILES, app, "cors.init_app(plants.bp)"),
        "check_season@" + at(FILES, plants, "def check_season("),
        "jwt_required@" + at(FILES, plants, "@jwt_required"),
        "needs_gardener@" + at(FILES, plants, "@needs_gardener"),
    ]
    assert g.chain("GET /ping") == ["open_session@" + at(FILES, app, "app.before_request(")]


def test_model_methods_through_query_and_sqlalchemy_base(tmp_path):
    g = Graph(write(tmp_path, FILES))
    line = lambda s: at(FILES, "green/plants.py", s).split(":")[1]  # noqa: E731
    calls = g.calls("green/plants.py#water_plant")
    assert f"green/models.py#Plant.water@{line('plant.water(2)')}" in calls
    assert f"green/extensions.py#Crud.store@{line('plant.store()')}" in calls


def test_sqlalchemy_backref_types_the_attribute_it_adds(tmp_path):
    g = Graph(write(tmp_path, FILES))
    line = at(FILES, "green/plants.py", "plant.bed.rake()").split(":")[1]
    assert f"green/models.py#Bed.rake@{line}" in g.calls("green/plants.py#water_plant")


def test_jwt_guards_read_the_env_var_behind_the_signing_key(tmp_path):
    g = Graph(write(tmp_path, FILES))
    reads = [e for e in g.facts.edges if e.type == "READS_ENV" and e.dst.endswith(":GREEN_SIGNING")]
    by_src = {g.nodes[e.src].name: e for e in reads}
    assert set(by_src) == {"Conf", "jwt_required"}
    guard = by_src["jwt_required"]
    assert g.nodes[guard.src].kind == "middleware"
    assert f"{guard.file}:{guard.line}" == at(FILES, "green/extensions.py", "JWTManager()")
    assert guard.attrs["config_key"] == "SECRET_KEY"
    assert guard.attrs["config_at"] == at(FILES, "green/settings.py", "SECRET_KEY =")
