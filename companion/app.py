"""The Flask application factory: wires the extensions, blueprints and commands."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask, Response, current_app, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException, ServiceUnavailable
from werkzeug.routing import IntegerConverter

from . import config
from .extensions import csrf, db, limiter, migrate
from .web import logs
from .web.i18n import babel

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'; manifest-src 'self'; worker-src 'self'"
)
#: The forms that save a hand (a hand kept on the phone when the server cannot save it).
HAND_FORMS = ("tables.new_hand", "tables.edit_hand")
#: On every answer (HSTS too, over HTTPS).
HEADERS = [
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    # Table links carry their secret in the URL: never leak it as a referrer.
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
]


class BoundedInt(IntegerConverter):
    """``<int:...>`` up to 2**31 - 1: a larger number matches no route."""

    def __init__(self, url_map, fixed_digits=0, min=None, max=2**31 - 1, signed=False) -> None:
        super().__init__(url_map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app.  ``test_config`` overrides the configuration (tests)."""
    app = Flask(__name__, instance_relative_config=True)
    # A number in a URL (a hand, a season) fits the database's integers, or no page is there (404).
    app.url_map.converters["int"] = BoundedInt
    os.makedirs(app.instance_path, exist_ok=True)
    _configure(app, test_config)
    logs.init_app(app)

    from .web.i18n import select_locale

    db.init_app(app)
    _sqlite_pragmas(app)
    migrate.init_app(app, db, directory=os.path.join(os.path.dirname(__file__), "migrations"))
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    _blueprints(app)
    _errors(app)
    _input_guards(app)
    _security_headers(app)
    from . import commands
    from .web import compression, polls, templating

    templating.init_app(app)
    compression.init_app(app)
    commands.init_app(app)
    # The WSGI layers, innermost first: the unchanged-poll shortcut, then the proxy fix.
    polls.init_app(app, HEADERS)
    if app.config.get("TRUST_PROXY"):
        from werkzeug.middleware.proxy_fix import ProxyFix

        n = app.config["TRUST_PROXY"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)  # type: ignore[method-assign]

    @app.cli.command("init-db")
    def init_db() -> None:
        """Create or upgrade the database tables (idempotent)."""
        from flask_migrate import upgrade

        upgrade()
        print(f"database ready: {db.engine.url.render_as_string(hide_password=True)}")

    return app


def _configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """The defaults, then the environment (or, for tests, ``test_config``)."""
    app.config.from_mapping(
        BABEL_DEFAULT_LOCALE="es",
        BABEL_TRANSLATION_DIRECTORIES=os.path.join(os.path.dirname(__file__), "translations"),
        WTF_CSRF_TIME_LIMIT=None,  # a table's page may stay open for a whole evening
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # A real request here is a few KB; anything larger is refused (413)
        # before it is read into memory.
        MAX_CONTENT_LENGTH=64 * 1024,
        API_CORS_ORIGINS="",  # no cross-site browser calls unless origins are named
        # Redis holds the limits' counts: while it is away each worker counts in
        # its own memory (said once in the log), and the counts go back to it
        # when it answers again; an error there never fails a request.
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        RATELIMIT_SWALLOW_ERRORS=True,
        RATELIMIT_STORAGE_OPTIONS={"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
        # A statement's parameters hold secret links: never in an error message or a log line.
        SQLALCHEMY_ENGINE_OPTIONS={"hide_parameters": True},
    )
    if test_config is None:
        app.config.from_mapping(config.from_environment(app.instance_path))
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(
            SECRET_KEY="test",
            RATELIMIT_ENABLED=False,
            RATE_LIMIT_API="120 per minute",
            RATE_LIMIT_WRITES="60 per minute",
            RATE_LIMIT_PREVIEWS="600 per minute",
            RATE_LIMIT_ADDRESS_WRITES="1200 per minute",
            RATE_LIMIT_ADDRESS_PREVIEWS="6000 per minute",
        )
        # The expert thinks briefly in tests (its search still runs): tests
        # check what it does, bench/bench_expert.py how long it takes; and in
        # the test's own process (tests/bots/test_apart.py tries the helper).
        app.config.from_mapping(PLAY_BOT_THINK_MS=20.0, PLAY_BOT_APART=False)
        app.config.from_mapping(test_config)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]


def _blueprints(app: Flask) -> None:
    """One blueprint per task; then every route's declared access is collected (``web.access``)."""
    from .api import bp as api_bp
    from .groups import bp as groups_bp
    from .main import bp as main_bp
    from .play import bp as play_bp
    from .referee import bp as referee_bp
    from .tables import bp as tables_bp
    from .tournaments import bp as tournaments_bp
    from .web import access

    csrf.exempt(api_bp)
    limiter.init_app(app)
    for bp in (api_bp, main_bp, tables_bp, referee_bp, play_bp, groups_bp, tournaments_bp):
        app.register_blueprint(bp)
    access.init_app(app)


