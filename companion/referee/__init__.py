"""Referee pages: can this hand close, and may that card be laid off there."""

from flask import Blueprint

bp = Blueprint("referee", __name__, url_prefix="/referee")

from . import views  # noqa: E402,F401
