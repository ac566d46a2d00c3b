"""A hand: judged by the engine and stored, in one call (:func:`save_hand`).

A hand arrives as a form tells it (:class:`HandEntry`): who closed, and for
each player still in either the cards they hold (tapped on the grid) or the
points they typed.  The players entered with cards are judged by the engine
(the closer's close, everybody's melds and lay-offs), the others' points are
checked against what the rules make possible, and the hand is stored with
every player's points and, for those entered with cards, their cards and
melds.  :func:`judge` gives the same verdict without storing, for the page
while the cards are being tapped.

Every refusal is a coded :class:`~.unit.ServiceError` at the form's field
(``closer``, ``hands[seat]``, ``points[seat]``, ``discard``) that
``web/messages.py`` words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta

from sqlalchemy.exc import IntegrityError

from ..extensions import db
from ..models import Entry, EntryMode, GameTable, Hand, now
from ..rules import Card, ChinchonError, HandResult, check_close, format_cards, parse_card, settle_hand
from ..rules.close import CloseVerdict, chinchon_score, max_hand_points, possible_closer_scores
from ..rules.errors import CountError
from ..rules.settle import PlayerResult, RefusedLayoff, refused_layoffs
from .nextstep import verify_next_hand, verify_open
from .standing import HandMisfit, Standing, events_of, replay, standing, standing_before
from .unit import AlreadySaved, ServiceError, check_new_submission, claim


# -- what a form says ---------------------------------------------------------------------------
@dataclass
class HandEntry:
    """One hand as a form tells it, by seat: who closed, each player's cards
    (card tokens, the closer's seven shown plus ``discard``, or all eight)
    or points as typed, and the choices made on the page."""

    closer: int | None
    mode: EntryMode = EntryMode.CARDS
    cards: dict[int, list[str]] = field(default_factory=dict)
    discard: str | None = None
    points: dict[int, str] = field(default_factory=dict)
    chinchon: bool = False
    first_round: bool = False
    #: Another arrangement with the same points, by seat (0: the engine's).
    choices: dict[int, int] = field(default_factory=dict)
    #: Players the table confirmed hold 6 or 8 cards (a mis-draw, SPEC §4).
    misdraws: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.mode = EntryMode(self.mode)


@dataclass
class HandInput:
    """A hand as the engine takes it, by seat: cards (or points) of every player still in."""

    closer: int
    mode: EntryMode
    cards: dict[int, list[Card]] = field(default_factory=dict)
    discard: Card | None = None
    points: dict[int, int] = field(default_factory=dict)
    chinchon: bool = False
    first_round: bool = False
    choices: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.mode = EntryMode(self.mode)


@dataclass(frozen=True, slots=True)
class LastHand:
    """A table's last hand as a phone shows it beside its own entry: its
    number, who closed, and each player's points (by name, in seat order)."""

    number: int
    closer: str
    points: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, current: Standing) -> LastHand | None:
        if not current.rows:
            return None
        row, names = current.rows[-1], current.table.names
        points = tuple((names[seat], points) for seat, points in sorted(row.points.items()))
        return cls(row.hand.number, names[row.hand.closer_seat], points)


@dataclass(frozen=True, slots=True)
class SavedHand:
    """What a phone is told after a save, all known before the commit (so
    nothing after it can turn a stored hand into an error): the hand's
    number, whether it corrected one, and the table as it now stands (its
    version, the next hand's number, its last hand)."""

    number: int
    corrected: bool
    version: int
    next_number: int
    last: LastHand | None
    #: The later hands a correction undid (``drop_later``), by number.
    dropped: tuple[int, ...] = ()
    #: Whose buy-back a correction undid (the corrected hand no longer puts them out), by name.
    unbought: tuple[str, ...] = ()


#: Points as typed: a whole number, signed or not (at most 9 digits), or a
#: sum as score pads write one ("12+11+7"; a minus may be the typographic −).
WHOLE = re.compile(r"[+-]?\d{1,9}(?:[+-]\d{1,9}){0,19}")
TERM = re.compile(r"[+-]?\d+")


def whole_number(raw: str | None) -> int | None:
    """The points typed (a sum added up), or None when they are no whole number."""
    text = "".join((raw or "").split()).replace("\u2212", "-")
    return sum(int(t) for t in TERM.findall(text)) if WHOLE.fullmatch(text) else None


