"""One unit of work for every write.

A write is one call to a service inside :func:`transaction`: it checks the
form's one-time submission id (a replayed form stores nothing twice), checks
the rules, claims the row's next version (a stale form loses: :func:`claim`)
and builds its rows.  It is committed whole, or rolled back whole on any
error, so a refused write changes nothing.  Services never commit.

Refusals are :class:`ServiceError` codes with parameters;
``companion/web/messages.py`` alone words them.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

from sqlalchemy import CursorResult, event, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..extensions import db
from ..models import Deal, GameTable, Group, Hand, Reentry, Tournament, now
from ..rules import ChinchonError


class StaleError(Exception):
    """Somebody else wrote since this form was shown."""


class AlreadySaved(Exception):
    """This exact form was already stored (a retry or a double tap).

    A creation form's says what it made then: ``made``, the owner link of
    that table, tournament or group, so its sender is led there.  When its
    twin, sent at the same moment, stored first, that row is committed but
    unseen by this write: ``find`` reads its link once this write is rolled
    back (:meth:`made_link`)."""

    def __init__(self, made: str | None = None, *, find: Callable[[], str | None] | None = None) -> None:
        super().__init__()
        self.made = made
        self.find = find

    def made_link(self) -> str | None:
        """The owner link of what the form made (None: not a creation form's),
        read when only ``find`` knows it: call it after the rollback."""
        if self.made is None and self.find is not None:
            self.made = self.find()
        return self.made


class ServiceError(ChinchonError):
    """A write the record does not allow; ``params["key"]`` says which."""

    code = "score"

    def __init__(self, key: str, field: str = "", **params: object) -> None:
        super().__init__(f"Refused: {key}.", field, key=key, **params)

    def at(self, field: str) -> ServiceError:
        params = {k: v for k, v in self.params.items() if k != "key"}
        return type(self)(self.params["key"], field, **params)


class AlreadyDone(ServiceError):
    """What this write asks for was done meanwhile, from another phone (the
    next hand dealt, a buy-back answered): nothing to do, and news rather
    than a failure; ``params`` say who did it (``by``, "" when unknown)."""


#: ``session.info`` key: the tables this unit of work made or claimed.
WRITTEN = "companion.written_tables"

#: Called with the tables a unit of work made or claimed, after its last
#: flush and before its commit, in the same transaction (:func:`before_commit`).
_HOOKS: list[Callable[[Sequence[GameTable]], None]] = []


def before_commit(hook: Callable[[Sequence[GameTable]], None]) -> None:
    """Run ``hook`` in every unit of work that wrote to a table, before it
    commits: what depends on a table's rows (its summary) is written in the
    same commit as the rows, never after."""
    if hook not in _HOOKS:
        _HOOKS.append(hook)


@contextmanager
def transaction() -> Iterator[None]:
    """One write: committed whole, or rolled back whole on any error.  Before
    the commit, the :func:`before_commit` hooks see every table it made or
    claimed (each table's summary as of its new version), in the same commit."""
    try:
        yield
        _before_commit()
    except BaseException:
        db.session.rollback()
        db.session.info.pop(WRITTEN, None)
        raise
    db.session.commit()


def _before_commit() -> None:
    db.session.flush()
    written = db.session.info.pop(WRITTEN, {})
    tables = [t for t in written.values() if t in db.session and t not in db.session.deleted and t.id is not None]
    if tables and _HOOKS:
        for hook in _HOOKS:
            hook(tables)
        db.session.flush()


@event.listens_for(Session, "before_flush")
def _note_new_tables(session: Session, _context: object, _instances: object) -> None:
    for row in session.new:
        if isinstance(row, GameTable):
            session.info.setdefault(WRITTEN, {})[id(row)] = row


def claim(row: GameTable | Deal | Tournament, seen_version: int | None) -> None:
    """The optimistic lock: take ``row``'s next version (a table or a deal)
    in one conditional UPDATE, or :class:`StaleError` if another write came
    first.  Two phones (or two workers) racing cannot both win."""
    if seen_version is None or not 0 < seen_version < 2**31:
        raise StaleError  # not a version this row ever had (a forged or garbled form)
    model = type(row)
    values: dict[str, Any] = {"version": model.version + 1}
    if model is GameTable:
        values["updated_at"] = now()
    result = db.session.execute(
        update(model)
        .where(model.id == row.id, model.version == seen_version)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if cast(CursorResult[Any], result).rowcount != 1:
        raise StaleError
    db.session.refresh(row, list(values))
    if model is GameTable:
        db.session.info.setdefault(WRITTEN, {})[id(row)] = row


def touch(table: GameTable) -> None:
    """The table's next version without a form's claim, for a change its
    pages show that no form of the table's was about (a digital hand voided
    moves who deals next): every phone's poll sees it, and a form shown
    before is refused as stale after it."""
    db.session.execute(
        update(GameTable)
        .where(GameTable.id == table.id)
        .values(version=GameTable.version + 1, updated_at=now())
        .execution_options(synchronize_session=False)
    )
    db.session.refresh(table, ["version", "updated_at"])
    db.session.info.setdefault(WRITTEN, {})[id(table)] = table


def check_new_submission(model: type[Hand] | type[Reentry], table: GameTable, submission: str) -> None:
    """A submission id is stored once per table; seeing it again means a replayed form."""
    seen = select(model.id).where(model.table_id == table.id, model.submission == submission)
    if table.id is not None and db.session.scalar(seen) is not None:
        raise AlreadySaved


#: A form's one-time submission id as the pages make it (uuid4().hex): 128
#: random bits that only the browser showing the form holds.  Ids the server
#: makes itself (``deal-7``) never match, so a form cannot forge one.
SUBMISSION_ID = re.compile(r"[0-9a-f]{32}")

#: What a creation form makes: the row stores the form's submission id.
Created = GameTable | Tournament | Group


def one_time(submission: str | None) -> str | None:
    """A creation form's submission id, or None for anything the pages never
    make (empty, too long, not hex): that is no id, never looked up nor stored,
    so it matches nothing and the creation is a fresh one.

    >>> one_time("0123456789abcdef0123456789abcdef"), one_time(""), one_time("deal-7"), one_time("A" * 32)
    ('0123456789abcdef0123456789abcdef', None, None, None)
    """
    return submission if submission and SUBMISSION_ID.fullmatch(submission) else None


def _made_by(model: type[Created], submission: str) -> str | None:
    return db.session.scalar(select(model.owner_token).where(model.submission == submission))


def check_new_creation(model: type[Created], submission: str | None) -> None:
    """A creation form sent again (Back, then Create) made its row already:
    :class:`AlreadySaved` with that row's owner link."""
    submission = one_time(submission)
    if submission is not None and (made := _made_by(model, submission)) is not None:
        raise AlreadySaved(made)


def add_created(row: Created) -> None:
    """Add a row a creation form made.  With a submission id it is written
    now: its twin, the same form sent at the same moment, may have stored the
    id first (the column's unique index), and then this write stores nothing
    and answers the twin's row, as a form sent again would."""
    db.session.add(row)
    if row.submission is None:
        return
    model, submission = type(row), row.submission
    try:
        db.session.flush()
    except IntegrityError as error:
        failed = error  # the name ``error`` is gone once this block ends

        def twin() -> str:
            made = _made_by(model, submission)
            if made is None:
                raise failed  # no twin stored this id: the write failed for another reason
            return made

        raise AlreadySaved(find=twin) from None


def new_token() -> str:
    """A secret link: 128 random bits."""
    return secrets.token_urlsafe(16)
