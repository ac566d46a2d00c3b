"""The hand-entry form's state: who closed, each player's cards or points.

The state is the form itself: a checkbox per card and player (see
``companion/web/grid.py``), a points field per player, the closer's score as a
choice, the same with or without JavaScript; nothing about a half-entered
hand is kept on the server.  :meth:`EntryState.entry` gives the plain
values ``services.hands`` judges and stores.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..models import EntryMode, Hand
from ..services.hands import HandEntry, entry_of, play_order
from ..services.standing import Standing
from ..web.grid import GridView, Tab, read_tokens, short_marks

DISCARD = "d"


@dataclass
class EntryState:
    """The form as sent: the hand (:meth:`entry`) plus what the page keeps
    around it (the open tab, the version the page showed, its submission id)."""

    closer: int | None = None
    mode: EntryMode = EntryMode.CARDS
    hands: dict[int, list[str]] = field(default_factory=dict)
    discard: str | None = None
    active: str = ""
    points: dict[int, str] = field(default_factory=dict)
    chinchon: bool = False
    first_round: bool = False
    choices: dict[int, int] = field(default_factory=dict)
    #: Players the table confirmed hold 6 or 8 cards (a mis-draw).
    misdraws: set[int] = field(default_factory=set)
    version: int = 0
    submission: str = field(default_factory=lambda: uuid.uuid4().hex)
    #: The hand's number as the page showed it (None: not said).
    number: int | None = None

    def tokens(self, seat: int) -> str:
        return " ".join(self.hands.get(seat, []))

    def keep_only(self, seats: list[int]) -> None:
        """Forget what the form holds for players no longer in (a hand entered again)."""
        for held in (self.hands, self.points, self.choices):
            for seat in [s for s in held if s not in seats]:
                del held[seat]
        self.misdraws &= set(seats)
        if self.closer not in seats:
            self.closer = None
            self.active = ""

    def order(self, standing: Standing) -> list[int]:
        """Players still in, in play order starting with the closer."""
        return play_order(standing, self.closer)

    def entry(self) -> HandEntry:
        """The hand as plain values, for the services."""
        return HandEntry(
            closer=self.closer,
            mode=self.mode,
            cards={seat: list(cards) for seat, cards in self.hands.items()},
            discard=self.discard,
            points=dict(self.points),
            chinchon=self.chinchon,
            first_round=self.first_round,
            choices=dict(self.choices),
            misdraws=set(self.misdraws),
        )


def _int(value: str | None, default: int | None = None) -> int | None:
    """A small whole number from the form (at most 9 digits), else ``default``."""
    if value in (None, "") or len(value) > 9:
        return default
    try:
        return int(value)
    except ValueError:
        return default


def _yes(value: str | None) -> bool:
    return value in ("y", "on", "1", "true")


def read_state(form: MultiDict[str, str], standing: Standing) -> EntryState:
    rules = standing.rules
    seats = standing.seats_in
    state = EntryState(
        closer=_int(form.get("closer")),
        mode=EntryMode.POINTS if form.get("mode") == EntryMode.POINTS else EntryMode.CARDS,
        discard=next(iter(read_tokens(form.getlist("discard"), rules)), None),
        active=form.get("active", ""),
        chinchon=_yes(form.get("chinchon")),
        first_round=_yes(form.get("first_round")),
        version=_int(form.get("version"), 0) or 0,
        submission=(form.get("submission") or uuid.uuid4().hex)[:40],
        number=_int(form.get("number")),
    )
    for seat in seats:
        state.hands[seat] = read_tokens(form.getlist(f"h{seat}"), rules)
        if form.get(f"p{seat}", "") != "":
            state.points[seat] = form.get(f"p{seat}", "").strip()
        if _yes(form.get(f"m{seat}")):
            state.misdraws.add(seat)
        choice = _int(form.get(f"c{seat}"))
        if choice:
            state.choices[seat] = max(0, min(choice, 50))
    if state.closer in seats and form.get("closer_score", "") != "" and not state.points.get(state.closer):
        state.points[state.closer] = form.get("closer_score", "").strip()
    if not state.active and state.closer is not None:
        state.active = str(state.closer)
    if "alt" in form:
        which, _sep, k = form["alt"].partition(":")
        picked, pick = _int(which), _int(k)
        if picked is not None and pick is not None:
            state.choices[picked] = max(0, min(pick, 50))
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


def state_of_hand(hand: Hand, version: int) -> EntryState:
    """The form state that re-enters a stored hand (for correcting it)."""
    entry = entry_of(hand)
    return EntryState(
        closer=entry.closer,
        hands=entry.cards,
        active=str(hand.closer_seat),
        points=entry.points,
        chinchon=entry.chinchon,
        first_round=entry.first_round,
        choices=entry.choices,
        misdraws=entry.misdraws,
        version=version,
    )
