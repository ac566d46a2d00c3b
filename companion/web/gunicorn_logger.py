"""gunicorn's access log without secret links: ``--logger-class companion.web.gunicorn_logger.RedactingLogger``.

Table and seat links carry their secret in the URL; the access log shows a
short hash of each instead (the same one the app's own log lines use).
"""

from __future__ import annotations

from gunicorn.glogging import Logger

from .access import redact


class RedactingLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "q", "f"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms
