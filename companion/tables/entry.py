"""The hand-entry form's state: who closed, each player's cards or points.

The same state travels in the form's hidden fields whether the page runs
with JavaScript (taps toggle cards in the browser) or without (each tap is a
submit the server applies), so nothing about a half-entered hand is kept on
the server.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..grid import GridView, Tab, read_tokens
from ..models import Hand
from ..rules import Card, ChinchonError, parse_card
from ..scoreboard import HandInput, Standing

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
    try:
        return int(value) if value not in (None, "") else default
    except ValueError:
        return default


def read_state(form: MultiDict, standing: Standing) -> EntryState:
    rules = standing.rules
    seats = standing.seats_in
    state = EntryState(
        closer=_int(form.get("closer")),
        mode="points" if form.get("mode") == "points" else "cards",
        discard=(read_tokens(form.get("discard", ""), rules) or [None])[0],
        active=form.get("active", ""),
        chinchon=form.get("chinchon") in ("y", "on", "1", "true"),
        first_round=form.get("first_round") in ("y", "on", "1", "true"),
        version=_int(form.get("version"), 0) or 0,
        submission=(form.get("submission") or uuid.uuid4().hex)[:40],
    )
    for seat in seats:
        state.hands[seat] = read_tokens(form.get(f"h{seat}", ""), rules)
        if form.get(f"p{seat}", "") != "":
            state.points[seat] = form.get(f"p{seat}", "").strip()
        choice = _int(form.get(f"c{seat}"))
        if choice:
            state.choices[seat] = max(0, min(choice, 50))
    # No-JavaScript controls: a tab or a card tapped is a submit button.
    if "tab" in form:
        state.active = form["tab"]
    if not state.active and state.closer is not None:
        state.active = str(state.closer)
    if "tap" in form:
        tap(state, form["tap"], standing)
    if "alt" in form:
        seat, _sep, k = form["alt"].partition(":")
        if _int(seat) is not None and _int(k) is not None:
            state.choices[int(seat)] = int(k)
    return state


def grid_view(state: EntryState, standing: Standing, style: str) -> GridView:
    """The card grid for this form: one tab per player still in, then the discard."""
    names = standing.table.names
    tabs = [Tab(str(s), f"h{s}", names[s], state.hands.setdefault(s, []), 8, names[s][:2]) for s in standing.seats_in]
    tabs.append(Tab(DISCARD, "discard", _("Discard"), [state.discard] if state.discard else [], 1, "↓"))
    return GridView(standing.rules, tabs, state.active, style)


def tap(state: EntryState, token: str, standing: Standing) -> None:
    view = grid_view(state, standing, "spanish")
    view.tap(token)
    discard = view.tab(DISCARD)
    state.discard = discard.cards[0] if discard and discard.cards else None


def state_of_hand(hand: Hand, standing: Standing) -> EntryState:
    """The form state that re-enters a stored hand (for editing it)."""
    state = EntryState(
        closer=hand.closer_seat,
        mode=hand.mode,
        first_round=hand.first_round,
        chinchon=hand.chinchon and hand.mode == "points",
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
        count = len(cards)
        if seat == state.closer:
            total = count + (1 if state.discard else 0)
            if total != 8 and not (count == 7 and not state.discard):
                raise ChinchonError(
                    _(
                        "%(name)s closed: tap the 8 cards held (or the 7 shown and the discard); %(count)s so far.",
                        name=names[seat],
                        count=total,
                    ),
                    f"hands[{seat}]",
                )
        elif not 6 <= count <= 8:
            raise ChinchonError(
                _("%(name)s holds 7 cards (6 or 8 after a mis-draw); %(count)s tapped.", name=names[seat], count=count),
                f"hands[{seat}]",
            )
    if state.discard:
        try:
            data.discard = parse_card(state.discard, rules.pack)
        except ChinchonError:
            raise ChinchonError(_("'%(card)s' is not a card of this deck.", card=state.discard), "discard") from None
    return data
