"""An unchanged scoreboard poll answered before Flask is reached.

Every phone at a table and every screen following it asks
``GET /t/<token>?since=<version>`` every two seconds; nearly always nothing
changed, and the answer is an empty ``204``.  :class:`PollShortcut` is a WSGI
middleware that gives that answer from one lookup of the table's version,
without the request machinery, the session, the templates or the table's
hands.  Anything else (another path, another query, a changed version, an
unknown link) goes on to the app, which answers as it always has.

The version comes from Redis when one is configured (``REDIS_URL``, or a
``redis://`` rate-limit store): one key per link, ``SET`` when a poll finds
none and raised after every commit that touched a table
(:func:`watch_commits`); never lowered, so a slow reader cannot put an old
version back over a newer one.  Keys expire after :data:`TTL` seconds, which
bounds how long a version written outside the app (or lost with a crashed
worker between its commit and its update) could be served.  Without Redis
the version is read from the database, one indexed ``SELECT``.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from flask import Flask, current_app, has_app_context
from sqlalchemy import bindparam, event, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from ..extensions import db
from ..models import GameTable
from .logs import request_id

log = logging.getLogger(__name__)

PATH = re.compile(r"/t/([A-Za-z0-9_-]{1,64})")
QUERY = re.compile(r"since=(\d{1,10})")
#: Seconds a cached version lives (see the module's docstring).
TTL = 30
PREFIX = "chinchon:version:"

#: Raise a key to a version, never lower it; refresh its lifetime either way.
RAISE = """
local seen = tonumber(redis.call('GET', KEYS[1]))
local version = tonumber(ARGV[1])
if seen == nil or seen < version then
  redis.call('SET', KEYS[1], version, 'EX', ARGV[2])
  return version
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return seen
"""


def key(token: str) -> str:
    """The Redis key of a link: a hash, so Redis never holds the secret itself."""
    return PREFIX + hashlib.sha256(token.encode()).hexdigest()[:32]


class Versions:
    """The version of the table behind a link, from Redis or the database.

    Redis away costs nothing but a ``SELECT`` a poll: the database answers,
    the log says so once (and once when Redis is back), and a write that
    could not raise its version there meanwhile is not served stale after:
    coming back, this worker drops every cached version, so the next polls
    read the database again."""

    def __init__(self, engine: Engine, redis: Any = None) -> None:
        self.engine = engine
        self.redis = redis
        self._raise = redis.register_script(RAISE) if redis is not None else None
        columns = (GameTable.owner_token, GameTable.player_token, GameTable.watch_token)
        self._query = select(GameTable.version).where(or_(*(c == bindparam("token") for c in columns)))
        self.away = False

    def of(self, token: str) -> int | None:
        if self.redis is not None:
            try:
                self._back()
                cached = self.redis.get(key(token))
            except Exception as error:  # Redis away: the database still answers
                self._lost(error)
                return self._read(token)
            if cached is not None:
                return int(cached)
        version = self._read(token)
        if version is not None:
            self.publish({token: version})
        return version

    def _read(self, token: str) -> int | None:
        with self.engine.connect() as connection:
            return connection.scalar(self._query, {"token": token})

    def publish(self, versions: dict[str, int | None]) -> None:
        """Raise each link's version (``None``: the table is gone)."""
        if self.redis is None or not versions:
            return
        try:
            self._back()
            with self.redis.pipeline(transaction=False) as pipe:
                for token, version in versions.items():
                    if version is None:
                        pipe.delete(key(token))
                    elif self._raise is not None:
                        self._raise(keys=[key(token)], args=[version, TTL], client=pipe)
                pipe.execute()
        except Exception as error:
            self._lost(error)

    def _lost(self, error: Exception) -> None:
        if not self.away:
            self.away = True
            log.warning("version cache (Redis) unreachable: polls read the database (%s)", type(error).__name__)

    def forget(self) -> int:
        """Drop every cached version (the record was replaced: a restore)."""
        if self.redis is None:
            return 0
        try:
            stale = list(self.redis.scan_iter(match=PREFIX + "*", count=500))
            if stale:
                self.redis.delete(*stale)
        except Exception as error:
            self._lost(error)  # and dropped when it is back
            return 0
        return len(stale)

    def _back(self) -> None:
        """After an outage, before Redis is read or written again: versions
        raised while it was away never reached it, so none it holds is
        trusted (raises while it is still away)."""
        if not self.away:
            return
        stale = list(self.redis.scan_iter(match=PREFIX + "*", count=500))
        if stale:
            self.redis.delete(*stale)
        self.away = False
        log.info("version cache (Redis) reachable again: %s cached versions dropped", len(stale))


