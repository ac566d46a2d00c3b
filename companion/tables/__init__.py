"""Scorekeeping for physical tables."""

from flask import Blueprint, request

from ..web.limits import limit_posts

bp = Blueprint("tables", __name__)


def is_preview() -> bool:
    """The live verdict while a hand is tapped in (a post without ``action=save``):
    reading, not writing, so it never spends the write budget."""
    return request.endpoint in ("tables.new_hand", "tables.edit_hand") and request.form.get("action") != "save"


limit_posts(bp, is_preview)

from . import views  # noqa: E402,F401
