"""The stateless JSON referee, ``/api/v1`` (SPEC §8): parse → engine → JSON."""

from flask import Blueprint, current_app

from ..extensions import limiter

bp = Blueprint("api", __name__, url_prefix="/api/v1")
limiter.limit(lambda: current_app.config["RATE_LIMIT_API"])(bp)

from . import advice, views  # noqa: E402,F401
