"""Flask extensions, created unbound and initialised in :func:`create_app`."""

import logging

from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


class Database(SQLAlchemy):
    """Flask-SQLAlchemy, but the end of a request never fails: closing the
    session of a request whose database went away (a restart) raises from the
    rollback, after the answer was decided; the connection is dropped and the
    pool makes a new one for the next request."""

    def _teardown_session(self, exc: BaseException | None) -> None:
        try:
            super()._teardown_session(exc)
        except Exception:
            logging.getLogger(__name__).warning(
                "database session not closed cleanly; connection dropped", exc_info=True
            )


db = Database(model_class=Base)
csrf = CSRFProtect()
migrate = Migrate()
#: In memory by default; RATELIMIT_STORAGE_URI (e.g. redis://...) shares it between servers.
limiter = Limiter(get_remote_address)
