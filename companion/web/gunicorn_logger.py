"""gunicorn's logs without secret links: ``--logger-class companion.web.gunicorn_logger.RedactingLogger``.

Table and seat links carry their secret in the URL.  Every line gunicorn
writes, the access log's and the error log's (its "Error handling request
/t/…" included, with the traceback), shows a short hash of each link
instead: the same one the app's own log lines use.
"""

from __future__ import annotations

import logging

from gunicorn.glogging import Logger

from .redaction import redact


class RedactingFormatter(logging.Formatter):
    """A handler's own formatter, its whole output redacted (message, traceback, stack)."""

    def __init__(self, inner: logging.Formatter | None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        return redact(self.inner.format(record))


class RedactingLogger(Logger):
    def setup(self, cfg) -> None:
        """gunicorn's handlers (set up again at each reload), each writing
        redacted lines; the previous ones are closed (gunicorn only drops them)."""
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                if getattr(handler, "_gunicorn", False):
                    handler.close()
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                if not isinstance(handler.formatter, RedactingFormatter):
                    handler.setFormatter(RedactingFormatter(handler.formatter))