# -- judging --------------------------------------------------------------------------------------
@dataclass
class Judgement:
    """The engine's verdict on the players entered with cards (the closer
    first, then in play order) and every player's points: the engine's for
    cards, the typed ones for the others."""

    result: HandResult
    seats: list[int]  # the seats of ``result.results``, in its order
    points: dict[int, int]
    #: What is still missing (a player's points not typed yet), first first.
    missing: list[ServiceError] = field(default_factory=list)
    #: Loose cards that fit a meld yet were not laid off, and why (a rule,
    #: or the meld's player showing later), by seat (``player``/``owner``).
    refused: list[RefusedLayoff] = field(default_factory=list)

    def refused_of(self, seat: int) -> list[RefusedLayoff]:
        return [x for x in self.refused if x.player == seat]

    @property
    def legal(self) -> bool:
        return self.result.legal

    @property
    def verdict(self) -> CloseVerdict:
        return self.result.verdict

    @property
    def chinchon(self) -> bool:
        return self.result.chinchon

    @property
    def wins_match(self) -> bool:
        return self.result.wins_match

    @property
    def complete(self) -> bool:
        """A legal close with every player's points in: what may be saved as it stands."""
        return self.legal and not self.missing

    @property
    def all_cards(self) -> bool:
        return len(self.seats) == len(self.points) and not self.missing

    def result_of(self, seat: int) -> PlayerResult | None:
        if self.result.results is None or seat not in self.seats:
            return None
        return self.result.results[self.seats.index(seat)]


@dataclass(frozen=True, slots=True)
class Preview:
    """What the hand page shows while cards are tapped: the verdict so far,
    and the first thing still wrong or missing (None: nothing)."""

    judgement: Judgement | None
    problem: ChinchonError | None


@dataclass(frozen=True, slots=True)
class Checked:
    """A form's hand checked as a whole: the engine's input and verdict where
    they could be built, and every problem found, each at its field, in the
    page's order (empty: the hand may be stored)."""

    data: HandInput | None
    judgement: Judgement | None
    by_points: bool
    problems: tuple[ChinchonError, ...]

    def refusal(self) -> ChinchonError:
        """The first problem, carrying the others (``also``)."""
        first = self.problems[0]
        first.also = self.problems[1:]
        return first


def field_seat(name: str) -> tuple[str, int | None]:
    """A refusal's field as its kind and seat: ``hands[2][0]`` → ("hands", 2),
    ``closer`` → ("closer", None)."""
    kind, _sep, rest = name.partition("[")
    seat = rest.split("]")[0]
    return kind, int(seat) if seat.isdecimal() else None


def _field_rank(name: str, seats: Sequence[int]) -> tuple[int, int]:
    """Where a field is on the hand page: who closed, the cards, the discard, the points."""
    kind, seat = field_seat(name)
    at = seats.index(seat) if seat in seats else 0
    return {"closer": 0, "hands": 1, "discard": 2, "points": 3}.get(kind, 4), at


def check_entry(current: Standing, entry: HandEntry) -> Checked:
    """Everything wrong or missing in a form's hand, found at once: a hand is
    refused with the whole list (each mistake at its field), so a table puts
    them all right in one go.  :func:`save_hand` stores only a hand this
    finds nothing wrong with."""
    seats, names = current.seats_in, current.table.names
    found: list[ChinchonError] = []
    by_points = entry.mode is EntryMode.POINTS or not any(entry.cards.get(s) for s in seats)
    data: HandInput | None = None
    judgement: Judgement | None = None
    try:
        data = engine_input(current, _by_points(entry) if by_points else entry)
        if not by_points:
            judgement = judge(current, entry, data)
    except ChinchonError as error:
        found.append(error)
    if judgement is not None and entry.closer is not None:  # a judgement has a closer
        if judgement.legal:
            found.extend(_misdraws(current, entry))
        else:
            found.append(ServiceError("cannot_close", "closer", name=names[entry.closer], why=judgement.verdict.why))
    typed = seats if by_points else [s for s in seats if not entry.cards.get(s)]
    if not (judgement is not None and judgement.wins_match):  # then the others' points change nothing
        found.extend(_typed_problems(current, entry, typed))
    typed_chinchon = whole_number(entry.points.get(entry.closer)) if entry.closer in seats else None
    if by_points and entry.chinchon and typed_chinchon not in (None, chinchon_score(current.rules)):
        found.append(ServiceError("chinchon_points", f"points[{entry.closer}]"))
    first: dict[str, ChinchonError] = {}
    for problem in found:
        first.setdefault(problem.field, problem)
    problems = sorted(first.values(), key=lambda e: _field_rank(e.field, seats))
    return Checked(data, judgement, by_points, tuple(problems))


