"""Logging with a request id on every line (taken from X-Request-ID when a
proxy sets one), echoed in the response so a user's report can be traced."""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, g, has_request_context, request

from .redaction import redact

_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def request_id(given: str) -> str:
    """A proxy's X-Request-ID when it is a safe one, else a new id."""
    return given if _SAFE_ID.match(given) else uuid.uuid4().hex[:16]


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = g.get("request_id", "-") if has_request_context() else "-"
        return True


class RedactingFormatter(logging.Formatter):
    """Every line, tracebacks included, with secret links replaced by a short hash."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class RedactingFilter(logging.Filter):
    """For loggers whose lines the app does not format (the development
    server's request lines): the secret links in the message are replaced."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact(record.getMessage()), ()
        return True


#: The loggers whose lines are the app's: its own modules' and the rate limiter's
#: (which says when Redis is away and back).
LOGGERS = ("companion", "flask-limiter")


def init_app(app: Flask) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"))
    handler.addFilter(RequestIdFilter())
    app.logger.handlers = [handler]
    app.logger.setLevel(app.config.get("LOG_LEVEL", "INFO"))
    app.logger.propagate = False
    for name in LOGGERS:  # the app's own (``companion.app``) does not reach here: it stops above
        logger = logging.getLogger(name)
        logger.handlers = [h for h in logger.handlers if not isinstance(h, logging.StreamHandler)] + [handler]
        logger.setLevel(app.config.get("LOG_LEVEL", "INFO"))
    server = logging.getLogger("werkzeug")  # `flask run` logs every request line here
    if not any(isinstance(f, RedactingFilter) for f in server.filters):
        server.addFilter(RedactingFilter())

    @app.before_request
    def start() -> None:
        g.request_id = request_id(request.headers.get("X-Request-ID", ""))
        g.started = time.perf_counter()

    @app.after_request
    def finish(response):
        response.headers["X-Request-ID"] = g.get("request_id", "-")
        elapsed = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
        # One line per request at DEBUG (LOG_LEVEL=DEBUG): gunicorn's access log covers production.
        app.logger.debug("%s %s %s %.1fms", request.method, request.full_path, response.status_code, elapsed)
        return response
