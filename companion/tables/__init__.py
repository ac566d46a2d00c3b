"""Scorekeeping for physical tables."""

from flask import Blueprint

bp = Blueprint("tables", __name__)

from . import views  # noqa: E402,F401