class PollShortcut:
    """WSGI middleware: ``204`` for a scoreboard poll whose version is current."""

    def __init__(self, app: Callable, versions: Versions, headers: Callable[[dict], list[tuple[str, str]]]) -> None:
        self.app = app
        self.versions = versions
        self.headers = headers

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            path = PATH.fullmatch(environ.get("PATH_INFO", ""))
            since = QUERY.fullmatch(environ.get("QUERY_STRING", "")) if path else None
            if path and since and self._current(path.group(1), int(since.group(1))):
                start_response("204 NO CONTENT", self.headers(environ))
                return []
        return self.app(environ, start_response)

    def _current(self, token: str, since: int) -> bool:
        """Whether ``since`` is the version now; any trouble finding out (the
        database away) is the app's to answer, with its own error page."""
        try:
            return self.versions.of(token) == since
        except Exception:
            log.warning("poll shortcut could not read a version: the app answers", exc_info=True)
            return False


def init_app(app: Flask, headers: list[tuple[str, str]]) -> None:
    """Put the shortcut in front of the app; ``headers`` are the ones every
    answer carries (the security headers), sent with each ``204`` as well."""
    with app.app_context():
        engine = db.engine
    versions = Versions(engine, _redis(app.config))
    app.extensions["versions"] = versions
    secure = [("Strict-Transport-Security", "max-age=31536000; includeSubDomains")]

    def answer_headers(environ: dict) -> list[tuple[str, str]]:
        extra = secure if environ.get("wsgi.url_scheme") == "https" else []
        return [
            ("Cache-Control", "no-store"),
            *headers,
            *extra,
            ("X-Request-ID", request_id(environ.get("HTTP_X_REQUEST_ID", ""))),
        ]

    app.wsgi_app = PollShortcut(app.wsgi_app, versions, answer_headers)  # type: ignore[method-assign]
    if versions.redis is not None:
        _watch_commits()


def _redis(config) -> Any:
    url = config.get("REDIS_URL") or ""
    if not url and str(config.get("RATELIMIT_STORAGE_URI", "")).startswith(("redis://", "rediss://")):
        url = config["RATELIMIT_STORAGE_URI"]
    if not url:
        return None
    import redis

    return redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)


@cache
def _watch_commits() -> None:
    """After each commit, raise the cached version of every table the session
    held (the links of a deleted table are dropped); a rollback sends nothing.
    Registered once for every app of the process; each commit goes to its own
    app's cache."""
    from flask_sqlalchemy.session import Session as FlaskSession

    @event.listens_for(FlaskSession, "after_flush")
    def gone(session: Session, _context) -> None:
        for row in session.deleted:
            if isinstance(row, GameTable):
                session.info.setdefault("versions", {}).update(dict.fromkeys(_links(row)))

    @event.listens_for(FlaskSession, "before_commit")
    def held(session: Session) -> None:
        pending = session.info.setdefault("versions", {})
        for row in list(session.identity_map.values()):
            if isinstance(row, GameTable) and "version" in row.__dict__:
                pending.update(dict.fromkeys(_links(row), row.version))

    @event.listens_for(FlaskSession, "after_commit")
    def sent(session: Session) -> None:
        pending = session.info.pop("versions", {})
        versions = current_app.extensions.get("versions") if has_app_context() else None
        if versions is not None:
            versions.publish(pending)

    @event.listens_for(FlaskSession, "after_rollback")
    def dropped(session: Session) -> None:
        session.info.pop("versions", None)


def _links(row: GameTable) -> list[str]:
    return [t for t in (row.owner_token, row.player_token, row.watch_token) if t]