def _sqlite_pragmas(app: Flask) -> None:
    """SQLite in WAL mode with a busy timeout: several workers on one small
    server read while one writes, and a writer waits instead of failing."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return
    from sqlalchemy import event

    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "connect")
    def pragmas(dbapi_connection, _record):  # pragma: no cover - exercised by every sqlite test
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout = 10000")
        if (
            ":memory:" not in app.config["SQLALCHEMY_DATABASE_URI"]
            and app.config["SQLALCHEMY_DATABASE_URI"] != "sqlite://"
        ):
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()


def _errors(app: Flask) -> None:
    """Routing errors (404, 405) happen before a blueprint is chosen; answer
    them in JSON for API paths, as a friendly page elsewhere."""
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(413, _too_large)
    app.register_error_handler(429, _too_many)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(OperationalError, _database_away)
    app.register_error_handler(InterfaceError, _database_away)


def _csrf_error(error: CSRFError):
    from flask_babel import gettext as _

    message = _("This form has expired or was not sent from this app. Reload the page and try again.")
    return render_template("error.html", code=400, message=message), 400


def _too_large(error: HTTPException):
    from flask_babel import gettext as _

    from .api.http import http_error_json

    if request.path.startswith("/api/"):
        return http_error_json(error)
    limit = (current_app.config.get("MAX_CONTENT_LENGTH") or 0) // 1024
    message = _("What was sent is too large (the limit is %(size)s KB). Go back and send less.", size=limit)
    return render_template("error.html", code=413, message=message), 413


def _too_many(error: HTTPException):
    """Say when to try again; a refused form comes back whole, ready to send again."""
    import time

    from flask_babel import ngettext

    from .web.limits import breached_by_link

    limit = limiter.current_limit
    wait = max(1, int(limit.reset_at - time.time())) if limit is not None else 60
    if breached_by_link():
        message = ngettext(
            "Too many changes through this link in a short time; wait %(num)s second and try again.",
            "Too many changes through this link in a short time; wait %(num)s seconds and try again.",
            wait,
        )
    else:
        message = ngettext(
            "Too many requests from this connection; wait %(num)s second and try again.",
            "Too many requests from this connection; wait %(num)s seconds and try again.",
            wait,
        )
    headers = {"Retry-After": str(wait)}
    if request.path.startswith("/api/"):
        from .api.http import http_error_json

        response = http_error_json(error, message)
        response.headers.update(headers)
        return response
    resend = list(request.form.items(multi=True)) if request.method == "POST" else []
    page = render_template("error.html", code=429, message=message, resend=resend, action=request.full_path)
    return page, 429, headers


def _http_error(error: HTTPException):
    from .api.http import http_error_json

    if request.path.startswith("/api/"):
        return http_error_json(error)
    return render_template("error.html", code=error.code, message=None), error.code


def _database_away(error: Exception):
    """The database away (a restart, a lost connection, a lock held too
    long): nothing was stored, and the page says so in the app's words
    (503, try again shortly).  A hand's save says the phone keeps the
    hand (offline.js queues it and sends it when the server can save)."""
    from .api.http import http_error_json
    from .web.messages import outage_text

    current_app.logger.warning("database unreachable: %s", str(error.orig if hasattr(error, "orig") else error).strip())
    headers = {"Retry-After": "5"}
    hand = request.method == "POST" and request.endpoint in HAND_FORMS and request.form.get("action") == "save"
    if request.path.startswith("/api/"):
        response = http_error_json(ServiceUnavailable(), outage_text(hand=False))
        response.headers.update(headers)
        return response
    page = render_template("error.html", code=503, message=outage_text(hand=hand), unsaved_hand=hand)
    return page, 503, headers


def _input_guards(app: Flask) -> None:
    """Input no page can use, refused before any view sees it: a NUL character
    (no database column can hold one) and a form submission id that is not
    one the app made (32 hex digits; the server's own ids never look like that)."""
    from flask import abort, render_template
    from flask_babel import gettext as _

    from .services.unit import SUBMISSION_ID

    def refuse(message: str):
        if request.path.startswith("/api/"):
            abort(400, description=message)
        abort(Response(render_template("error.html", code=400, message=message), 400))

    @app.before_request
    def guard() -> None:
        values = [request.path, *request.args.keys(), *request.args.values()]
        if request.method == "POST" and not request.path.startswith("/api/"):
            values += [*request.form.keys(), *request.form.values()]
            submission = request.form.get("submission")
            if submission and not SUBMISSION_ID.fullmatch(submission):
                refuse(_("This form is not one this app made. Reload the page and try again."))
        if any("\x00" in v for v in values):
            refuse(_("The request holds a character that cannot be stored (NUL). Nothing was changed."))


def _security_headers(app: Flask) -> None:
    @app.after_request
    def headers(response):
        if request.view_args and {"token", "seat_token"} & set(request.view_args):
            # A page behind a secret link: never kept in a shared cache or the browser's disk cache.
            response.headers["Cache-Control"] = "no-store"
        for name, value in HEADERS:
            response.headers.setdefault(name, value)
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        return response
