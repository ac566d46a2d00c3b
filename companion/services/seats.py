"""Who is at a digital table, and who plays each seat: the one owner of
presence and of the computer taking a seat for a person who left.

**Presence.**  A seat's phone is *here* while its own link keeps asking
(its game page polls every second, so a phone seen within
:data:`AWAY_AFTER` is here); otherwise it is *away*, since it was last
seen.  The time is written to the seat's row when its link asks, at most
every :data:`SEEN_EVERY`, so presence costs one small write a few seconds
apart per phone, and every worker reads the same answer from the database.

**The computer takes a seat.**  The table's owner hands any person's seat
to the computer, and gives it back, at any time.  Any other phone at the
table may hand over the seat the game waits on (its turn, or its answer
to "buy back in?") once that seat's phone has been away for
:data:`GRACE`.  The person takes the seat back from their own link ("I'm
back").  While the computer plays a seat it plays as the good computer
player does (:data:`STAND_IN`, an average player, as card rooms use), each
of its moves is marked in the deal (``Deal.covered``: "played by the
computer for Carla"), and it answers the seat's buy-back question itself
(:func:`decide_for_computers`), as computer players answer theirs.

Carla's phone closes during her turn; Ana's phone, 60 s later, may hand
Carla's seat to the computer, which plays her turn at once; Carla opens
her link again and taps "I'm back": the next turn is hers to play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from ..bots.reentry import buys_back
from ..extensions import db
from ..models import Deal, GameTable, Player, PlayerKind, PlayMode, Reentry, TableKind, now
from ..rules.match import MatchState
from .nextstep import Asker, NextStep, Phone, latest_deal, next_step, verify_open
from .reentries import reenter
from .standing import standing
from .unit import ServiceError, claim, new_token

#: A seat's phone's presence is written at most this often.
SEEN_EVERY = timedelta(seconds=5)
#: A seat's phone not seen for this long is away (its page asks every second).
AWAY_AFTER = timedelta(seconds=15)
#: Away this long while the game waits on the seat: any other phone may hand it to the computer.
GRACE = timedelta(seconds=60)
#: The computer player that plays a person's seat handed over.
STAND_IN = PlayerKind.GOOD


class Presence(StrEnum):
    COMPUTER = "computer"  # a computer player
    HERE = "here"
    AWAY = "away"  # since ``since``; never seen when ``since`` is None
    STAND_IN = "stand_in"  # a person's seat the computer plays for now


@dataclass(frozen=True, slots=True)
class SeatPresence:
    seat: int
    name: str
    presence: Presence
    #: Away since (last seen), or played by the computer since.
    since: datetime | None = None
    #: The game waits on this seat now (its turn, or its buy-back answer).
    waited_on: bool = False
    #: Away past the grace period while the game waits on it: another phone may hand it over.
    overdue: bool = False
    #: Away: whole minutes since the phone was last seen (or, never seen, since the table began).
    minutes: int = 0


def seen_due(player: Player, at: datetime | None = None, phone: str = "") -> bool:
    """Whether the seat's presence is due to be written (a read: no write when not)."""
    return _seen_change(player, at or now(), phone) is not None


def note_seen(player: Player, at: datetime | None = None, phone: str = "") -> bool:
    """The seat's own link asked for its page from ``phone`` (its browser's
    random name, "" unknown): remember when (at most every
    :data:`SEEN_EVERY`) and, asked from another phone while the last one
    is here, that the seat is open on two.  True when written; nothing
    else at the table changes."""
    at = at or now()
    change = _seen_change(player, at, phone)
    if change is None:
        return False
    for key, value in change.items():
        setattr(player, key, value)
    return True


def _seen_change(player: Player, at: datetime, phone: str) -> dict[str, object] | None:
    """What a phone's asking writes to the seat's row, None when nothing is due."""
    here = player.seen_at is not None and at - player.seen_at < AWAY_AFTER
    if phone and player.seen_by and phone != player.seen_by and here:  # a second phone
        if player.shared_at is not None and at - player.shared_at < SEEN_EVERY:
            return None
        return {"seen_at": at, "seen_by": phone, "shared_at": at}
    named = bool(phone) and not player.seen_by  # the first phone that names itself: remembered at once
    if player.seen_at is not None and at - player.seen_at < SEEN_EVERY and not named:
        return None
    return {"seen_at": at, "seen_by": phone}  # "": a phone not named yet (never taken for the last one)


def open_twice(player: Player, at: datetime | None = None) -> bool:
    """The seat's link was asked from two phones within :data:`AWAY_AFTER`."""
    return player.shared_at is not None and (at or now()) - player.shared_at < AWAY_AFTER


def waited_on(table: GameTable, step: NextStep, deal: Deal | None) -> set[int]:
    """The table seats the game waits on now: the seat to move in the hand in
    play, or the players whose buy-back answer the next hand waits for."""
    if deal is not None and deal.state.get("phase") != "over":
        return {deal.seats[deal.state["turn"]]}
    return set(step.pending_seats)


