"""Faults a test injects into the app it runs (issue #37)."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from companion.extensions import db


class DatabaseGone:
    """From the moment it is armed, every statement of ``app`` fails as a
    database that went away does (a restart, a dropped connection)."""

    def __init__(self, app: Flask) -> None:
        self.armed = False
        with app.app_context():
            self.engine = db.engine
        event.listen(self.engine, "before_cursor_execute", self.refuse)

    def refuse(self, *_args: object, **_kwargs: object) -> None:
        if self.armed:
            raise OperationalError("SELECT …", {}, Exception("server closed the connection unexpectedly"))

    def after_the_next_commit(self) -> None:
        """Arm right after the next commit: the write is stored, then the database is gone."""

        def arm(_session: object) -> None:
            self.armed = True

        event.listen(db.session, "after_commit", arm, once=True)

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self.refuse)
