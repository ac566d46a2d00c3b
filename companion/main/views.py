from __future__ import annotations

import hashlib
import json
from pathlib import Path
from urllib.parse import urlparse

from flask import current_app, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import or_, select, text

from ..extensions import db
from ..models import GameTable
from ..web.client import SERVICE_WORKER, client_config
from ..web.cookies import recent_table_tokens, set_cookie
from ..web.i18n import LANGUAGES, html_lang
from . import bp


@bp.get("/")
def home():
    tokens = recent_table_tokens()
    tables = []
    if tokens:
        query = select(GameTable).where(or_(GameTable.owner_token.in_(tokens), GameTable.player_token.in_(tokens)))
        found: dict[str, GameTable] = {}
        for table in db.session.scalars(query):
            found[table.owner_token] = found[table.player_token] = table
        tables = [(t, found[t]) for t in tokens if t in found]
    return render_template("main/home.html", tables=tables)


@bp.get("/lang/<code>")
def set_language(code: str):
    target = request.args.get("next", "/")
    # Only same-site paths: never an open redirect.
    if urlparse(target).netloc or not target.startswith("/") or target.startswith("//"):
        target = "/"
    response = make_response(redirect(target))
    if code in LANGUAGES:
        set_cookie(response, "lang", code, days=365)
    return response


#: The top bar in the dark colour scheme (``--accent`` in app.css).
DARK_THEME = "#4ade80"


def _revalidated(body: bytes, mimetype: str):
    """An answer the browser asks for again each time, and gets as a 304 while unchanged."""
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(hashlib.sha256(body).hexdigest()[:16])
    return response.make_conditional(request)


@bp.get("/sw.js")
def service_worker():
    """The static file companion/static/sw.js, at the root: a worker's scope is
    its own folder, and phones that installed it here update it here.  The
    page registers it as ``/sw.js?v=<release>``; what it precaches, and every
    route it knows, it reads from /client.json."""
    body = (Path(current_app.static_folder or "") / SERVICE_WORKER).read_bytes()
    # The browser checks the worker on every page load: an unchanged one is a 304.
    return _revalidated(body, "text/javascript")


@bp.get("/client.json")
def client_json():
    """The client config (web/client.py) for the service worker; pages carry it inline."""
    return _revalidated(json.dumps(client_config(), ensure_ascii=False).encode(), "application/json")


@bp.get("/offline")
def offline():
    """What the service worker shows for a page this phone never opened.  Each
    page refreshes the stored copy when its language changes."""
    response = make_response(render_template("main/offline.html"))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    data = {
        "name": _("Chinchón companion"),
        "short_name": _("Chinchón"),
        "description": _("Keep the score at the table: enter the cards, the rules engine does the counting."),
        "lang": html_lang(str(get_locale() or "es")),
        "id": "/",
        "start_url": url_for("main.home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f7f4",
        "theme_color": "#14532d",
        # The dark scheme's top bar (app.css); browsers that know this key use it.
        "user_preferences": {"color_scheme_dark": {"theme_color": DARK_THEME, "background_color": "#0f1412"}},
        "icons": [
            {"src": url_for("static", filename="icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": url_for("static", filename="icon-512-maskable.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return current_app.response_class(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/healthz")
def healthz():
    db.session.execute(text("SELECT 1"))
    return {"status": "ok", "database": current_app.config["SQLALCHEMY_DATABASE_URI"].split(":", 1)[0]}