def _typed_problems(current: Standing, entry: HandEntry, seats: Sequence[int]) -> list[ChinchonError]:
    """Each typed score on its own: missing, not a number, or not possible under the rules."""
    names, rules = current.table.names, current.rules
    possible, most = possible_closer_scores(rules), max_hand_points(rules)
    found: list[ChinchonError] = []
    for seat in seats:
        try:
            value = _typed_points(entry, seat, names[seat])
        except ServiceError as error:
            found.append(error)
            continue
        if seat == entry.closer and value not in possible:
            found.append(ServiceError("closer_points", f"points[{seat}]", value=value, possible=sorted(possible)))
        elif seat != entry.closer and not 0 <= value <= most:
            found.append(ServiceError("points_impossible", f"points[{seat}]", value=value))
    return found


def _misdraws(current: Standing, entry: HandEntry) -> list[ChinchonError]:
    """A player shown with 6 or 8 cards (a mis-draw: they score what they
    hold, SPEC §4) is stored only once the table says that is right."""
    names = current.table.names
    return [
        ServiceError("misdraw", f"hands[{seat}]", name=names[seat], count=count)
        for seat, count in misdrawn(current, entry)
        if seat not in entry.misdraws
    ]


def misdrawn(current: Standing, entry: HandEntry) -> list[tuple[int, int]]:
    """The players shown with 6 or 8 cards, with their count, in play order:
    the page asks whether that is right."""
    return [
        (seat, len(entry.cards[seat]))
        for seat in play_order(current, entry.closer)
        if seat != entry.closer and len(entry.cards.get(seat, [])) in (6, 8)
    ]


def play_order(current: Standing, closer: int | None) -> list[int]:
    """Players still in, in play order starting with the closer."""
    seats = current.seats_in
    if closer in seats:
        i = seats.index(closer)
        return seats[i:] + seats[:i]
    return seats


def preview(current: Standing, entry: HandEntry) -> Preview:
    """The verdict so far, never an exception: the engine's judgement of the
    cards tapped, or the first problem with them."""
    try:
        data = engine_input(current, entry)
        if entry.mode is EntryMode.POINTS:
            return Preview(None, None)
        judgement = judge(current, entry, data)
    except ChinchonError as error:
        return Preview(None, error)
    if judgement is not None and judgement.legal and judgement.missing:
        return Preview(judgement, judgement.missing[0])
    return Preview(judgement, None)


def engine_input(current: Standing, entry: HandEntry) -> HandInput:
    """Check the form's counts and tokens and build the engine's input; each
    refusal names its field (``closer``, ``hands[seat]``, ``points[seat]``)."""
    rules = current.rules
    names = current.table.names
    seats = current.seats_in
    if entry.closer is None or entry.closer not in seats:
        raise ServiceError("closer_missing", "closer")
    data = HandInput(
        closer=entry.closer,
        mode=entry.mode,
        chinchon=entry.chinchon,
        first_round=entry.first_round,
        choices=dict(entry.choices),
    )
    if entry.mode is EntryMode.POINTS:
        for seat in seats:
            data.points[seat] = _typed_points(entry, seat, names[seat])
        return data
    for seat in seats:
        cards: list[Card] = []
        for j, token in enumerate(entry.cards.get(seat, [])):
            try:
                cards.append(parse_card(token, rules.pack))
            except ChinchonError:
                raise ServiceError("not_a_card", f"hands[{seat}][{j}]", card=token) from None
        data.cards[seat] = cards
    if entry.discard:
        try:
            data.discard = parse_card(entry.discard, rules.pack)
        except ChinchonError:
            raise ServiceError("not_a_card", "discard", card=entry.discard) from None
        try:  # the discard is the eighth card: the engine checks the closer holds seven more
            check_close([*data.cards[entry.closer], data.discard], rules, entry.first_round, data.discard)
        except CountError as error:
            raise count_problem(error.at(f"hands[{entry.closer}]"), entry, current) from None
    return data


