"""The hand-entry form's state: who closed, each player's cards or points.

The state is the form itself: a checkbox per card and player (see
``companion/web/grid.py``), a points field per player, the closer's score as a
choice, the same with or without JavaScript; nothing about a half-entered
hand is kept on the server.  Each player is entered by cards or by points:
the players with cards are judged by the engine (:func:`judge`), the others'
points are taken as typed.
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass, field

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..models import Hand
from ..rules import Card, ChinchonError, HandResult, check_close, parse_card, settle_hand
from ..rules.errors import CountError
from ..rules.settle import PlayerResult
from ..services.scoreboard import HandInput, Standing, settle
from ..web.grid import GridView, Tab, read_tokens, short_marks
from ..web.messages import error_text

DISCARD = "d"


@dataclass
class EntryState:
    closer: int | None = None
    mode: str = "cards"
    hands: dict[int, list[str]] = field(default_factory=dict)
    discard: str | None = None
    active: str = ""
    points: dict[int, str] = field(default_factory=dict)
    chinchon: bool = False
    first_round: bool = False
    choices: dict[int, int] = field(default_factory=dict)
    version: int = 0
    submission: str = field(default_factory=lambda: uuid.uuid4().hex)

    def tokens(self, seat: int) -> str:
        return " ".join(self.hands.get(seat, []))

    def order(self, standing: Standing) -> list[int]:
        """Players still in, in play order starting with the closer."""
        seats = standing.seats_in
        if self.closer in seats:
            i = seats.index(self.closer)
            return seats[i:] + seats[:i]
        return seats


def _int(value: str | None, default: int | None = None) -> int | None:
    """A small whole number from the form (at most 9 digits), else ``default``."""
    if value in (None, "") or len(value) > 9:
        return default
    try:
        return int(value)
    except ValueError:
        return default


def read_state(form: MultiDict, standing: Standing) -> EntryState:
    rules = standing.rules
    seats = standing.seats_in
    state = EntryState(
        closer=_int(form.get("closer")),
        mode="points" if form.get("mode") == "points" else "cards",
        discard=(read_tokens(form.getlist("discard"), rules) or [None])[0],
        active=form.get("active", ""),
        chinchon=form.get("chinchon") in ("y", "on", "1", "true"),
        first_round=form.get("first_round") in ("y", "on", "1", "true"),
        version=_int(form.get("version"), 0) or 0,
        submission=(form.get("submission") or uuid.uuid4().hex)[:40],
    )
    for seat in seats:
        state.hands[seat] = read_tokens(form.getlist(f"h{seat}"), rules)
        if form.get(f"p{seat}", "") != "":
            state.points[seat] = form.get(f"p{seat}", "").strip()
        choice = _int(form.get(f"c{seat}"))
        if choice:
            state.choices[seat] = max(0, min(choice, 50))
    if state.closer in seats and form.get("closer_score", "") != "" and not state.points.get(state.closer):
        state.points[state.closer] = form.get("closer_score", "").strip()
    if not state.active and state.closer is not None:
        state.active = str(state.closer)
    if "alt" in form:
        seat, _sep, k = form["alt"].partition(":")
        if _int(seat) is not None and _int(k) is not None:
            state.choices[int(seat)] = max(0, min(int(k), 50))
    return state


def grid_view(state: EntryState, standing: Standing, style: str) -> GridView:
    """The card grid for this form: one tab per player still in, then the discard."""
    names = standing.table.names
    seats = standing.seats_in
    marks = short_marks([names[s] for s in seats])
    tabs = [
        Tab(str(s), f"h{s}", names[s], state.hands.setdefault(s, []), 8, mark, advance=7)
        for s, mark in zip(seats, marks, strict=True)
    ]
    tabs.append(Tab(DISCARD, "discard", _("Discard"), [state.discard] if state.discard else [], 1, "↓"))
    return GridView(standing.rules, tabs, state.active or (str(seats[0]) if seats else DISCARD), style)


def state_of_hand(hand: Hand, standing: Standing) -> EntryState:
    """The form state that re-enters a stored hand (for editing it)."""
    state = EntryState(
        closer=hand.closer_seat,
        mode="cards",  # each player by cards where the cards were kept, else by points
        first_round=hand.first_round,
        chinchon=hand.chinchon and not any(e.cards for e in hand.entries),
        active=str(hand.closer_seat),
    )
    for e in hand.entries:
        state.hands[e.seat] = e.cards.split()  # the closer's entry holds all eight
        state.points[e.seat] = str(e.points)
        if e.choice:
            state.choices[e.seat] = e.choice
    return state


def to_input(state: EntryState, standing: Standing) -> HandInput:
    """Check counts and tokens, then build the engine's input; errors carry
    the form field (``closer``, ``hands[seat]``, ``points[seat]``)."""
    rules = standing.rules
    names = standing.table.names
    if state.closer is None or state.closer not in standing.seats_in:
        raise ChinchonError(_("Choose who closed."), "closer")
    data = HandInput(closer=state.closer, mode=state.mode, chinchon=state.chinchon, first_round=state.first_round)
    data.choices = dict(state.choices)
    if state.mode == "points":
        for seat in standing.seats_in:
            raw = state.points.get(seat, "")
            value = _int(raw)
            if value is None:
                message = (
                    _("Enter %(name)s's points.", name=names[seat])
                    if raw == ""
                    else _("%(value)s is not a whole number.", value=raw)
                )
                raise ChinchonError(message, f"points[{seat}]")
            data.points[seat] = value
        return data
    for seat in standing.seats_in:
        cards: list[Card] = []
        for j, token in enumerate(state.hands.get(seat, [])):
            try:
                cards.append(parse_card(token, rules.pack))
            except ChinchonError:
                raise ChinchonError(
                    _("'%(card)s' is not a card of this deck.", card=token), f"hands[{seat}][{j}]"
                ) from None
        data.cards[seat] = cards
    if state.discard:
        try:
            data.discard = parse_card(state.discard, rules.pack)
        except ChinchonError:
            raise ChinchonError(_("'%(card)s' is not a card of this deck.", card=state.discard), "discard") from None
        try:  # the discard is the eighth card: the engine checks the closer holds seven more
            check_close([*data.cards[state.closer], data.discard], rules, state.first_round, data.discard)
        except CountError as error:
            raise count_problem(error.at(f"hands[{state.closer}]"), state, standing) from None
    return data


def count_problem(error: CountError, state: EntryState, standing: Standing) -> ChinchonError:
    """The engine's card-count refusal for ``hands[seat]``, worded for the form."""
    names = standing.table.names
    seat = error.field[len("hands[") :].split("]")[0]
    if not seat.isdecimal():
        return ChinchonError(error_text(error), error.field)
    seat_ = int(seat)
    count = len(state.hands.get(seat_, []))
    if seat_ == state.closer:
        message = _(
            "%(name)s closed: tap the 8 cards held (or the 7 shown and the discard); %(count)s so far.",
            name=names[seat_],
            count=count + (1 if state.discard else 0),
        )
    else:
        message = _(
            "%(name)s holds 7 cards (6 or 8 after a mis-draw); %(count)s tapped.", name=names[seat_], count=count
        )
    return ChinchonError(message, f"hands[{seat_}]")


