"""Digital play: the app deals and runs whole matches, with computer players."""

from flask import Blueprint, current_app

from ..extensions import limiter

bp = Blueprint("play", __name__)
limiter.limit(lambda: current_app.config["RATE_LIMIT_WRITES"], methods=["POST"])(bp)

from . import views  # noqa: E402,F401
