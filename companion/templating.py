"""Jinja helpers: card faces and names, rule explanations, the language list."""

from __future__ import annotations

import uuid

from flask import Flask, render_template, request
from flask_babel import get_locale

from .i18n import LANGUAGES, card_label, card_name, money, possessive, preset_name, reason_text, refusal_text, suit_name
from .rules import parse_card


def init_app(app: Flask) -> None:
    @app.context_processor
    def helpers() -> dict:
        return {
            "LANGUAGES": LANGUAGES,
            "current_language": str(get_locale() or "es"),
            "card_label": card_label,
            "card_name": card_name,
            "suit_name": suit_name,
            "money": money,
            "possessive": possessive,
            "reason_text": reason_text,
            "preset_name": preset_name,
            "refusal_text": refusal_text,
            "parse_card": parse_card,
            "current_path": request.full_path.rstrip("?") if request else "/",
            "new_submission": lambda: uuid.uuid4().hex,
        }


def render_page(page: str, fragment: str, target: str, **context) -> str:
    """The same view serves the whole page, or, to htmx swapping the element
    ``#target``, just the fragment that fills it."""
    if request.headers.get("HX-Request") and request.headers.get("HX-Target") == target:
        return render_template(fragment, **context)
    return render_template(page, **context)