def _typed_points(entry: HandEntry, seat: int, name: str) -> int:
    raw = entry.points.get(seat, "")
    value = whole_number(raw)
    if value is None:
        if raw.strip() == "":
            raise ServiceError("points_missing_for", f"points[{seat}]", name=name)
        raise ServiceError("not_a_number", f"points[{seat}]", value=raw.strip()[:12])
    return value


def count_problem(error: ChinchonError, entry: HandEntry, current: Standing) -> ChinchonError:
    """The engine's card-count refusal for ``hands[seat]``, as the form's: the
    closer taps eight cards (or seven and the discard), the others seven."""
    seat = error.field[len("hands[") :].split("]")[0]
    if not seat.isdecimal():
        return error
    seat_ = int(seat)
    count = len(entry.cards.get(seat_, []))
    name = current.table.names[seat_]
    if seat_ == entry.closer:
        return ServiceError("closer_count", f"hands[{seat_}]", name=name, count=count + (1 if entry.discard else 0))
    return ServiceError("player_count", f"hands[{seat_}]", name=name, count=count)


def carded_seats(current: Standing, entry: HandEntry) -> list[int]:
    """Players entered with cards, the closer first, then in play order."""
    return [s for s in play_order(current, entry.closer) if entry.cards.get(s)]


def judge(current: Standing, entry: HandEntry, data: HandInput | None = None) -> Judgement | None:
    """The engine's verdict on the cards tapped, with the typed points of the
    players entered by points; ``None`` when nobody's cards were tapped.

    A player entered with cards lays off onto the melds of the closer and of
    the players before them entered with cards (the others' melds are unknown).
    """
    data = data or engine_input(current, entry)
    names = current.table.names
    seats = current.seats_in
    carded = carded_seats(current, entry)
    if not carded:
        return None
    if len(carded) == len(seats):
        try:
            result = settle(current, data)
        except CountError as error:
            raise count_problem(error, entry, current) from None
        order = seats
    else:
        if carded[0] != entry.closer:
            raise ServiceError("closer_cards_first", f"hands[{entry.closer}]", name=names[data.closer])
        result = _settle_carded(current, entry, data, carded)
        order = carded
    if result.results is None:
        return Judgement(result, order, {})
    refused = []
    if len(order) > 1:  # why a loose card that fits a meld stayed loose, said at its player's row
        hands = [
            [*data.cards.get(s, []), *([data.discard] if s == data.closer and data.discard is not None else [])]
            for s in order
        ]
        refused = [
            replace(x, player=order[x.player], owner=order[x.owner])
            for x in refused_layoffs(hands, current.rules, result)
        ]
    points = {s: r.points for s, r in zip(order, result.results, strict=True)}
    missing = []
    for seat in seats:
        if seat in points:
            continue
        try:
            points[seat] = _typed_points(entry, seat, names[seat])
        except ServiceError as error:
            if not result.wins_match:
                missing.append(error)
                continue
            points[seat] = 0  # after a Chinchón that wins the match, the others' points change nothing
    return Judgement(result, order, points, missing, refused)


def _settle_carded(current: Standing, entry: HandEntry, data: HandInput, carded: list[int]) -> HandResult:
    """The engine's verdict on some players' cards: the closer's close, and
    the others' melds and lay-offs onto the melds shown before theirs."""
    rules = current.rules
    hands = [list(data.cards[s]) for s in carded]
    if data.discard is not None:
        hands[0].append(data.discard)
    try:
        if len(carded) == 1:
            verdict = check_close(hands[0], rules, data.first_round, data.discard)
            mine = PlayerResult(verdict.melds, (), verdict.deadwood, verdict.score or 0)
            return HandResult(verdict, 0, (mine,) if verdict.legal else None)
        choices = {carded.index(s): k for s, k in data.choices.items() if s in carded}
        return settle_hand(hands, rules, 0, data.first_round, choices=choices)
    except CountError as error:
        index = error.field[len("hands[") :].split("]")[0] if error.field.startswith("hands[") else "0"
        seat = carded[int(index)] if index.isdecimal() and int(index) < len(carded) else entry.closer
        raise count_problem(error.at(f"hands[{seat}]"), entry, current) from None


