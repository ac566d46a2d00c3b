"""The stateless JSON referee, ``/api/v1`` (SPEC §8): parse → engine → JSON.

Its contract is the OpenAPI document at ``/api/v1/openapi.json`` (built from
``openapi.ENDPOINTS``), read by people at ``/api/v1/docs``.
"""

from flask import Blueprint, current_app

from ..extensions import limiter
from . import http

bp = Blueprint("api", __name__, url_prefix="/api/v1")
limiter.limit(lambda: current_app.config["RATE_LIMIT_API"])(bp)
http.init_blueprint(bp)

from . import advice, docs, review, views  # noqa: E402,F401
