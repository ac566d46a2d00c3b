"""Jinja helpers: card faces and names, rule explanations, the language list,
content-hashed static URLs and the words the offline script shows."""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Callable
from urllib.parse import quote

from flask import Flask, current_app, g, render_template, request
from flask_babel import format_datetime, format_decimal, format_percent, get_locale
from markupsafe import Markup

from ..rules import parse_card
from .client import offline_texts, page_config, route_shape
from .i18n import LANGUAGES, card_label, card_name, money, possessive, pot_text, preset_name, preset_title, suit_name
from .messages import error_text, reason_text, refusal_text

#: A year: a static URL carries its file's hash, so its content never changes.
IMMUTABLE = "public, max-age=31536000, immutable"


def init_app(app: Flask) -> None:
    app.extensions["static_hashes"] = static_hashes(app.static_folder or "")

    @app.url_defaults
    def hashed_static(endpoint: str, values: dict) -> None:
        """``url_for('static', filename=f)`` gives ``/static/f?v=<hash>``: a new
        release never pairs new HTML with a cached old stylesheet or script."""
        if endpoint == "static" and "v" not in values:
            digest = app.extensions["static_hashes"].get(values.get("filename", ""))
            if digest:
                values["v"] = digest

    @app.after_request
    def cache_hashed_static(response):
        if request.endpoint == "static" and response.status_code == 200:
            filename = (request.view_args or {}).get("filename", "")
            if request.args.get("v") and request.args.get("v") == app.extensions["static_hashes"].get(filename):
                response.headers["Cache-Control"] = IMMUTABLE
        return response

    @app.context_processor
    def helpers() -> dict:
        return {
            "LANGUAGES": LANGUAGES,
            "current_language": str(get_locale() or "es"),
            "card_label": card_label,
            "card_name": card_name,
            "suit_name": suit_name,
            "money": money,
            "pot_text": pot_text,
            "possessive": possessive,
            "reason_text": reason_text,
            "error_text": error_text,
            "preset_name": preset_name,
            "preset_title": preset_title,
            "refusal_text": refusal_text,
            "parse_card": parse_card,
            "current_path": request.full_path.rstrip("?") if request else "/",
            "new_submission": lambda: uuid.uuid4().hex,
            "request_reference": lambda: g.get("request_id", "-"),
            "offline_texts": offline_texts,
            "page_config": page_config,
            "percent": format_percent,
            "decimal": lambda x: format_decimal(x, format="#,##0.0"),
            "when": when,
            "links_for": links_for,
        }


def links_for(endpoint: str, key: str, **values) -> Callable[[object], str]:
    """``url_for(endpoint, **values, key=x)`` for every row ``x`` of a page of
    many rows (a dashboard's 64 tables): the address's shape is built once and
    each row's value put in its place, quoted as a path segment.  For values a
    path segment holds as they are (ids, link tokens)."""
    head, tail = route_shape(endpoint, key, **values).split(f"{{{key}}}")
    return lambda value: head + quote(str(value), safe="") + tail


def when(moment) -> Markup:
    """A stored moment (UTC) as the page's language writes a date and time
    ("3/12/26, 08:13" in es-AR); the phone's script shows it in its own time zone."""
    iso = moment.replace(tzinfo=None).isoformat(timespec="seconds") + "Z"
    return Markup('<time datetime="{}" data-local>{}</time>').format(iso, format_datetime(moment, "short"))


def static_hashes(folder: str) -> dict[str, str]:
    """Every static file's content hash (12 hex digits), computed once at start-up."""
    hashes: dict[str, str] = {}
    for root, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()[:12]
            hashes[os.path.relpath(path, folder).replace(os.sep, "/")] = digest
    return hashes


def static_hash(filename: str) -> str:
    return current_app.extensions["static_hashes"][filename]


def render_page(page: str, fragment: str, target: str, **context) -> str:
    """The same view serves the whole page, or, to htmx swapping the element
    ``#target``, just the fragment that fills it."""
    if request.headers.get("HX-Request") and request.headers.get("HX-Target") == target:
        return render_template(fragment, **context)
    return render_template(page, **context)
