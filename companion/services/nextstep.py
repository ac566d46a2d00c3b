"""What may happen next at a table, and why not: the one owner of the rule.

Storing a hand, dealing one, answering "buy back in?", a rematch, and every
page that offers them (the scoreboard, the hand page, the game's board, a
tournament's dashboard) ask here; none of them re-derives the rule.  As the
engine's actions do, each question comes as a pair: ``verify_x`` raises a
coded :class:`~.unit.ServiceError` saying why not, ``can_x`` answers yes or no.

The next hand waits, in this order, for: a tournament table the organizer
closed, or whose result is final; a match that is over; a round on points
whose hands are all in; at a digital table, the hand being played; and the
players who went out in the last hand and may buy back in, until each has
answered (SPEC §4).  A table with nothing left to play asks nobody to buy
back in.

Ana (seat 0) closes the hand in which Dani goes out, with a re-entry left:
``next_step(table).refusal`` is ``REENTRY_PENDING`` and ``pending`` names
Dani; at a physical table any phone keeping the score answers, at a digital
one the table's phone or Dani's own phone; a computer player (or a seat
the computer plays for a person who left) answers for itself as soon as the
hand is stored (``seats.decide_for_computers``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import select

from ..extensions import db
from ..models import Deal, GameTable, TableKind
from .standing import Standing, next_seat, standing
from .unit import ServiceError

if TYPE_CHECKING:
    from .summary import Summary


class Refusal(StrEnum):
    """Why a table takes no next hand now (checked in this order)."""

    TABLE_CLOSED = "table_closed"  # a tournament table the organizer closed
    RESULT_FINAL = "result_final"  # a tournament table whose result is confirmed or corrected
    MATCH_OVER = "match_over"
    HAND_LIMIT = "hand_limit"  # a round on points: its hands are all in
    HAND_IN_PLAY = "playing"  # a digital table: the hand dealt is still being played
    REENTRY_PENDING = "reentry_pending"


class Phone(StrEnum):
    """Where a question comes from, as the record knows it."""

    #: The phone that keeps a physical table's score (any of its writing
    #: links), or that runs a digital table (deals, voids, plays hot-seat).
    TABLE = "table"
    #: One seat's own phone, at a digital table played on a phone each.
    SEAT = "seat"


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asks: a phone, the seat it plays (a seat's phone), and the name
    the others are told when it did something first ("Ana already dealt")."""

    phone: Phone
    seat: int | None = None
    name: str = ""


TABLE_PHONE = Asker(Phone.TABLE)


@dataclass(frozen=True, slots=True)
class Pending:
    """A player who went out in the last hand and has not said yet whether
    they buy back in; ``computer``: the computer answers it (``seats``)."""

    seat: int
    name: str
    computer: bool


@dataclass(frozen=True)
class NextStep:
    """A table's next step: the next hand (its number and dealer) and, when
    it may not come now, why (``refusal``), with the questions it waits for."""

    table: GameTable = field(repr=False)
    standing: Standing = field(repr=False)
    refusal: Refusal | None
    #: The next hand's number and the seat that deals it.
    number: int
    dealer: int
    #: The buy-back questions the next hand waits for, in seat order.
    pending: tuple[Pending, ...] = ()

    @property
    def can_take_hand(self) -> bool:
        return self.refusal is None

    @property
    def played_out(self) -> bool:
        """Nothing is left to play: the match is over, or the round's hands are in."""
        return self.refusal in (Refusal.MATCH_OVER, Refusal.HAND_LIMIT)

    @property
    def closed(self) -> bool:
        """A tournament table closed by the organizer or whose result is final: it takes no write at all."""
        return self.refusal in (Refusal.TABLE_CLOSED, Refusal.RESULT_FINAL)

    @property
    def more_to_play(self) -> bool:
        """The match goes on here: a next hand comes, now or once the hand in play or a buy-back is done."""
        return self.refusal in (None, Refusal.HAND_IN_PLAY, Refusal.REENTRY_PENDING)

    @property
    def dealer_settled(self) -> bool:
        """Who deals is known: no buy-back answer can still put a player back
        in the rotation before the dealer."""
        return self.more_to_play and self.refusal is not Refusal.REENTRY_PENDING

    @property
    def pending_seats(self) -> list[int]:
        return [p.seat for p in self.pending]

    def verify_hand(self, field: str = "closer") -> None:
        """Raise why the next hand may not come now (``field``: the form field it is about)."""
        if self.refusal is not None:
            raise self.error(field)

    def error(self, field: str) -> ServiceError:
        """The refusal as the coded error every writer raises."""
        table = self.table
        match self.refusal:
            case Refusal.REENTRY_PENDING:
                return ServiceError(self.refusal, field, names=[p.name for p in self.pending])
            case Refusal.HAND_LIMIT:
                return ServiceError(self.refusal, field, count=table.hand_limit)
            case Refusal.MATCH_OVER:
                return ServiceError(self.refusal, field, rematch=table.round_id is None)
            case None:
                raise ValueError("the next hand may come: nothing to refuse")
        return ServiceError(self.refusal, field)

    # -- "buy back in?" ---------------------------------------------------------------------
    def may_answer(self, seat: int, asker: Asker | None) -> bool:
        """Whether ``asker`` answers ``seat``'s buy-back question now."""
        return asker is not None and self._answer_refusal(seat, asker) is None

    def verify_answer(self, seat: int, asker: Asker) -> None:
        """Raise why ``asker`` may not answer ``seat``'s buy-back question now
        (``reentry_not_asked``: no question is open for that seat;
        ``reentry_not_yours``: another phone answers it)."""
        refusal = self._answer_refusal(seat, asker)
        if refusal is not None:
            raise refusal

    def _answer_refusal(self, seat: int, asker: Asker) -> ServiceError | None:
        name = self.table.names[seat] if 0 <= seat < len(self.table.players) else ""
        if seat not in self.pending_seats:
            return ServiceError("reentry_not_asked", "seat", name=name)
        if not answers_for(self.table, seat, asker):
            return ServiceError("reentry_not_yours", "seat", name=name)
        return None

    # -- digital tables: dealing -------------------------------------------------------------------
    def may_deal(self, asker: Asker | None) -> bool:
        """ "Deal the next hand" at a digital table: the table's phone or any seat's."""
        return asker is not None and self.table.kind is TableKind.DIGITAL and self.can_take_hand


