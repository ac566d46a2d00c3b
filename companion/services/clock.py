"""The turn clock of a digital table on a phone each: the one owner of how
long a person may think over a turn and of what happens when the time runs out.

A clock gives every turn its seconds and every seat, for the hand, a
reserve: a turn that takes longer than its seconds spends the reserve, and
once both are spent the computer plays that turn for the seat (marked in
the moves, as every turn the computer plays for a person).  A seat whose
phone is away by then (``seats``) is handed to the computer for the turns
after it too, until its person taps "I'm back".

The numbers, with the card rooms that set them (README, "Digital play"):

- **relaxed**, 60 s a turn and 3 min of reserve a hand: a turn of Chinchón
  is one draw and one discard, a minute is ample for a considered move;
  the reserve covers a hard close or two a hand.  lichess lets a player
  claim a game after 40 s of absence, Gametwist and Colonist hand an
  absent seat to the computer after 2 minutes: a phone that left holds
  the table at most 4 minutes, once.
- **quick**, 20 s a turn and 1 min of reserve: Ludoteka's quick tables
  give 3–6 s a turn plus a reserve, for a game played by tapping; at a
  table of friends on their own phones 20 s leaves time to look up.

Everything is stored in the deal (the clock it was dealt with, when the
turn in play began, each seat's reserve left), so the time is the same on
every phone and every worker, and the clock is settled lazily: the next
request or poll after a turn's time ran out plays that turn
(``play.advance``), claiming the deal's version, so two phones asking at
once play it once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ..models import Deal, GameTable, PlayMode, TurnClock, now
from ..rules.game import HandGame, Phase


@dataclass(frozen=True, slots=True)
class Pace:
    """A turn's seconds, and a seat's reserve for a hand."""

    turn: timedelta
    reserve: timedelta


PACES = {
    TurnClock.RELAXED: Pace(timedelta(seconds=60), timedelta(minutes=3)),
    TurnClock.QUICK: Pace(timedelta(seconds=20), timedelta(minutes=1)),
}


def pace_of(clock: TurnClock) -> Pace | None:
    return PACES.get(clock)


def clock_for(table: GameTable) -> TurnClock:
    """The clock a new deal of ``table`` is played on: only a phone each has one."""
    return table.turn_clock if table.play_mode is PlayMode.DEVICES else TurnClock.OFF


@dataclass(frozen=True, slots=True)
class TurnTime:
    """The time of the turn in play, as every phone shows it."""

    engine_seat: int
    #: Seconds left of the turn's own time, then of the seat's reserve.
    turn_left: int
    reserve_left: int
    deadline: datetime
    #: The seat's phone is away: the computer plays when the turn's seconds run out.
    away: bool = False


def start(deal: Deal, clock: TurnClock, seats: int, at: datetime | None = None) -> None:
    """A new deal's clock: its first turn begins now, every seat's reserve full."""
    deal.clock = clock
    pace = pace_of(clock)
    deal.turn_since = at or now()
    deal.reserves = None if pace is None else [pace.reserve.total_seconds()] * seats


def turn_passed(deal: Deal, before: dict, game: HandGame, at: datetime | None = None) -> None:
    """After a write: when the turn moved on, the seat whose turn ended pays
    the time it took over the turn's seconds from its reserve, and the next
    turn's time begins.  (Computer turns played in the same write take no time.)"""
    if game.phase == Phase.OVER and before.get("phase") == "over":
        return
    if before.get("turns_taken") == game.turns_taken and before.get("turn") == game.turn:
        return
    at = at or now()
    pace = pace_of(deal.clock)
    if pace is not None and deal.reserves is not None and deal.turn_since is not None:
        seat = before["turn"]
        over = (at - deal.turn_since - pace.turn).total_seconds()
        if over > 0:
            reserves = list(deal.reserves)
            reserves[seat] = max(0.0, reserves[seat] - over)
            deal.reserves = reserves
    deal.turn_since = at


def time_left(
    deal: Deal, game: HandGame, at: datetime | None = None, *, seen: bool = True, away: bool = False
) -> TurnTime | None:
    """The time of the turn in play (None: no clock, the hand is over, or the
    seat's phone has not opened the game yet: its clock starts when it does,
    ``play.phone_seen``).  A seat whose phone is ``away`` has its turn's
    seconds only: the reserve is for thinking, not for a phone that left."""
    pace = pace_of(deal.clock)
    if pace is None or game.phase == Phase.OVER or deal.turn_since is None or deal.reserves is None or not seen:
        return None
    at = at or now()
    reserve = timedelta(0) if away else timedelta(seconds=deal.reserves[game.turn])
    spent = max(timedelta(0), at - deal.turn_since)
    turn_left = max(timedelta(0), pace.turn - spent)
    reserve_left = max(timedelta(0), reserve - max(timedelta(0), spent - pace.turn))
    deadline = deal.turn_since + pace.turn + reserve
    return TurnTime(game.turn, _whole(turn_left), _whole(reserve_left), deadline, away)


def first_seen(deal: Deal, game: HandGame, at: datetime | None = None) -> None:
    """The seat to move opened the game for the first time: its turn's time begins now."""
    if pace_of(deal.clock) is not None and game.phase != Phase.OVER:
        deal.turn_since = max(deal.turn_since or now(), at or now())


def _whole(delta: timedelta) -> int:
    """Whole seconds, rounded up: a phone never shows 0 while time is left."""
    seconds = delta.total_seconds()
    return int(seconds) + (seconds > int(seconds))
