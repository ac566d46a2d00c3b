"""Configuration from the environment (12-factor), with safe defaults for one small server.

- ``SECRET_KEY``: taken from the environment; else generated once into
  ``instance/secret_key`` (never a constant in the code).
- ``DATABASE_URL``: PostgreSQL (``postgres://`` and ``postgresql://`` are
  accepted); default SQLite in ``instance/``, in WAL mode with a busy timeout.
- ``LOG_LEVEL``: INFO by default.
- ``REDIS_URL``: a Redis shared by every app server: the rate limits' counts
  and the version of each table that unchanged polls are answered from
  (``web/polls.py``).  Without it polls read the database.
- ``RATELIMIT_STORAGE_URI``, ``RATE_LIMIT_API`` (per address),
  ``RATE_LIMIT_WRITES`` and ``RATE_LIMIT_PREVIEWS`` (per link),
  ``RATE_LIMIT_ADDRESS_WRITES`` and ``RATE_LIMIT_ADDRESS_PREVIEWS`` (the
  ceiling per address), ``RATELIMIT_ENABLED``: rate limits (``web/limits.py``).  In memory by
  default, which is per worker process: with several workers set
  ``REDIS_URL`` (or ``RATELIMIT_STORAGE_URI=redis://...``) so they share one count.
- ``TRUST_PROXY``: the number of proxies in front that append to
  X-Forwarded-For.  The client address is then the one the nearest of them
  saw (the n-th value from the right); values further left are the client's
  own words and never count.  Set it only when that many proxies really are
  in front: without one, every request could claim any address.
- ``MAX_CONTENT_LENGTH``: the largest request body in bytes (64 KiB); larger
  ones answer 413.
- ``API_CORS_ORIGINS``: comma-separated origins whose pages may call the JSON
  API from a browser (none by default).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any


def secret_key(instance_path: str) -> str:
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    path = Path(instance_path) / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    # Several workers may start at once: create exclusively, then read back.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key


def database_url(instance_path: str) -> str:
    url = os.environ.get("DATABASE_URL")
    if not url:
        return "sqlite:///" + os.path.join(instance_path, "companion.sqlite")
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def flag(name: str, default: bool) -> bool:
    """An on/off setting from the environment: 0, false or no turn it off."""
    value = os.environ.get(name, "").strip().lower()
    return default if not value else value not in ("0", "false", "no", "off")


def from_environment(instance_path: str) -> dict[str, Any]:
    proxies = int(os.environ.get("TRUST_PROXY", "0") or 0)
    return {
        "SECRET_KEY": secret_key(instance_path),
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True, "hide_parameters": True},
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO").upper(),
        "REDIS_URL": os.environ.get("REDIS_URL", ""),
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI") or os.environ.get("REDIS_URL") or "memory://",
        "RATELIMIT_ENABLED": flag("RATELIMIT_ENABLED", True),
        "RATELIMIT_HEADERS_ENABLED": True,
        "RATE_LIMIT_API": os.environ.get("RATE_LIMIT_API", "120 per minute"),
        "RATE_LIMIT_WRITES": os.environ.get("RATE_LIMIT_WRITES", "60 per minute"),
        "RATE_LIMIT_PREVIEWS": os.environ.get("RATE_LIMIT_PREVIEWS", "600 per minute"),
        "RATE_LIMIT_ADDRESS_WRITES": os.environ.get("RATE_LIMIT_ADDRESS_WRITES", "1200 per minute"),
        "RATE_LIMIT_ADDRESS_PREVIEWS": os.environ.get("RATE_LIMIT_ADDRESS_PREVIEWS", "6000 per minute"),
        "TRUST_PROXY": proxies,
        "MAX_CONTENT_LENGTH": int(os.environ.get("MAX_CONTENT_LENGTH", "") or 64 * 1024),
        "API_CORS_ORIGINS": os.environ.get("API_CORS_ORIGINS", ""),
        "SESSION_COOKIE_SECURE": proxies > 0 or flag("SECURE_COOKIES", False),
        "PLAY_BOT_APART": flag("PLAY_BOT_APART", True),
    }
