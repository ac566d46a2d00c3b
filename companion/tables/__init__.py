"""Scorekeeping for physical tables."""

from flask import Blueprint, current_app, request

from ..extensions import limiter

bp = Blueprint("tables", __name__)


def is_preview() -> bool:
    """The live verdict while a hand is tapped in (a post without ``action=save``):
    reading, not writing, so it never spends the write budget."""
    return request.endpoint in ("tables.new_hand", "tables.edit_hand") and request.form.get("action") != "save"


limiter.limit(lambda: current_app.config["RATE_LIMIT_WRITES"], methods=["POST"], exempt_when=is_preview)(bp)
limiter.limit(
    lambda: current_app.config["RATE_LIMIT_PREVIEWS"],
    methods=["POST"],
    scope="previews",
    exempt_when=lambda: not is_preview(),
)(bp)

from . import views  # noqa: E402,F401
