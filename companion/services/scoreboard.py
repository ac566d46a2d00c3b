"""The scoreboard: hands, corrections, undo, re-entries and settings of a
table, every number from the rules engine.

Each write runs inside the unit of work (:mod:`.unit`): submission id,
rules, version claim.  Refusals are :class:`ServiceError` codes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

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


def change_settings(table: GameTable, version: int | None, name: str, overrides: Mapping[str, object]) -> None:
    """New rules mid-match (inside :func:`transaction`): refused when the hands
    already played would no longer replay under them."""
    options = {**table.overrides, **overrides}
    get_rules(table.preset, **options)
    table.overrides = options
    try:
        standing(table)
    except MatchError as error:
        raise ServiceError("rules_history", "target", reason=error.message) from None
    table.name = normalize_name(name)
    claim(table, version)


def delete_table(table: GameTable) -> None:
    """The owner deletes a table and everything it holds."""
    db.session.delete(table)


# -- where the match stands -------------------------------------------------------
@dataclass
class HandRow:
    hand: Hand
    points: dict[int, int]
    totals: dict[int, int]
    out_after: list[int]
    reentries: list[int]
    declined: list[int] = field(default_factory=list)


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

    def ranking(self) -> list[int]:
        """Seats best first: winners, then those still in, then out; lower total first."""
        winners = set(self.state.winners)
        names = self.table.names
        return sorted(
            range(len(names)),
            key=lambda s: (names[s] not in winners, names[s] in self.state.out, self.state.totals[names[s]], s),
        )


def events_of(table: GameTable, hands: Sequence[Hand], reentries: Sequence[Reentry]) -> list[tuple[object, dict]]:
    """The match as engine events, each with the row it comes from."""
    names = table.names
    by_hand: dict[int, list[Reentry]] = {}
    for r in reentries:
        by_hand.setdefault(r.after_hand, []).append(r)
    events: list[tuple[object, dict]] = []
    for hand in hands:
        events.append((hand, {"hand": {names[e.seat]: e.points for e in hand.entries}}))
        if hand.wins_match:
            events.append((hand, {"chinchon": names[hand.closer_seat]}))
        events.extend((r, {"reentry": names[r.seat]}) for r in by_hand.get(hand.number, []) if not r.declined)
    return events


def standing(table: GameTable, before: int | None = None) -> Standing:
    """Replay the table's active hands and re-entries with the engine (only
    those before hand number ``before``, when given)."""
    rules = table.rules
    hands = table.active_hands()
    reentries = table.active_reentries()
    if before is not None:
        hands = [h for h in hands if h.number < before]
        reentries = [r for r in reentries if r.after_hand < before]
    state = MatchState.start(table.names, rules)
    result = Standing(table, state)
    dealer = table.first_dealer
    names = table.names
    for source, event in events_of(table, hands, reentries):
        state.apply(event)
        if isinstance(source, Hand) and "hand" in event:
            result.rows.append(
                HandRow(
                    hand=source,
                    points=source.points_by_seat(),
                    totals={s: state.totals[n] for s, n in enumerate(names)},
                    out_after=[names.index(n) for n in state.just_out],
                    reentries=[],
                )
            )
        elif isinstance(source, Reentry):
            result.rows[-1].reentries.append(source.seat)
            result.rows[-1].totals = {s: state.totals[n] for s, n in enumerate(names)}
    for r in reentries:
        if r.declined and result.rows and r.after_hand == result.last_number:
            result.declined.add(r.seat)
    for r in reentries:
        if r.declined and 0 < r.after_hand <= len(result.rows):
            result.rows[r.after_hand - 1].declined.append(r.seat)
    if hands:
        dealer = next_seat(hands[-1].dealer_seat, result.seats_in or list(range(len(names))))
    result.next_dealer = dealer
    return result


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
        if index.isdigit() and int(index) < len(seats):
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
    if replaces is None and current.state.finished:
        raise ServiceError("match_over", "closer")
    if replaces is None and current.pending_reentries:
        raise ServiceError("reentry_pending", "closer", names=[table.names[s] for s in current.pending_reentries])
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
        for _source, event in events_of(table, [hand], []):
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
    later hand must still replay under the rules."""
    try:
        _void_broken_reentries(table)
        standing(table)
    except MatchError as error:
        raise ServiceError("later_hand", "closer", reason=error.message) from None


def standing_before(table: GameTable, hand: Hand) -> Standing:
    """The standing just before ``hand`` (to re-enter it in an edit)."""
    return standing(table, before=hand.number)


def _void_broken_reentries(table: GameTable) -> list[Reentry]:
    """After an edit, re-entries the rules no longer allow are undone (kept in history)."""
    voided = []
    state = MatchState.start(table.names, table.rules)
    names = table.names
    reentries = table.active_reentries()
    for source, event in events_of(table, table.active_hands(), reentries):
        if isinstance(source, Reentry) and not state.can_reentry(event["reentry"]):
            source.undone_at = now()
            voided.append(source)
            continue
        state.apply(event)
        if isinstance(source, Hand) and "hand" in event:
            for r in reentries:  # a "no" stands only for a player who may still buy back in then
                if r.declined and r.after_hand == source.number and not state.can_reentry(names[r.seat]):
                    r.undone_at = now()
                    voided.append(r)
    return voided


def reenter(table: GameTable, version: int | None, submission: str, seat: int, *, declined: bool = False) -> Reentry:
    """Buy a player back in, or (``declined``) record that they said no."""
    check_new_submission(Reentry, table, submission)
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
def restorable_hand(table: GameTable, current: Standing | None = None) -> Hand | None:
    """The hand undone last, while it can still come back as it was: nothing
    was saved in its place since (its number is the next one again)."""
    current = current or standing(table)
    undone = [h for h in table.hands if h.undone_at is not None and h.replaced_by_id is None]
    if not undone:
        return None
    last = max(undone, key=lambda h: (h.undone_at, h.id))
    return last if last.number == current.next_number else None


def restore_hand(table: GameTable, version: int | None, number: int | None) -> Hand:
    """Bring back the hand undone last (inside :func:`transaction`, version-checked).

    Raises :class:`StaleError` when the table changed since the page was
    shown, :class:`ServiceError` when that hand cannot come back.
    """
    hand = restorable_hand(table)
    if hand is None or hand.number != number:
        raise ServiceError("not_restorable", "restore")
    claim(table, version)
    hand.undone_at = None
    try:
        standing(table)  # the match must replay with it, as it did before the undo
    except MatchError:
        raise ServiceError("not_restorable", "restore") from None
    return hand


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
