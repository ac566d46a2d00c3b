"""The tap-to-select card grid shared by hand entry and the referee pages.

State lives in hidden inputs (one per tab, space-separated tokens), so the
page works as a plain form without JavaScript (each tap is a submit the
server applies with :func:`tap`) and instantly with it (``static/app.js``
runs the same toggle in the browser).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .rules import JOKER, Card, ChinchonError, Rules, parse_card


@dataclass
class Tab:
    key: str  # what the "tab" button sends
    input: str  # the hidden input holding this tab's cards
    label: str
    cards: list[str]
    limit: int
    mark: str  # shown on a card held by this tab while another tab is active

    @property
    def count(self) -> int:
        return len(self.cards)


@dataclass
class Cell:
    card: Card
    token: str
    suit: str
    mine: int
    disabled: bool
    marks: str


@dataclass
class GridView:
    rules: Rules
    tabs: list[Tab]
    active: str
    style: str
    rows: list[list[Card]] = field(default_factory=list)
    #: Players at the table, when known: "auto" decks depend on it.
    players: int | None = None

    def __post_init__(self) -> None:
        if not self.rows:
            deck = self.rules.pack
            self.rows = [[c for c in deck.cards() if c.rank == rank] for rank in deck.ranks]
            if self.rules.jokers:
                self.rows.append([JOKER])

    @property
    def deck(self) -> str:
        return self.rules.deck

    def copies(self, token: str) -> int:
        return self.rules.jokers if token == "*" else self.rules.copies(self.players)

    def holders(self) -> dict[str, list[Tab]]:
        out: dict[str, list[Tab]] = {}
        for tab in self.tabs:
            for token in tab.cards:
                out.setdefault(token, []).append(tab)
        return out

    def cells(self) -> Iterator[Cell]:
        holders = self.holders()
        for row in self.rows:
            for card in row:
                token = str(card)
                held = holders.get(token, [])
                mine = sum(1 for t in held if t.key == self.active)
                marks = "".join(t.mark for t in held if t.key != self.active) + (f"×{mine}" if mine > 1 else "")
                yield Cell(
                    card=card,
                    token=token,
                    suit=card.suit.value if card.suit else "joker",
                    mine=mine,
                    disabled=not mine and len(held) >= self.copies(token),
                    marks=marks,
                )

    def tab(self, key: str) -> Tab | None:
        return next((t for t in self.tabs if t.key == key), None)

    def tap(self, token: str) -> None:
        """Toggle a card for the active tab: add a copy if one is free, else
        take the tab's copies back (the same cycle as the browser script)."""
        try:
            token = str(parse_card(token, self.rules.pack))
        except ChinchonError:
            return
        tab = self.tab(self.active)
        if tab is None:
            return
        free = self.copies(token) - len(self.holders().get(token, []))
        if free > 0 and len(tab.cards) < tab.limit:
            tab.cards.append(token)
        else:
            tab.cards[:] = [c for c in tab.cards if c != token]


def read_tokens(raw: str, rules: Rules) -> list[str]:
    """Canonical tokens from a hidden field; anything unparsable is kept as
    typed so the checks report it where it belongs."""
    out = []
    for token in raw.split():
        try:
            out.append(str(parse_card(token, rules.pack)))
        except ChinchonError:
            out.append(token)
    return out
