"""The stateless JSON referee, ``/api/v1`` (SPEC §8): parse → engine → JSON."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from . import views  # noqa: E402,F401