def settle(current: Standing, data: HandInput) -> HandResult:
    """The engine's verdict for a hand entered with everybody's cards (players still in, in play order)."""
    seats = current.seats_in
    hands = [data.cards.get(s, []) for s in seats]
    closer = seats.index(data.closer)
    if data.discard is not None:
        hands[closer] = [*hands[closer], data.discard]
    choices = {seats.index(s): k for s, k in data.choices.items() if s in seats}
    try:
        return settle_hand(hands, current.rules, closer, data.first_round, choices=choices)
    except ChinchonError as error:
        raise error.at(_seat_field(error.field, seats)) from None


def _seat_field(field_path: str, seats: Sequence[int]) -> str:
    """``hands[i][j]`` from the engine → ``hands[seat][j]`` for the form."""
    if field_path.startswith("hands[") and "]" in field_path:
        index, rest = field_path[6:].split("]", 1)
        if index.isdecimal() and int(index) < len(seats):
            return f"hands[{seats[int(index)]}]{rest}"
    return field_path


def entry_points(current: Standing, entry: HandEntry) -> dict[int, int] | None:
    """The entry's hand as points by seat (the engine's for the players
    entered with cards), or ``None`` while it is incomplete or refused."""
    try:
        data = engine_input(current, entry)
        if entry.mode is EntryMode.CARDS:
            judgement = judge(current, entry, data)
            if judgement is not None:
                return dict(judgement.points) if judgement.legal and not judgement.missing else None
            data = engine_input(current, _by_points(entry))
    except ChinchonError:
        return None
    return dict(data.points)


def _by_points(entry: HandEntry) -> HandEntry:
    return HandEntry(
        entry.closer, EntryMode.POINTS, {}, None, dict(entry.points), entry.chinchon, entry.first_round, entry.choices
    )


def entry_of(hand: Hand) -> HandEntry:
    """The entry that re-enters a stored hand (to correct it): each player by
    cards where their cards were kept, else by points."""
    entry = HandEntry(
        closer=hand.closer_seat,
        first_round=hand.first_round,
        chinchon=hand.chinchon and not any(e.cards for e in hand.entries),
    )
    for e in hand.entries:
        entry.cards[e.seat] = e.cards.split()  # the closer's entry holds all eight
        if e.seat != hand.closer_seat and entry.cards[e.seat] and len(entry.cards[e.seat]) != 7:
            entry.misdraws.add(e.seat)  # confirmed when it was stored
        entry.points[e.seat] = str(e.points)
        if e.choice:
            entry.choices[e.seat] = e.choice
    return entry


# -- saving ---------------------------------------------------------------------------------------
def save_hand(
    table: GameTable,
    version: int | None,
    submission: str,
    entry: HandEntry,
    *,
    replaces: Hand | None = None,
    drop_later: bool = False,
) -> SavedHand:
    """Judge the hand and store it (inside the unit of work): every player by
    cards (the engine settles it all), by points, or some by cards and the
    others by points.  ``replaces``: the hand this one corrects;
    ``drop_later``: a correction the later hands no longer fit undoes them,
    from the first that does not fit on (and the buy-backs after them), kept
    in the history to be restored or entered again.

    Raises :class:`AlreadySaved` for a replayed form, :class:`StaleError`
    when the table changed since the form was shown, a coded
    :class:`ServiceError` (or the engine's error) when the hand, or for a
    correction the replay of every later hand, breaks the rules.
    """
    check_new_submission(Hand, table, submission)
    current = standing_before(table, replaces) if replaces is not None else standing(table)
    if replaces is None:  # first whether the table takes a hand at all, then what is wrong with this one
        verify_next_hand(table, current)
    else:
        verify_open(table)
    was_active = {h.id: h.number for h in table.active_hands()}
    bought = {r.id: (r.seat, r.after_hand) for r in table.active_reentries() if not r.declined}
    checked = check_entry(current, entry)
    if checked.problems:
        raise checked.refusal()
    data, judgement = checked.data, checked.judgement
    assert data is not None  # no problem found: the engine's input was built
    others = [s for s in current.seats_in if s != entry.closer]
    # How the others were entered, stored with the hand: the page opens the same way next time.
    table.entry_mode = EntryMode.CARDS if any(entry.cards.get(s) for s in others) else EntryMode.POINTS
    if judgement is None or judgement.all_cards:
        hand = store_hand(table, version, submission, data, replaces=replaces, drop_later=drop_later)
    else:  # some by cards, the others by points: check_entry found the close legal and every point in
        hand = _store_mixed(table, version, submission, data, judgement, replaces=replaces, drop_later=drop_later)
    still = {h.id for h in table.active_hands()}
    dropped = tuple(n for i, n in was_active.items() if i not in still and replaces is not None and i != replaces.id)
    kept = {r.id for r in table.active_reentries()}
    # Undone by the replay (the corrected hand no longer puts them out), not with a dropped hand.
    unbought = tuple(
        table.names[seat]
        for i, (seat, after) in bought.items()
        if i not in kept and after < min(dropped, default=after + 1)
    )
    after = standing(table)
    return SavedHand(
        hand.number, replaces is not None, table.version, after.next_number, LastHand.of(after), dropped, unbought
    )


