"""Undo the last action at a table, and bring the hand undone last back in one tap."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..models import GameTable, Hand, now
from ..rules import MatchError
from .nextstep import can_write, next_step, verify_open
from .standing import HandMisfit, Standing, replay, standing
from .unit import ServiceError, claim


class Undone(StrEnum):
    """What :func:`undo_last` took back."""

    HAND = "hand"
    REENTRY = "reentry"  # a player's buy-back
    DECLINED = "declined"  # a player's "no": the question is open again


def can_undo(table: GameTable, current: Standing) -> bool:
    """Something to undo (a hand or a buy-back), at a table that takes writes."""
    return can_write(table) and bool(current.rows or table.active_reentries())


def undo_last(table: GameTable, version: int | None) -> Undone:
    """Undo the most recent action (a re-entry, or else the last hand)."""
    verify_open(table, "undo")
    current = standing(table)
    last_reentries = [r for r in table.active_reentries() if r.after_hand == current.last_number]
    hands = table.active_hands()
    if not last_reentries and not hands:
        raise ServiceError("nothing_to_undo", "undo")
    claim(table, version)
    stamp = now()
    if last_reentries:
        undone = max(last_reentries, key=lambda r: r.id)
        undone.undone_at = stamp
        return Undone.DECLINED if undone.declined else Undone.REENTRY
    hands[-1].undone_at = stamp
    return Undone.HAND


@dataclass(frozen=True, slots=True)
class Restorable:
    """The hand undone last, with why it cannot come back now (``None``: one
    tap restores it)."""

    hand: Hand
    refusal: ServiceError | None = None


def restorable_hand(table: GameTable, current: Standing | None = None) -> Restorable | None:
    """The hand undone last, while nothing was saved in its place since (its
    number is the next one again), and whether :func:`restore_hand` would
    bring it back: not while a re-entry decision is pending, nor when the
    match with it no longer replays (an earlier hand corrected since, a
    re-entry undone)."""
    current = current or standing(table)
    if not can_write(table):
        return None
    undone = [h for h in table.hands if h.undone_at is not None and h.replaced_by_id is None]
    if not undone:
        return None
    last = max(undone, key=lambda h: (h.undone_at, h.id))
    if last.number != current.next_number:
        return None
    return Restorable(last, _restore_refusal(table, current, last))


def _restore_refusal(table: GameTable, current: Standing, hand: Hand) -> ServiceError | None:
    pending = next_step(table, current).pending
    if pending:
        names = [p.name for p in pending]
        return ServiceError("not_restorable", "restore", number=hand.number, why="reentry_pending", names=names)
    try:
        replay(table, [*table.active_hands(), hand], table.active_reentries())
    except HandMisfit as misfit:
        by_id = {h.id: h for h in table.hands}
        corrected = [
            h.number
            for h in table.hands
            if h.replaced_by_id is not None
            and h.number < hand.number
            and by_id[h.replaced_by_id].created_at >= hand.undone_at  # type: ignore[operator]
        ]
        if corrected:
            return ServiceError("not_restorable", "restore", **misfit.params, why="corrected", corrected=max(corrected))
        return ServiceError("not_restorable", "restore", **misfit.params, why="misfit")
    except MatchError:
        return ServiceError("not_restorable", "restore", number=hand.number, why="other")
    return None


def restore_hand(table: GameTable, version: int | None, number: int | None) -> int:
    """Bring back the hand undone last (inside :func:`transaction`, version-checked).

    Raises :class:`StaleError` when the table changed since the page was
    shown, :class:`ServiceError` when that hand cannot come back (saying why,
    as :func:`restorable_hand` does).
    """
    verify_open(table, "restore")
    found = restorable_hand(table)
    if found is None or found.hand.number != number:
        raise ServiceError("not_restorable", "restore")
    if found.refusal is not None:
        raise found.refusal
    claim(table, version)
    found.hand.undone_at = None
    return found.hand.number
