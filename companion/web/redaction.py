"""Secret links out of every log line: each replaced by a short hash.

Standard library only: gunicorn's master process loads it (the logger class,
``web/gunicorn_logger.py``) and forks its workers from a process that holds
nothing of the app, no database driver, no SQLAlchemy, no OpenSSL state.
"""

from __future__ import annotations

import hashlib
import re

_SECRET_PATH = re.compile(r"(/[tsgc]/)([A-Za-z0-9_-]{8,})")
_SECRET_QUERY = re.compile(r"((?:^|[?&])table=)([^&#\s]+)")


def link_hash(token: str) -> str:
    """A short, stable stand-in for a secret link in logs."""
    return "#" + hashlib.sha256(token.encode()).hexdigest()[:8]


def redact(text: str) -> str:
    """A path or request line with every secret link replaced by its hash."""
    text = _SECRET_PATH.sub(lambda m: m.group(1) + link_hash(m.group(2)), text)
    return _SECRET_QUERY.sub(lambda m: m.group(1) + link_hash(m.group(2)), text)
