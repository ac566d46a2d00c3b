"""Referee pages: can this hand close, and may that card be laid off there."""

from flask import Blueprint

from ..web.forms import preset_choices, referee_options

bp = Blueprint("referee", __name__, url_prefix="/referee")


@bp.context_processor
def rule_choices() -> dict:
    """The rules picker lists what the engine offers (presets, decks, enums)."""
    return {"preset_choices": preset_choices, "referee_options": referee_options}


from . import views  # noqa: E402,F401