def presence(
    table: GameTable, deal: Deal | None = None, step: NextStep | None = None, at: datetime | None = None
) -> list[SeatPresence]:
    """Every seat of a digital table played on a phone each, in seat order."""
    at = at or now()
    step = step or next_step(table, deal=deal)
    waiting = waited_on(table, step, deal)
    out = []
    for player in table.players:
        waits = player.seat in waiting
        state = _state(player, at)
        if state is Presence.AWAY:
            gone = at - (player.seen_at or table.created_at)
            minutes = int(gone / timedelta(minutes=1))
            out.append(
                SeatPresence(player.seat, player.name, state, player.seen_at, waits, waits and gone >= GRACE, minutes)
            )
        else:
            out.append(SeatPresence(player.seat, player.name, state, player.stand_in_since, waits))
    return out


def is_away(player: Player, at: datetime | None = None) -> bool:
    """A person's seat whose phone is away now (never seen, or not for :data:`AWAY_AFTER`)."""
    return _state(player, at or now()) is Presence.AWAY


def _state(player: Player, at: datetime) -> Presence:
    if player.kind.computer:
        return Presence.COMPUTER
    if player.stand_in_since is not None:
        return Presence.STAND_IN
    if player.seen_at is not None and at - player.seen_at < AWAY_AFTER:
        return Presence.HERE
    return Presence.AWAY


def presence_marker(table: GameTable, at: datetime | None = None) -> str:
    """What the pages show of presence, cheaply, for a poll to notice a
    change: each seat's state and, away, the whole minutes since it was
    last seen (so a page shows "away 2 min" and, past :data:`GRACE`, the
    button to hand the seat over)."""
    at = at or now()
    out = []
    for player in table.players:
        state = _state(player, at)
        out.append(state.value[0] + ("2" if open_twice(player, at) else ""))
        if state is Presence.AWAY:
            out.append(str(int((at - (player.seen_at or table.created_at)) / timedelta(minutes=1))))
    return "".join(out)


# -- handing a seat over ----------------------------------------------------------------------------
def verify_hand_over(
    table: GameTable,
    seat: int,
    asker: Asker,
    *,
    owner: bool,
    deal: Deal | None = None,
    step: NextStep | None = None,
    at: datetime | None = None,
) -> Player:
    """Raise why ``asker`` may not hand ``seat`` to the computer now; the
    player otherwise (``deal``, ``step``: the table's, when the caller has them)."""
    player = _person(table, seat)
    if player.stand_in_since is not None:
        raise ServiceError("seat_handed_over", "seat", name=player.name)
    if owner:
        return player
    if asker.phone is Phone.SEAT and asker.seat == seat:
        raise ServiceError("seat_own", "seat", name=player.name)
    shown = next(s for s in presence(table, deal, step, at=at) if s.seat == seat)
    if not shown.overdue:
        raise ServiceError("seat_not_overdue", "seat", name=player.name, seconds=int(GRACE.total_seconds()))
    return player


def can_hand_over(
    table: GameTable,
    seat: int,
    asker: Asker | None,
    *,
    owner: bool,
    deal: Deal | None = None,
    step: NextStep | None = None,
    at: datetime | None = None,
) -> bool:
    if asker is None:
        return False
    try:
        verify_hand_over(table, seat, asker, owner=owner, deal=deal, step=step, at=at)
    except ServiceError:
        return False
    return True


def hand_over(
    table: GameTable, seat: int, version: int | None, asker: Asker, *, owner: bool, at: datetime | None = None
) -> Player:
    """The computer plays ``seat`` from now on (until the person takes it back):
    it answers a buy-back question waiting on the seat now, and plays the
    seat's turns as computer players do (``play.hand_seat_over`` lets it
    play a turn that waits at once)."""
    verify_open(table, "seat")
    at = at or now()
    deal = latest_deal(table)
    player = verify_hand_over(table, seat, asker, owner=owner, deal=deal, at=at)
    claim(table, version)
    player.stand_in_since = at
    player.stand_in_by = "" if owner else asker.name
    db.session.flush()
    decide_for_computers(table)
    return player


#: ``Player.stand_in_by`` of a seat the turn clock handed over.
BY_THE_CLOCK = "(clock)"


def hand_to_clock(table: GameTable, player: Player, at: datetime | None = None) -> bool:
    """The seat's turn ran out of time (``clock``): when its phone is away too,
    the computer plays the seat from now on, as if a phone had handed it over
    (part of the write that plays the turn).  True when handed over."""
    at = at or now()
    if player.played_by_computer or _state(player, at) is not Presence.AWAY:
        return False
    player.stand_in_since = at
    player.stand_in_by = BY_THE_CLOCK
    return True


