"""Routes serving the contract: the OpenAPI document and its readable page."""

from __future__ import annotations

from flask import Response

from . import bp, contract  # noqa: F401  (contract publishes the endpoints)
from .http import cached_json
from .openapi import document


@bp.get("/openapi.json")
def openapi_json() -> Response:
    return cached_json(document())
