"""Preference cookies and the phone's list of recent tables."""

from __future__ import annotations

import hmac
import secrets

from flask import after_this_request, request

RECENT_COOKIE = "tables"
#: A random name of this browser, so a seat's link opened on two phones is noticed (``services.seats``).
PHONE_COOKIE = "phone"


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


def holds_table_link(token: str) -> bool:
    """This phone opened ``token`` (a table's link) lately: it may be led back to it."""
    return any(hmac.compare_digest(t, token) for t in recent_table_tokens())


def phone_id() -> str:
    """This browser's random name, "" until its cookie comes back (a phone
    that keeps no cookies is never taken for a second phone)."""
    known = request.cookies.get(PHONE_COOKIE, "")
    if len(known) == 22 and known.replace("-", "").replace("_", "").isalnum():
        return known

    @after_this_request
    def name_the_phone(response):
        return set_cookie(response, PHONE_COOKIE, secrets.token_urlsafe(16), days=365)

    return ""
