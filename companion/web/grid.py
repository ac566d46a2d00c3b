"""The tap-to-select card grid shared by hand entry and the referee pages.

The form itself is the grid's only state: each tab (a player, the discard)
has its own panel of checkboxes named after the tab's field, one checkbox per
copy of a card, and the active tab is a radio button.  A tap checks or
unchecks a box, natively, with or without JavaScript; the form posts exactly
the boxes that are checked.  A cell is its card's boxes laid over one face
(the rank; ``app.css`` draws the suit and the other tabs' marks), so a panel
of 40 cards weighs a few kilobytes.  Two decks: the second copy's box takes
the tap while exactly one is checked (see ``app.css``), so a card cycles 0,
1, 2, 1, 0.  The script (``static/app.js``) only reads the boxes to refresh
counters and marks, moves to the next player after seven cards and asks for
the verdict once tapping pauses or a tab is full; the server judges whatever
the form holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ..rules import JOKER, Card, ChinchonError, Rules, parse_card
from .i18n import card_label, card_name


@dataclass
class Tab:
    key: str  # the value of the "active" radio button
    input: str  # the form field holding this tab's cards (one checkbox per copy)
    label: str
    cards: list[str]
    limit: int
    mark: str  # shown on a card held by this tab while another tab is active
    #: After this many cards the script moves on to the next such tab (0: never).
    advance: int = 0

    @property
    def count(self) -> int:
        return len(self.cards)


@dataclass
class Cell:
    card: Card
    token: str
    name: str  # every box's accessible name: "5 de oros"
    face: str  # the rank as shown ("12", "K", "★"); app.css adds the suit
    mine: int  # copies this tab holds
    copies: int  # checkboxes: copies of this card in the pack
    full: bool  # every copy is held, here or on other tabs: the boxes not checked are disabled
    marks: str

    @property
    def taken(self) -> bool:
        """Every copy is another tab's: no box of this cell can be checked."""
        return self.full and not self.mine


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
        if self.tab(self.active) is None and self.tabs:
            self.active = self.tabs[0].key

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

    def cells(self, tab: Tab) -> Iterator[Cell]:
        """The grid as ``tab`` sees it: its own cards checked, the others' marked.

        A card has one checkbox per copy in the pack; jokers get a cell each."""
        holders = self.holders()
        for row in self.rows:
            for card in row:
                token = str(card)
                held = holders.get(token, [])
                mine = sum(1 for t in held if t is tab)
                marks = "".join(t.mark for t in held if t is not tab)
                name, face = card_name(card, self.deck, self.style), self.face(card)
                if card == JOKER:
                    full = len(held) >= self.copies(token)
                    for i in range(max(self.copies(token), mine)):
                        yield Cell(card, token, name, face, int(i < mine), 1, full, marks)
                    continue
                yield Cell(
                    card=card,
                    token=token,
                    name=name,
                    face=face,
                    mine=mine,
                    copies=max(self.copies(token), mine),
                    full=len(held) >= self.copies(token),
                    marks=marks,
                )

    def face(self, card: Card) -> str:
        """The rank a cell shows: its suit (a mark, or the Spanish suit's icon) is drawn by CSS."""
        label = card_label(card, self.deck, self.style)
        return label[:-1] if card.suit and self.style == "french" else label

    def tab(self, key: str) -> Tab | None:
        return next((t for t in self.tabs if t.key == key), None)

    def unknown(self) -> list[str]:
        """Tokens a form sent that the grid cannot show (kept so the checks name them)."""
        shown = {str(c) for row in self.rows for c in row}
        return [t for tab in self.tabs for t in tab.cards if t not in shown]


def read_tokens(values: str | Iterable[str], rules: Rules) -> list[str]:
    """Canonical tokens from a form: the checked boxes of one field, or a
    space-separated list (permalinks); anything unparsable is kept as typed
    so the checks report it where it belongs."""
    raw = values.split() if isinstance(values, str) else [t for v in values for t in v.split()]
    out = []
    for token in raw:
        try:
            out.append(str(parse_card(token, rules.pack)))
        except ChinchonError:
            out.append(token)
    return out


def short_marks(labels: Sequence[str]) -> list[str]:
    """A distinct short mark per label: the initial, else the first letters
    that tell them apart, else the position ("Player 2", "Player 3" → "2", "3")."""
    for size in (1, 2):
        marks = [label.strip()[:size].upper() or "?" for label in labels]
        if len(set(marks)) == len(marks):
            return marks
    return [str(i + 1) for i in range(len(labels))]
