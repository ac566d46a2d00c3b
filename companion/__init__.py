"""Chinchón companion: a table companion web app over a pure-Python rules engine."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask

from .extensions import csrf, db


def _database_url(app: Flask) -> str:
    url = os.environ.get("DATABASE_URL")
    if not url:
        return "sqlite:///" + os.path.join(app.instance_path, "companion.sqlite")
    # Hosting platforms hand out postgres:// URLs; SQLAlchemy wants a driver.
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app.  ``test_config`` overrides the configuration (tests)."""
    app = Flask(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY", "dev-only-not-secret"),
        SQLALCHEMY_DATABASE_URI=_database_url(app),
        JSON_SORT_KEYS=False,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]

    db.init_app(app)
    csrf.init_app(app)

    from .api import bp as api_bp

    csrf.exempt(api_bp)
    app.register_blueprint(api_bp)
    _json_errors_under_api(app)

    @app.cli.command("init-db")
    def init_db() -> None:
        """Create the database tables (idempotent)."""
        db.create_all()
        print(f"database ready: {app.config['SQLALCHEMY_DATABASE_URI']}")

    return app


def _json_errors_under_api(app: Flask) -> None:
    """Routing errors (404, 405) happen before a blueprint is chosen; answer
    them in JSON for API paths so clients always get ``{error, field}``."""
    from flask import request
    from werkzeug.exceptions import HTTPException

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if request.path.startswith("/api/"):
            return {"error": error.description, "field": ""}, error.code
        return error
