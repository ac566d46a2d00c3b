"""Groups: the same friends every week, their seasons and who owes whom."""

from flask import Blueprint, current_app

from ..extensions import limiter

bp = Blueprint("groups", __name__)
limiter.limit(lambda: current_app.config["RATE_LIMIT_WRITES"], methods=["POST"])(bp)

from . import views  # noqa: E402,F401
