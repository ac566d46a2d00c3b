"""Where a match stands: the table's hands and re-entries replayed with the
rules engine, plus what the scoreboard shows around them (each hand's row,
the ranking, the next dealer).  Reads only: nothing here writes.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from ..models import GameTable, Hand, Reentry, now
from ..rules import MatchError, MatchState, Rules


# -- where the match stands -------------------------------------------------------
@dataclass
class HandRow:
    hand: Hand
    points: dict[int, int]
    totals: dict[int, int]
    out_after: list[int]
    reentries: list[int]
    declined: list[int] = field(default_factory=list)
    #: False for a Chinchón whose points could not count (see
    #: :func:`hand_events`): the points are kept, the totals are not moved.
    counted: bool = True
    #: The totals this hand's points made, before any re-entry after it:
    #: the total that put a player out (``totals`` holds the re-entry's).
    reached: dict[int, int] = field(default_factory=dict)
    #: The pot after this hand and its re-entries, and the stakes those re-entries paid in.
    pot: Decimal = Decimal(0)
    paid_in: Decimal = Decimal(0)
    #: How the hand was closed, when it was more than a close.
    mark: Mark | None = None


class Mark(StrEnum):
    """How a hand was closed, when it was more than a close (:func:`close_mark`)."""

    CHINCHON = "chinchon"
    ALL_COMBINED = "all_combined"


def close_mark(hand: Hand, rules: Rules) -> Mark | None:
    """A Chinchón, or all seven combined (the closer scores ``all_combined_bonus``, −10), or None."""
    if hand.chinchon:
        return Mark.CHINCHON
    if hand.points_by_seat().get(hand.closer_seat) == rules.all_combined_bonus:
        return Mark.ALL_COMBINED
    return None


@dataclass(frozen=True, slots=True)
class Place:
    """One line of the final standings: the place (shared on a tie), the
    seat, and the hand that put the player out for good (None: not out)."""

    place: int
    seat: int
    out_in: int | None = None


@dataclass
class Standing:
    """The replayed match plus what the scoreboard shows around it."""

    table: GameTable
    state: MatchState
    rows: list[HandRow] = field(default_factory=list)
    #: Who deals next by the hands stored.  At a digital table a void hand
    #: moves the deal on too: ask ``nextstep`` who deals.
    hands_dealer: int = 0
    #: Seats that said no to buying back in after the last hand.
    declined: set[int] = field(default_factory=set)

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def seats_in(self) -> list[int]:
        names = set(self.state.still_in)
        return [p.seat for p in self.table.players if p.name in names]

    @property
    def next_number(self) -> int:
        return len(self.rows) + 1

    @property
    def last_number(self) -> int:
        return len(self.rows)

    def total(self, seat: int) -> int:
        return self.state.totals[self.table.names[seat]]

    def is_out(self, seat: int) -> bool:
        return self.table.names[seat] in self.state.out

    def can_reenter(self, seat: int) -> bool:
        return self.table.names[seat] in self.state.can_reenter

    @property
    def undecided(self) -> list[int]:
        """Seats that went out in the last hand, may buy back in and have not
        decided yet (SPEC §4: the decision comes right after the hand, before
        the next).  Whether the table asks them is the next step's to say
        (``nextstep``): not at a table with nothing left to play."""
        names = self.table.names
        return [names.index(n) for n in self.state.can_reenter if names.index(n) not in self.declined]

    def reentry_refusal(self, seat: int) -> MatchError | None:
        """Why this player may not buy back in now (the engine's refusal), or None."""
        return _reentry_refusal(self.state, self.table.names[seat])

    def near_target(self, seat: int) -> bool:
        """Within a tenth of the target (at least 10 points) of going out,
        while the match goes on (once it is over nobody is in danger)."""
        margin = max(10, self.rules.target // 10)
        return not self.state.finished and not self.is_out(seat) and self.total(seat) > self.rules.target - margin

    def to_go(self, seat: int) -> int:
        """The fewest points that put this player out: "over 100" takes 2
        from 99, "reaching 100" takes 1 (``Rules.eliminate``)."""
        total = self.total(seat)
        return next(n for n in range(1, self.rules.target - total + 2) if self.state.is_over_target(total + n))

    def ranking(self) -> list[Place]:
        """The standings, best first, as the rulebooks rank a finished match:
        the winners; then the players still in, lower total first; then those
        out by the order they went out, the first out last.  Among players
        out in the same hand the lower total ranks first, and equal totals
        share the place, as equal totals share a win (SPEC §6).  A player who
        bought back in ranks by the last time they went out.  Dani out in
        hand 2, Ben (115) and Carla (108) in hand 4, Ana the last one in:
        Ana, Carla, Ben, Dani.
        """
        names = self.table.names
        state = self.state
        out_in = {seat: row.hand.number for row in self.rows for seat in row.out_after}

        def key(seat: int) -> tuple[int, int, int]:
            name = names[seat]
            if name in state.winners:
                return (0, 0, 0)
            if name not in state.out:
                return (1, 0, state.totals[name])
            return (2, -out_in[seat], state.totals[name])

        keys = [key(seat) for seat in range(len(names))]
        order = sorted(range(len(names)), key=lambda seat: (keys[seat], seat))
        return [
            Place(
                place=1 + sum(k < keys[seat] for k in keys),
                seat=seat,
                out_in=out_in[seat] if names[seat] in state.out else None,
            )
            for seat in order
        ]


def hand_events(state: MatchState, names: Sequence[str], hand: Hand) -> list[dict]:
    """The engine events (SPEC §8) one stored hand adds to the match as it
    stands: its points, then, for a Chinchón that wins the match, the Chinchón.

    A Chinchón ends the match at once (SPEC §6), so whatever the others'
    points would have done, the closer wins: where those points already end
    the match (the closer is the last one in), no event follows them, since an
    event after the end is refused; where they cannot count at all (a player
    they name is out since an earlier hand was corrected, or the closer's own
    score puts them out), the hand enters as the Chinchón alone.
    """
    points = {"hand": {names[e.seat]: e.points for e in hand.entries}}
    if not hand.wins_match:
        return [points]
    closer = names[hand.closer_seat]
    chinchon = {"chinchon": closer}
    trial = copy.deepcopy(state, {id(state.rules): state.rules})
    try:
        trial.apply(points)
        if trial.finished:
            return [points] if trial.winners == [closer] else [chinchon]
        trial.apply(chinchon)
    except MatchError:
        return [chinchon]
    return [points, chinchon]


def events_of(
    table: GameTable, hands: Sequence[Hand], reentries: Sequence[Reentry], state: MatchState
) -> Iterator[tuple[Hand | Reentry, dict]]:
    """The match as engine events, each with the row it comes from.  The
    caller applies each event to ``state`` before asking for the next: a
    hand's events depend on the match as it stands (:func:`hand_events`)."""
    names = table.names
    by_hand: dict[int, list[Reentry]] = {}
    for r in reentries:
        by_hand.setdefault(r.after_hand, []).append(r)
    for hand in hands:
        for event in hand_events(state, names, hand):
            yield hand, event
        for r in by_hand.get(hand.number, []):
            if not r.declined:
                yield r, {"reentry": names[r.seat]}


class HandMisfit(MatchError):
    """A stored hand that no longer replays (after a correction, a restore or
    new rules): ``params`` name the hand (``number``) and the ``problem``
    (``out_scores``, ``reentry_lost``, ``missing``, ``after_end`` or ``other``),
    with the player (``name``) and the re-entry's refusal (``reason``) or the
    hand that ended the match (``end``) where they apply."""


def _misfit(
    state: MatchState, names: Sequence[str], hand: Hand, lost: Mapping[str, MatchError], end: int | None
) -> dict[str, object]:
    """Why ``hand`` does not fit the match as it stands before it (``lost``:
    the re-entries this replay undid, by player; ``end``: the hand that ended the match)."""
    params: dict[str, object] = {"number": hand.number}
    scored = {names[e.seat] for e in hand.entries}
    if state.finished:
        return {**params, "problem": "after_end", "end": end}
    for name in names:
        if name in state.out and name in scored:
            if name in lost:
                return {**params, "problem": "reentry_lost", "name": name, "reason": lost[name]}
            return {**params, "problem": "out_scores", "name": name}
    for name in state.still_in:
        if name not in scored:
            return {**params, "problem": "missing", "name": name}
    return {**params, "problem": "other"}


def standing(table: GameTable, before: int | None = None) -> Standing:
    """Replay the table's active hands and re-entries with the engine (only
    those before hand number ``before``, when given)."""
    hands = table.active_hands()
    reentries = table.active_reentries()
    if before is not None:
        hands = [h for h in hands if h.number < before]
        reentries = [r for r in reentries if r.after_hand < before]
    return replay(table, hands, reentries)


def replay(
    table: GameTable, hands: Sequence[Hand], reentries: Sequence[Reentry], *, void_broken: bool = False
) -> Standing:
    """The match of these hands and re-entries, replayed with the engine.

    ``void_broken`` (after an edit): a re-entry the rules no longer allow, and
    a "no" from a player who may not buy back in then, is undone (kept in
    history) instead of refused.  A hand that no longer fits raises
    :class:`HandMisfit`; a re-entry that does not, :class:`MatchError`.
    """
    state = MatchState.start(table.names, table.rules)
    result = Standing(table, state)
    names = table.names
    lost: dict[str, MatchError] = {}
    ended_in: int | None = None
    stamp = now()
    for source, event in events_of(table, hands, reentries, state):
        if isinstance(source, Reentry):
            refusal = _reentry_refusal(state, event["reentry"]) if void_broken else None
            if refusal is not None:
                source.undone_at = stamp
                lost[event["reentry"]] = refusal
                continue
            state.apply(event)
            row = result.rows[-1]
            row.reentries.append(source.seat)
            row.totals = {s: state.totals[n] for s, n in enumerate(names)}
            row.paid_in += state.rules.stake
            row.pot = state.pot
            continue
        was_out = set(state.out)
        try:
            state.apply(event)
        except MatchError as error:
            raise HandMisfit(error.message, error.field, **_misfit(state, names, source, lost, ended_in)) from None
        if state.finished and ended_in is None:
            ended_in = source.number
        totals = {s: state.totals[n] for s, n in enumerate(names)}
        if result.rows and result.rows[-1].hand is source:
            result.rows[-1].totals = totals
            continue
        result.rows.append(
            HandRow(
                hand=source,
                points=source.points_by_seat(),
                totals=totals,
                # not ``just_out``: the hand that ends the match puts players out too
                out_after=[names.index(n) for n in state.out if n not in was_out],
                reentries=[],
                counted="hand" in event,
                reached=dict(totals),
                pot=state.pot,
                mark=close_mark(source, state.rules),
            )
        )
        if void_broken:  # a "no" stands only for a player who may still buy back in then
            for r in reentries:
                if r.declined and r.after_hand == source.number and not state.can_reentry(names[r.seat]):
                    r.undone_at = stamp
    kept = [r for r in reentries if r.undone_at is None]
    for r in kept:
        if r.declined and result.rows and r.after_hand == result.last_number:
            result.declined.add(r.seat)
    for r in kept:
        if r.declined and 0 < r.after_hand <= len(result.rows):
            result.rows[r.after_hand - 1].declined.append(r.seat)
    dealer = table.first_dealer
    if hands:
        dealer = next_seat(hands[-1].dealer_seat, result.seats_in or list(range(len(names))))
    result.hands_dealer = dealer
    return result


def _reentry_refusal(state: MatchState, name: str) -> MatchError | None:
    try:
        state.verify_reentry(name)
    except MatchError as error:
        return error
    return None


def next_seat(seat: int, seats_in: Sequence[int]) -> int:
    """The next seat in play order after ``seat`` among those still in."""
    later = [s for s in seats_in if s > seat]
    return later[0] if later else seats_in[0]


def standing_before(table: GameTable, hand: Hand) -> Standing:
    """The standing just before ``hand`` (to re-enter it in an edit)."""
    return standing(table, before=hand.number)