def take_back(table: GameTable, seat: int, version: int | None, asker: Asker, *, owner: bool) -> Player:
    """The person plays ``seat`` again ("I'm back"): from their own phone, or the owner for them."""
    verify_open(table, "seat")
    player = verify_take_back(table, seat, asker, owner=owner)
    claim(table, version)
    player.stand_in_since = None
    player.stand_in_by = ""
    if asker.phone is Phone.SEAT and asker.seat == seat:
        player.seen_at = now()
    return player


def verify_take_back(table: GameTable, seat: int, asker: Asker, *, owner: bool) -> Player:
    """Raise why ``asker`` may not give ``seat`` back to its person now; the player otherwise."""
    player = _person(table, seat)
    if not owner and not (asker.phone is Phone.SEAT and asker.seat == seat):
        raise ServiceError("seat_not_yours", "seat", name=player.name)
    if player.stand_in_since is None:
        raise ServiceError("seat_not_handed_over", "seat", name=player.name)
    return player


def can_take_back(table: GameTable, seat: int, asker: Asker | None, *, owner: bool) -> bool:
    if asker is None:
        return False
    try:
        verify_take_back(table, seat, asker, owner=owner)
    except ServiceError:
        return False
    return True


def renew_link(table: GameTable, seat: int, version: int | None) -> Player:
    """The owner gives ``seat`` a new secret link: the old one opens nothing
    any more (a link sent to the wrong phone, or shared too widely)."""
    verify_open(table, "seat")
    player = _person(table, seat)
    claim(table, version)
    player.seat_token = new_token()
    return player


def _person(table: GameTable, seat: int) -> Player:
    if table.kind is not TableKind.DIGITAL or table.play_mode is not PlayMode.DEVICES:
        raise ServiceError("seat_no_phones", "seat")
    if not 0 <= seat < len(table.players):
        raise ServiceError("unknown_player", "seat")
    player = table.players[seat]
    if player.kind.computer:
        raise ServiceError("seat_computer", "seat", name=player.name)
    return player


# -- decisions --------------------------------------------------------------------------------------
def decide_for_absent(table: GameTable, step: NextStep | None = None, at: datetime | None = None) -> list[Reentry]:
    """A person's "buy back in?" open for :data:`GRACE` while their phone has
    been away as long: they stay out, said on every phone (``Reentry.away``),
    so the table never waits on a phone that left (SPEC §4: the answer comes
    before the next hand).  Settled lazily, by the next request or poll."""
    if table.play_mode is not PlayMode.DEVICES:
        return []
    at = at or now()
    step = step or next_step(table)
    hands = table.active_hands()
    if not step.pending or not hands or at - hands[-1].created_at < GRACE:
        return []
    gone = [p.seat for p in step.pending if _gone_for_grace(table.players[p.seat], at)]
    return _answer(table, gone, lambda _state, _name: True, away=True)


def may_have_left(table: GameTable, deal: Deal, at: datetime | None = None) -> bool:
    """Cheap, from rows already loaded, for every poll of a finished deal:
    whether :func:`decide_for_absent` could answer for anybody now (the
    hand ended :data:`GRACE` ago and a person's phone is gone as long), so
    a table where everybody is here never replays its match to find out."""
    at = at or now()
    return (
        table.play_mode is PlayMode.DEVICES
        and at - deal.updated_at >= GRACE
        and any(_gone_for_grace(player, at) for player in table.players)
    )


def _gone_for_grace(player: Player, at: datetime) -> bool:
    """A person (not a seat the computer plays) whose phone has not asked for :data:`GRACE`."""
    return not player.played_by_computer and (player.seen_at is None or at - player.seen_at >= GRACE)


def decide_for_computers(table: GameTable, step: NextStep | None = None) -> list[Reentry]:
    """Answer every open buy-back question of a seat the computer plays (a
    computer player, or a person's seat handed over): the expert's own
    choice (``bots.reentry``), given in its name."""
    step = step or next_step(table)
    computer = [p.seat for p in step.pending if table.players[p.seat].played_by_computer]
    return _answer(table, computer, lambda state, name: not buys_back(state, name), away=False)


def _answer(
    table: GameTable, seats: list[int], declines: Callable[[MatchState, str], bool], *, away: bool
) -> list[Reentry]:
    """The server's own answers, in seat order, each through the one write of
    an answer (``reentries.reenter``: it claims the table's version, so every
    phone shows it) and each seeing the ones before (a buy-back raises the
    re-entry total of the next)."""
    made = []
    for seat in seats:
        name = table.names[seat]
        current = standing(table)
        state = current.state
        if not state.can_reentry(name):
            continue
        after = current.last_number
        submission = f"{'away' if away else 'computer'}-{after}-{seat}-{len(table.reentries)}"
        asker = Asker(Phone.TABLE, name="" if away else name)
        made.append(
            reenter(table, table.version, submission, seat, declined=declines(state, name), asker=asker, away=away)
        )
    return made