# -- each player by cards or by points ----------------------------------------------------
@dataclass
class Judged:
    """A hand entered player by player: the engine's verdict on the players
    entered with cards (the closer first, then in play order) and every
    player's points (the engine's for cards, the typed ones for the others)."""

    result: HandResult
    seats: list[int]  # the seats of ``result.results``, in its order
    points: dict[int, int]
    #: What is still missing (a player's points not typed yet), first first.
    missing: list[ChinchonError] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return self.result.legal

    @property
    def verdict(self):
        return self.result.verdict

    @property
    def chinchon(self) -> bool:
        return self.result.chinchon

    @property
    def wins_match(self) -> bool:
        return self.result.wins_match

    @property
    def all_cards(self) -> bool:
        return len(self.seats) == len(self.points) and not self.missing

    def result_of(self, seat: int) -> PlayerResult | None:
        if self.result.results is None or seat not in self.seats:
            return None
        return self.result.results[self.seats.index(seat)]


def carded_seats(state: EntryState, standing: Standing) -> list[int]:
    """Players entered with cards, the closer first, then in play order."""
    return [s for s in state.order(standing) if state.hands.get(s)]


def judge(state: EntryState, standing: Standing, data: HandInput) -> Judged | None:
    """The engine's verdict on the cards tapped, with the typed points of the
    players entered by points; ``None`` when nobody's cards were tapped.

    A player entered with cards lays off onto the melds of the closer and of
    the players before them entered with cards (the others' melds are unknown).
    """
    rules = standing.rules
    names = standing.table.names
    seats = standing.seats_in
    carded = carded_seats(state, standing)
    if not carded:
        return None
    if len(carded) == len(seats):
        result = settle(standing, data)
        order = seats
    else:
        if carded[0] != state.closer:
            raise ChinchonError(
                _("Tap %(name)s's cards too: the others lay off onto the closer's melds.", name=names[state.closer]),
                f"hands[{state.closer}]",
            )
        hands = [list(data.cards[s]) for s in carded]
        if data.discard is not None:
            hands[0].append(data.discard)
        try:
            if len(carded) == 1:
                verdict = check_close(hands[0], rules, data.first_round, data.discard)
                mine = PlayerResult(verdict.melds, (), verdict.deadwood, verdict.score or 0)
                result = HandResult(verdict, 0, (mine,) if verdict.legal else None)
            else:
                choices = {carded.index(s): k for s, k in data.choices.items() if s in carded}
                result = settle_hand(hands, rules, 0, data.first_round, choices=choices)
        except CountError as error:
            index = error.field[len("hands[") :].split("]")[0] if error.field.startswith("hands[") else "0"
            seat = carded[int(index)] if index.isdecimal() and int(index) < len(carded) else state.closer
            raise count_problem(error.at(f"hands[{seat}]"), state, standing) from None
        order = carded
    if result.results is None:
        return Judged(result, order, {})
    points = {s: r.points for s, r in zip(order, result.results, strict=True)}
    missing = []
    for seat in seats:
        if seat in points:
            continue
        raw = state.points.get(seat, "")
        value = _int(raw)
        if value is None and not result.wins_match:
            message = (
                _("Enter %(name)s's points.", name=names[seat])
                if raw == ""
                else _("%(value)s is not a whole number.", value=raw)
            )
            missing.append(ChinchonError(message, f"points[{seat}]"))
            continue
        points[seat] = value or 0  # after a Chinchón that wins the match, the others' points change nothing
    return Judged(result, order, points, missing)


def entry_points(standing: Standing, state: EntryState) -> dict[int, int] | None:
    """The form's hand as points by seat (the engine's for the players
    entered with cards), or ``None`` while it is incomplete or refused."""
    try:
        data = to_input(state, standing)
        if state.mode == "cards":
            judged = judge(state, standing, data)
            if judged is not None:
                return dict(judged.points) if judged.legal and not judged.missing else None
            data = to_input(dataclasses.replace(state, mode="points"), standing)
    except ChinchonError:
        return None
    return dict(data.points)
