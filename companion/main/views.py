from __future__ import annotations

from urllib.parse import urlparse

from flask import current_app, make_response, redirect, render_template, request, url_for
from sqlalchemy import or_, select, text

from ..extensions import db
from ..i18n import LANGUAGES
from ..models import GameTable
from . import bp

RECENT_COOKIE = "tables"


def recent_table_tokens() -> list[str]:
    """Tables this phone opened, newest first (kept in a cookie, not the server)."""
    raw = request.cookies.get(RECENT_COOKIE, "")
    return [t for t in raw.split(".") if t][:8]


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
        response.set_cookie(
            "lang", code, max_age=3600 * 24 * 365, samesite="Lax", httponly=True, secure=request.is_secure
        )
    return response


@bp.get("/healthz")
def healthz():
    db.session.execute(text("SELECT 1"))
    return {"status": "ok", "database": current_app.config["SQLALCHEMY_DATABASE_URI"].split(":", 1)[0]}


def remember_table(response, token: str):
    tokens = [token, *[t for t in recent_table_tokens() if t != token]][:8]
    response.set_cookie(
        RECENT_COOKIE,
        ".".join(tokens),
        max_age=3600 * 24 * 180,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,
    )
    return response


__all__ = ["remember_table", "url_for"]
