from flask import Flask, jsonify

from app.admin import admin_bp
from app.reports import bp


def create_app() -> Flask:
    app = Flask(__name__)
    app.config["JSON_SORT_KEYS"] = False

    app.register_blueprint(bp)
    app.register_blueprint(admin_bp, url_prefix="/admin")

    @app.errorhandler(404)
    def not_found(_error):
        return jsonify(error="not_found"), 404

    return app
