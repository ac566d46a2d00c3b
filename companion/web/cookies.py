"""Preference cookies and the phone's list of recent tables."""

from __future__ import annotations

from flask import request

RECENT_COOKIE = "tables"


def recent_table_tokens() -> list[str]:
    """Tables this phone opened, newest first (kept in a cookie, not the server)."""
    raw = request.cookies.get(RECENT_COOKIE, "")
    return [t for t in raw.split(".") if t][:8]


def set_cookie(response, name: str, value: str, days: int):
    """A long-lived preference cookie: HttpOnly, SameSite=Lax, Secure over HTTPS."""
    response.set_cookie(name, value, max_age=3600 * 24 * days, samesite="Lax", httponly=True, secure=request.is_secure)
    return response


def remember_table(response, token: str):
    tokens = [token, *[t for t in recent_table_tokens() if t != token]][:8]
    return set_cookie(response, RECENT_COOKIE, ".".join(tokens), days=180)