# -- the questions -----------------------------------------------------------------------------
def next_step(table: GameTable, current: Standing | None = None, deal: Deal | None = None) -> NextStep:
    """The table's next step (``current``: its standing, ``deal``: a digital
    table's latest deal, when the caller has them; else read here)."""
    current = current or standing(table)
    if table.kind is TableKind.DIGITAL and deal is None:
        deal = latest_deal(table)
    in_play = deal is not None and deal.state.get("phase") != "over"
    refusal = closed_refusal(table) or ended(table, current.state.finished, current.last_number)
    pending: tuple[Pending, ...] = ()
    if refusal is None and not in_play:
        players = table.players
        pending = tuple(
            Pending(seat, players[seat].name, players[seat].played_by_computer) for seat in current.undecided
        )
    if refusal is None and in_play:
        refusal = Refusal.HAND_IN_PLAY
    if refusal is None and pending:
        refusal = Refusal.REENTRY_PENDING
    return NextStep(table, current, refusal, current.next_number, dealer(current, deal), pending)


def answers_for(table: GameTable, seat: int, asker: Asker | None) -> bool:
    """Whose phone answers ``seat``'s buy-back question, whenever one is
    asked: at a physical table the phone keeping the score; at a digital
    one the table's phone, the seat's own phone, or for a seat the computer
    plays (which answers itself as soon as it is asked) any seat's phone."""
    if asker is None:
        return False
    if table.kind is TableKind.PHYSICAL or asker.phone is Phone.TABLE:
        return asker.phone is Phone.TABLE
    return asker.seat == seat or table.players[seat].played_by_computer


def latest_deal(table: GameTable) -> Deal | None:
    """A digital table's latest deal (the one in play, or the last one played)."""
    return db.session.scalar(select(Deal).where(Deal.table_id == table.id).order_by(Deal.id.desc()).limit(1))


def dealer(current: Standing, deal: Deal | None) -> int:
    """Who deals the next hand: the dealer of the deal in play, or of one
    called off before anybody moved; after a void hand, the next player in
    play order (:func:`redealer`); else the next after the last hand's dealer."""
    if deal is None:
        return current.hands_dealer
    if deal.state.get("phase") != "over" or deal.called_off:  # in play, or called off: the same dealer
        return deal.seats[deal.state["dealer"]]
    return redealer(current, deal) if deal.state.get("void") else current.hands_dealer


def redealer(current: Standing, deal: Deal) -> int:
    """Who deals ``deal``'s hand again once it is void: the next player in play order."""
    seats = current.seats_in or list(range(len(current.table.players)))
    return next_seat(deal.seats[deal.state["dealer"]], seats)


def closed_refusal(table: GameTable) -> Refusal | None:
    """A tournament table closed by the organizer, or whose result is final,
    takes no write at all (only the organizer changes its result)."""
    if table.round_id is None:
        return None
    if table.closed_at is not None:
        return Refusal.TABLE_CLOSED
    latest = table.results[-1] if table.results else None
    if latest is not None and latest.kind.final:
        return Refusal.RESULT_FINAL
    return None


class HandLimited(Protocol):
    """A table as :func:`ended` reads it (a table, or a tournament page's row)."""

    @property
    def hand_limit(self) -> int | None: ...


def ended(table: HandLimited, finished: bool, hands: int) -> Refusal | None:
    """Nothing left to play: the match is over, or a round's hands are in."""
    if finished:
        return Refusal.MATCH_OVER
    if table.hand_limit is not None and hands >= table.hand_limit:
        return Refusal.HAND_LIMIT
    return None


def played_out(table: HandLimited, summary: Summary) -> bool:
    """The table has nothing left to play (from its stored summary)."""
    return ended(table, summary.finished, summary.hands) is not None


def verify_open(table: GameTable, field: str = "closer") -> None:
    """Any write to a table (a hand, a correction, an undo, a buy-back, its
    settings): refused once its tournament result is final or the organizer
    closed it."""
    refusal = closed_refusal(table)
    if refusal is not None:
        raise ServiceError(refusal, field)


def can_write(table: GameTable) -> bool:
    return closed_refusal(table) is None


def verify_next_hand(table: GameTable, current: Standing | None = None, field: str = "closer") -> NextStep:
    """The table may take its next hand now; returns the step (its number and dealer)."""
    step = next_step(table, current)
    step.verify_hand(field)
    return step


def verify_rematch(table: GameTable, current: Standing | None = None, *, finished: bool = True) -> None:
    """A rematch follows a finished match (``finished=False``: a group plays
    again from a match still going on), never at a tournament table: the
    organizer seats the next round."""
    if table.round_id is not None:
        raise ServiceError("rematch_tournament", "rematch")
    if finished and not (current or standing(table)).state.finished:
        raise ServiceError("match_on", "rematch")


def can_rematch(table: GameTable, current: Standing | None = None) -> bool:
    return table.round_id is None and (current or standing(table)).state.finished