def store_hand(
    table: GameTable,
    version: int | None,
    submission: str,
    data: HandInput,
    *,
    replaces: Hand | None = None,
    drop_later: bool = False,
) -> Hand:
    """Store one hand given as the engine takes it (or the new version of an
    edited one); inside the unit of work.  Digital play stores each closed
    deal through here; forms go through :func:`save_hand`."""
    check_new_submission(Hand, table, submission)
    current = standing(table)
    if replaces is None:
        step = verify_next_hand(table, current)  # open, and ready for its next hand
        before, number, dealer = current, step.number, step.dealer
    else:
        verify_open(table)
        before, number, dealer = standing_before(table, replaces), replaces.number, replaces.dealer_seat
    if data.closer not in before.seats_in:
        raise ServiceError("closer_out", "closer")
    hand = Hand(
        number=number,
        mode=data.mode,
        closer_seat=data.closer,
        dealer_seat=dealer,
        first_round=data.first_round,
        submission=submission,
    )
    if data.mode is EntryMode.CARDS:
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
        _replay_after_edit(table, drop_later)
    return hand


def check_points(current: Standing, data: HandInput) -> None:
    """Typed points must be possible under the rules."""
    rules = current.rules
    possible = possible_closer_scores(rules)
    most = max_hand_points(rules)
    for seat in current.seats_in:
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


def _store_mixed(
    table: GameTable,
    version: int | None,
    submission: str,
    data: HandInput,
    judgement: Judgement,
    *,
    replaces: Hand | None = None,
    drop_later: bool = False,
) -> Hand:
    """A hand entered player by player: every player's points (the engine's
    for the players entered with cards) stored as points, and those
    players' cards and melds kept beside them."""
    data.points = dict(judgement.points)
    data.chinchon = judgement.chinchon
    data.mode = EntryMode.POINTS
    hand = store_hand(table, version, submission, data, replaces=replaces, drop_later=drop_later)
    order = judgement.seats
    by_seat = dict(zip(order, judgement.result.results or (), strict=True))
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
    hand.discard = str(judgement.result.discard) if judgement.result.discard is not None else None
    return hand


def _replay_after_edit(table: GameTable, drop_later: bool = False) -> None:
    """After an edit, re-entries the rules no longer allow are undone, and every
    later hand must still replay under the rules; the first that does not is
    named, with what no longer fits and how many hands to undo to save the edit.
    ``drop_later``: those hands (and the buy-backs after them) are undone
    instead, the last first, so the first is the one a tap restores."""
    hands = table.active_hands()
    try:
        replay(table, hands, table.active_reentries(), void_broken=True)
    except HandMisfit as misfit:
        number = misfit.params["number"]
        count = sum(1 for h in hands if h.number >= number)
        if not drop_later:
            raise ServiceError("later_hand", "closer", count=count, **misfit.params) from None
        stamp = now()
        for k, h in enumerate(reversed([h for h in hands if h.number >= number])):
            h.undone_at = stamp + timedelta(microseconds=k + 1)
        for r in table.active_reentries():
            if r.after_hand >= number:
                r.undone_at = stamp
        replay(table, table.active_hands(), table.active_reentries(), void_broken=True)
