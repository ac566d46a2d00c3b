"""The scoreboard: hands, corrections, undo, re-entries and settings of a
table, every number from the rules engine.

Each write runs inside the unit of work (:mod:`.unit`): submission id,
rules, version claim.  Refusals are :class:`ServiceError` codes.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import Entry, GameTable, Hand, Player, Reentry, now
from ..rules import (
    Card,
    ChinchonError,
    HandResult,
    MatchError,
    MatchState,
    Rules,
    format_cards,
    get_rules,
    settle_hand,
)
from ..rules.close import chinchon_score, max_hand_points, possible_closer_scores
from ..rules.names import normalize_name
from ..rules.variants import AUTO
from .unit import AlreadySaved, ServiceError, check_new_submission, claim, new_token

ServiceError = ServiceError  # the scoreboard's refusals (one coded error for every service)


# -- creating -------------------------------------------------------------------
def create_table(
    *,
    name: str,
    preset: str,
    overrides: Mapping[str, object],
    players: Sequence[str],
    first_dealer: int,
    suit_style: str,
    rematch_of: GameTable | None = None,
) -> GameTable:
    """A new table; ``decks: "auto"`` is fixed now from the number of players,
    since the pack on the table does not change when players go out."""
    rules = get_rules(preset, **overrides)
    if not 0 <= first_dealer < len(players):
        raise ServiceError("first_dealer", "first_dealer")
    MatchState.start(players, rules)  # validates the player list against the rules
    options = dict(overrides)
    if rules.decks == AUTO:
        options["decks"] = rules.copies(len(players))
    table = GameTable(
        player_token=new_token(),
        owner_token=new_token(),
        watch_token=new_token(),
        name=name.strip(),
        preset=preset,
        overrides=options,
        suit_style=suit_style,
        first_dealer=first_dealer,
        rematch_of_id=rematch_of.id if rematch_of else None,
    )
    table.players = [Player(seat=i, name=normalize_name(n)) for i, n in enumerate(players)]
    db.session.add(table)
    return table


#: What may change mid-match without changing a hand already scored (a hand
#: keeps the points it was stored with): the match's options, replayed (a
#: change the hands played no longer fit is refused), and how the hands still
#: to come are scored and played.  Never the pack: the hands entered hold its cards.
MATCH_OPTIONS = ("target", "eliminate", "reentries", "reentry_min_players")
HAND_OPTIONS = (
    "court_values",
    "joker_points",
    "min_real_cards",
    "max_wilds_per_meld",
    "close_rule",
    "close_max",
    "first_round_close",
    "all_combined_bonus",
    "joker_run_bonus",
    "chinchon",
    "layoffs",
    "layoff_onto_full_close",
    "run_layoff_limit",
    "reshuffle",
    "max_reshuffles",
    "direction",
)


def changeable(table: GameTable) -> tuple[str, ...]:
    """The options the owner may change now: the match's; the hands' at a
    physical table (a digital hand in play keeps the rules it was dealt
    under); the stake until the first hand is in (then everybody has paid it)."""
    options = MATCH_OPTIONS if table.kind == "digital" else MATCH_OPTIONS + HAND_OPTIONS
    return options if table.active_hands() else (*options, "stake")


def change_settings(table: GameTable, version: int | None, name: str, overrides: Mapping[str, object]) -> None:
    """New rules mid-match (inside :func:`transaction`) for the options
    :func:`changeable` allows (the others are refused, ``rule_fixed``): refused
    when the hands already played would no longer replay under them."""
    verify_open(table, "name")
    fixed = next((k for k in overrides if k not in changeable(table)), None)
    if fixed is not None:
        raise ServiceError("rule_fixed", f"rules.{fixed}", option=fixed)
    options = {**table.overrides, **overrides}
    get_rules(table.preset, **options)
    table.overrides = options
    try:
        standing(table)
    except HandMisfit as error:
        raise ServiceError("rules_history", "target", **error.params) from None
    except MatchError as error:
        raise ServiceError("rules_history", "target", reason=error) from None
    table.name = normalize_name(name)
    claim(table, version)


def delete_table(table: GameTable) -> None:
    """The owner deletes a table and everything it holds; its rematch, if
    any, stays (it no longer names the table it came from)."""
    db.session.execute(
        update(GameTable)
        .where(GameTable.rematch_of_id == table.id)
        .values(rematch_of_id=None)
        .execution_options(synchronize_session=False)
    )
    db.session.delete(table)


# -- a tournament table whose result is in ------------------------------------------
#: What a tournament's organizer or a confirmation said last about a table that
#: makes its result final (``companion.services.tournaments``).
FINAL_RESULTS = ("confirmed", "closed", "corrected")


def verify_open(table: GameTable, field: str = "closer") -> None:
    """A table of a tournament takes no write once its result is final
    (confirmed at the table, closed or corrected by the organizer): the
    tournament counts that result, and only the organizer may change it."""
    if table.round_id is None:
        return
    if table.closed_at is not None:
        raise ServiceError("table_closed", field)
    latest = table.results[-1] if table.results else None
    if latest is not None and latest.kind in FINAL_RESULTS:
        raise ServiceError("result_final", field)


def verify_next_hand(table: GameTable, current: Standing) -> None:
    """The table may take its next hand: open (:func:`verify_open`), the
    match not over, nobody out still to say whether they buy back in, and a
    tournament round's hands not all in.  The hand page asks before it
    shows the grid; :func:`store_hand` before it stores."""
    verify_open(table)
    if current.state.finished:
        raise ServiceError("match_over", "closer")
    if current.pending_reentries:
        raise ServiceError("reentry_pending", "closer", names=[table.names[s] for s in current.pending_reentries])
    if table.hand_limit is not None and current.last_number >= table.hand_limit:
        raise ServiceError("hand_limit", "closer", count=table.hand_limit)


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
    #: How the hand was closed: :data:`CHINCHON`, :data:`ALL_COMBINED` or None.
    mark: str | None = None


#: Marks of a close (:func:`close_mark`).
CHINCHON, ALL_COMBINED = "chinchon", "all_combined"


def close_mark(hand: Hand, rules: Rules) -> str | None:
    """A Chinchón, or all seven combined (the closer scores ``all_combined_bonus``, −10), or None."""
    if hand.chinchon:
        return CHINCHON
    if hand.points_by_seat().get(hand.closer_seat) == rules.all_combined_bonus:
        return ALL_COMBINED
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
    next_dealer: int = 0
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

    def seat_of(self, name: str) -> int:
        return self.table.names.index(name)

    def total(self, seat: int) -> int:
        return self.state.totals[self.table.names[seat]]

    def is_out(self, seat: int) -> bool:
        return self.table.names[seat] in self.state.out

    def can_reenter(self, seat: int) -> bool:
        return self.table.names[seat] in self.state.can_reenter

    @property
    def pending_reentries(self) -> list[int]:
        """Seats that went out in the last hand, may buy back in and have not
        decided yet: the next hand waits for them (SPEC §4: the decision
        comes right after the hand, before the next)."""
        names = self.table.names
        return [names.index(n) for n in self.state.can_reenter if names.index(n) not in self.declined]

    def reentry_refusal(self, seat: int) -> MatchError | None:
        """Why this player may not buy back in now (the engine's refusal), or None."""
        try:
            self.state.verify_reentry(self.table.names[seat])
        except MatchError as error:
            return error
        return None

    def near_target(self, seat: int) -> bool:
        """Within a tenth of the target (at least 10 points) of going out."""
        margin = max(10, self.rules.target // 10)
        return not self.is_out(seat) and self.total(seat) > self.rules.target - margin

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


@dataclass(frozen=True, slots=True)
class Summary:
    """What a page of many tables shows of one table's match, as it stood at
    one version of the table: hands played, finished or not, each seat's
    total, the ranking (:meth:`Standing.ranking`, as ``(seat, place)``) and
    the time of the last hand.  The unit of work keeps it in the table's row
    (``GameTable.summary``) with every write (:func:`refresh_summaries`), so
    a 64-table dashboard reads 64 rows instead of replaying 64 matches; it
    is used only while its version is the table's (:func:`summary_of`)."""

    hands: int
    finished: bool
    totals: tuple[int, ...]
    ranking: tuple[tuple[int, int], ...]
    last_hand_at: datetime | None

    @classmethod
    def of(cls, current: Standing) -> Summary:
        table = current.table
        hands = table.active_hands()
        return cls(
            hands=current.last_number,
            finished=current.state.finished,
            totals=tuple(current.total(seat) for seat in range(len(table.players))),
            ranking=tuple((p.seat, p.place) for p in current.ranking()),
            last_hand_at=max(h.created_at for h in hands) if hands else None,
        )

    def total(self, seat: int) -> int:
        return self.totals[seat]

    def to_json(self) -> dict:
        return {
            "hands": self.hands,
            "finished": self.finished,
            "totals": list(self.totals),
            "ranking": [list(p) for p in self.ranking],
            "last_hand_at": self.last_hand_at.isoformat() if self.last_hand_at else None,
        }

    @classmethod
    def from_json(cls, data: Mapping) -> Summary:
        last = data["last_hand_at"]
        return cls(
            hands=data["hands"],
            finished=data["finished"],
            totals=tuple(data["totals"]),
            ranking=tuple((seat, place) for seat, place in data["ranking"]),
            last_hand_at=datetime.fromisoformat(last) if last else None,
        )


def summary_of(table: GameTable) -> Summary:
    """The table's summary: the stored one while it is the table's version, else replayed now."""
    if table.summary is not None and table.summary_version == table.version:
        return Summary.from_json(table.summary)
    return Summary.of(standing(table))


def refresh_summaries(tables: Iterator[GameTable] | Sequence[GameTable]) -> None:
    """Store each table's summary as of its version (the unit of work calls
    this before every commit, for each table written or made).  A match
    that does not replay stores none: the pages replay it themselves."""
    for table in tables:
        try:
            summary = Summary.of(standing(table)).to_json()
        except ChinchonError:
            summary = None
        table.summary, table.summary_version = summary, table.version


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
    result.next_dealer = dealer
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


# -- a hand -----------------------------------------------------------------------
@dataclass
class HandInput:
    """What a form says about one hand, by seat."""

    closer: int
    mode: str  # "cards" or "points"
    cards: dict[int, list[Card]] = field(default_factory=dict)
    discard: Card | None = None
    points: dict[int, int] = field(default_factory=dict)
    chinchon: bool = False
    first_round: bool = False
    choices: dict[int, int] = field(default_factory=dict)


def settle(standing_: Standing, data: HandInput) -> HandResult:
    """The engine's verdict for a hand entered with cards (players still in, in play order)."""
    seats = standing_.seats_in
    hands = [data.cards.get(s, []) for s in seats]
    closer = seats.index(data.closer)
    if data.discard is not None:
        hands[closer] = [*hands[closer], data.discard]
    choices = {seats.index(s): k for s, k in data.choices.items() if s in seats}
    try:
        return settle_hand(hands, standing_.rules, closer, data.first_round, choices=choices)
    except ChinchonError as error:
        raise error.at(_seat_field(error.field, seats)) from None


def _seat_field(field_path: str, seats: Sequence[int]) -> str:
    """``hands[i][j]`` from the engine → ``hands[seat][j]`` for the form."""
    if field_path.startswith("hands[") and "]" in field_path:
        index, rest = field_path[6:].split("]", 1)
        if index.isdecimal() and int(index) < len(seats):
            return f"hands[{seats[int(index)]}]{rest}"
    return field_path


def check_points(standing_: Standing, data: HandInput) -> None:
    """Typed points must be possible under the rules."""
    rules = standing_.rules
    possible = possible_closer_scores(rules)
    most = max_hand_points(rules)
    for seat in standing_.seats_in:
        if seat not in data.points:
            raise ServiceError("points_missing", f"points[{seat}]")
        value = data.points[seat]
        if seat == data.closer:
            if value not in possible:
                raise ServiceError("closer_points", f"points[{seat}]", value=value, possible=sorted(possible))
        elif value < 0 or value > most:
            raise ServiceError("points_impossible", f"points[{seat}]", value=value)
    if data.chinchon and data.points[data.closer] != chinchon_score(rules):
        raise ServiceError("chinchon_points", f"points[{data.closer}]")


def store_hand(
    table: GameTable,
    version: int | None,
    submission: str,
    data: HandInput,
    *,
    replaces: Hand | None = None,
) -> Hand:
    """Store one hand (or the new version of an edited one); call it inside
    :func:`transaction`.

    Raises :class:`AlreadySaved` for a replayed form, :class:`StaleError` when
    the table changed since the form was shown, :class:`ChinchonError` when the
    hand (or, for an edit, the replay of every later hand) breaks the rules.
    """
    check_new_submission(Hand, table, submission)
    current = standing(table)
    if replaces is None:
        verify_next_hand(table, current)  # open, and ready for its next hand
    else:
        verify_open(table)
    before = standing_before(table, replaces) if replaces else current
    if data.closer not in before.seats_in:
        raise ServiceError("closer_out", "closer")
    hand = Hand(
        number=replaces.number if replaces else current.next_number,
        mode=data.mode,
        closer_seat=data.closer,
        dealer_seat=replaces.dealer_seat if replaces else current.next_dealer,
        first_round=data.first_round,
        submission=submission,
    )
    if data.mode == "cards":
        _score_cards(hand, before, data)
    else:
        _score_points(hand, before, data)
    claim(table, version)
    table.hands.append(hand)
    try:
        db.session.flush()
    except IntegrityError:
        raise AlreadySaved from None  # the same form, saved by a concurrent request
    if replaces is None:
        for _source, event in events_of(table, [hand], [], current.state):
            current.state.apply(event)  # the new hand continues the match as it stood
    else:
        replaces.replaced_by_id = hand.id
        _replay_after_edit(table)
    return hand


def _score_cards(hand: Hand, before: Standing, data: HandInput) -> None:
    """The engine settles the hand from everybody's cards: one entry row per player still in."""
    result = settle(before, data)
    if not result.legal:
        raise ServiceError("cannot_close", "closer", name=before.table.names[data.closer], why=result.verdict.why)
    hand.discard = str(result.discard) if result.discard is not None else None
    hand.chinchon = result.chinchon
    hand.wins_match = result.wins_match
    for seat, r in zip(before.seats_in, result.results or (), strict=True):
        held = data.cards.get(seat, [])
        if seat == data.closer and data.discard is not None:
            held = [*held, data.discard]  # the closer's entry keeps all eight cards
        hand.entries.append(
            Entry(
                seat=seat,
                cards=" ".join(format_cards(held)),
                melds=[format_cards(m) for m in r.melds],
                layoffs=[{"card": str(x.card), "seat": before.seats_in[x.player], "meld": x.meld} for x in r.layoffs],
                deadwood=" ".join(format_cards(r.deadwood)),
                points=r.points,
                choice=data.choices.get(seat, 0),
            )
        )


def _score_points(hand: Hand, before: Standing, data: HandInput) -> None:
    """Typed points, checked against what the rules make possible."""
    check_points(before, data)
    hand.chinchon = data.chinchon
    hand.wins_match = data.chinchon and before.rules.chinchon_wins_match
    hand.entries = [Entry(seat=s, points=data.points[s]) for s in before.seats_in]


def _replay_after_edit(table: GameTable) -> None:
    """After an edit, re-entries the rules no longer allow are undone, and every
    later hand must still replay under the rules; the first that does not is
    named, with what no longer fits and how many hands to undo to save the edit."""
    hands = table.active_hands()
    try:
        replay(table, hands, table.active_reentries(), void_broken=True)
    except HandMisfit as misfit:
        number = misfit.params["number"]
        count = sum(1 for h in hands if h.number >= number)  # type: ignore[operator]
        raise ServiceError("later_hand", "closer", count=count, **misfit.params) from None


def standing_before(table: GameTable, hand: Hand) -> Standing:
    """The standing just before ``hand`` (to re-enter it in an edit)."""
    return standing(table, before=hand.number)


def reenter(table: GameTable, version: int | None, submission: str, seat: int, *, declined: bool = False) -> Reentry:
    """Buy a player back in, or (``declined``) record that they said no."""
    check_new_submission(Reentry, table, submission)
    verify_open(table, "seat")
    current = standing(table)
    if not 0 <= seat < len(table.players):
        raise ServiceError("unknown_player", "seat")
    current.state.verify_reentry(table.names[seat])
    if seat in current.declined:
        raise ServiceError("reentry_decided", "seat", name=table.names[seat])
    claim(table, version)
    entry = Reentry(after_hand=current.last_number, seat=seat, submission=submission, declined=declined)
    table.reentries.append(entry)
    return entry


def undo_last(table: GameTable, version: int | None) -> str:
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
        what = "declined" if undone.declined else "reentry"
    else:
        hands[-1].undone_at = stamp
        what = "hand"
    return what


# -- undo, taken back in one tap ------------------------------------------------------
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
    undone = [h for h in table.hands if h.undone_at is not None and h.replaced_by_id is None]
    if not undone:
        return None
    last = max(undone, key=lambda h: (h.undone_at, h.id))
    if last.number != current.next_number:
        return None
    return Restorable(last, _restore_refusal(table, current, last))


def _restore_refusal(table: GameTable, current: Standing, hand: Hand) -> ServiceError | None:
    if current.pending_reentries:
        names = [table.names[s] for s in current.pending_reentries]
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


def restore_hand(table: GameTable, version: int | None, number: int | None) -> Hand:
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
    return found.hand


# -- a hand entered player by player: cards for some, points for the others -----------
def store_mixed_hand(
    table: GameTable,
    version: int,
    submission: str,
    data: HandInput,
    order: Sequence[int],
    result: HandResult,
    *,
    replaces: Hand | None = None,
) -> Hand:
    """Store a hand whose ``data.points`` hold every player's points (the
    engine's for the players in ``order``, entered with cards, whose verdict
    is ``result``) and keep those players' cards and melds (inside :func:`transaction`)."""
    hand = store_hand(table, version, submission, data, replaces=replaces)
    by_seat = {seat: r for seat, r in zip(order, result.results or (), strict=True)}
    for entry in hand.entries:
        r = by_seat.get(entry.seat)
        if r is None:
            continue
        held = list(data.cards.get(entry.seat, []))
        if entry.seat == data.closer and data.discard is not None:
            held.append(data.discard)
        entry.cards = " ".join(format_cards(held))
        entry.melds = [format_cards(m) for m in r.melds]
        entry.layoffs = [{"card": str(x.card), "seat": order[x.player], "meld": x.meld} for x in r.layoffs]
        entry.deadwood = " ".join(format_cards(r.deadwood))
        entry.choice = data.choices.get(entry.seat, 0)
    hand.discard = str(result.discard) if result.discard is not None else None
    return hand
