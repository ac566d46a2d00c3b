"""Buying back in (reenganche): the answer of a player who went out, right
after the hand in which they went out and before the next (SPEC §4)."""

from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..models import GameTable, Reentry
from .nextstep import TABLE_PHONE, Asker, Refusal, next_step, verify_open
from .standing import standing
from .unit import AlreadyDone, ServiceError, StaleError, check_new_submission, claim


def reenter(
    table: GameTable,
    version: int | None,
    submission: str,
    seat: int,
    *,
    declined: bool = False,
    asker: Asker = TABLE_PHONE,
    away: bool = False,
) -> Reentry:
    """Buy ``seat``'s player back in, or (``declined``) record that they said
    no; ``asker`` is the phone answering (``nextstep`` says which may), or
    the server answering itself (``seats``: for a seat the computer plays,
    or ``away``, for a person whose phone left).

    An answer already given, from this phone or another, is :class:`AlreadyDone`
    (saying who answered and what), never a failure."""
    check_new_submission(Reentry, table, submission)
    verify_open(table, "seat")
    if not 0 <= seat < len(table.players):
        raise ServiceError("unknown_player", "seat")
    current = standing(table)
    after = current.last_number
    _verify_undecided(table, seat, after)
    step = next_step(table, current)
    if seat not in step.pending_seats:
        if step.refusal in (Refusal.TABLE_CLOSED, Refusal.RESULT_FINAL, Refusal.MATCH_OVER, Refusal.HAND_LIMIT):
            raise step.error("seat")
        current.state.verify_reentry(table.names[seat])  # the engine's reason: still in, too late, used up
        raise ServiceError("reentry_not_asked", "seat")
    step.verify_answer(seat, asker)
    try:
        claim(table, version)
    except StaleError:
        _verify_undecided(table, seat, after)  # another phone's answer, committed meanwhile
        raise
    entry = Reentry(
        after_hand=after, seat=seat, submission=submission, declined=declined, decided_by=asker.name, away=away
    )
    table.reentries.append(entry)
    return entry


def _verify_undecided(table: GameTable, seat: int, after: int) -> None:
    """Raise :class:`AlreadyDone` when ``seat`` has answered after hand ``after`` (read from the database)."""
    answered = db.session.scalar(
        select(Reentry)
        .where(Reentry.table_id == table.id, Reentry.seat == seat, Reentry.after_hand == after)
        .where(Reentry.undone_at.is_(None))
        .order_by(Reentry.id.desc())
        .limit(1)
    )
    if answered is not None:
        name = table.names[seat]
        raise AlreadyDone("reentry_decided", "seat", name=name, by=answered.decided_by, back_in=not answered.declined)
