"""What every ``/api/`` answer carries: the JSON content type with its charset,
the API version, CORS for the origins a setting names (none by default), and
errors in the one shape ``{error, field}``."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

#: The contract's version: the OpenAPI document's ``info.version`` and the
#: ``X-API-Version`` header of every API answer.
API_VERSION = "1.0.0"
JSON_TYPE = "application/json; charset=utf-8"
#: Headers a browser script on an allowed origin may read.
EXPOSED = "ETag, X-API-Version, X-Request-ID, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset"


def cached_json(data: Any) -> Response:
    """A JSON answer with a strong ETag; ``If-None-Match`` gets 304."""
    response = current_app.response_class(
        json.dumps(data, ensure_ascii=False, separators=(",", ":")), mimetype="application/json"
    )
    response.add_etag()
    response.headers["Cache-Control"] = "no-cache"  # revalidate: the answer changes only with a new release
    response.make_conditional(request)  # in place (it returns the same response, typed as werkzeug's)
    return response


def too_large_message() -> str:
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    return f"The request body is too large; the limit is {limit // 1024} KiB."


def http_error_json(error: HTTPException, message: str | None = None) -> Response:
    """An HTTP error (404, 405, 413, 429 …) in the API's shape."""
    message = message or error.description or "The request failed."
    field = ""
    if error.code == 413:
        message, field = too_large_message(), "body"
    response = jsonify(error=message, field=field)
    response.status_code = error.code or 500
    for name, value in error.get_headers():
        if name.lower() in ("allow", "retry-after"):
            response.headers[name] = value
    return response


def _allowed_origins() -> set[str]:
    value = current_app.config.get("API_CORS_ORIGINS") or ()
    if isinstance(value, str):
        value = value.split(",")
    return {origin.strip().rstrip("/") for origin in value if origin.strip()}


def init_blueprint(bp: Blueprint) -> None:
    @bp.after_app_request  # app-wide: 404 and 405 under /api/ never reach the blueprint
    def api_headers(response: Response) -> Response:
        if not request.path.startswith("/api/"):
            return response
        if response.mimetype == "application/json":
            response.headers["Content-Type"] = JSON_TYPE
        response.headers["X-API-Version"] = API_VERSION
        origin = request.headers.get("Origin")
        if origin:
            response.vary.add("Origin")
            if origin in _allowed_origins():
                response.headers["Access-Control-Allow-Origin"] = origin
                response.headers["Access-Control-Expose-Headers"] = EXPOSED
                if request.method == "OPTIONS":
                    response.headers["Access-Control-Allow-Methods"] = "GET, POST"
                    response.headers["Access-Control-Allow-Headers"] = "Content-Type, If-None-Match"
                    response.headers["Access-Control-Max-Age"] = "600"
        return response
