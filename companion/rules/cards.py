"""Cards, decks, parsing and formatting (SPEC §1).

A card is a small frozen value: ``Card(5, Suit.OROS)`` is the five of oros,
written ``5o``; the joker is ``JOKER``, written ``*``.

>>> parse_card("R♦", SPANISH40)
Card(rank=12, suit=<Suit.OROS: 'o'>)
>>> str(parse_card(" 11C ", SPANISH40))
'11c'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import CardError


class Suit(enum.StrEnum):
    """The four suits, by their Spanish initial (the canonical letter)."""

    OROS = "o"  # diamonds
    COPAS = "c"  # hearts
    ESPADAS = "e"  # spades
    BASTOS = "b"  # clubs

    @property
    def symbol(self) -> str:
        return _SYMBOL[self]

    # Shadows str.index (a suit is a str): callers want its position 0-3, never a search in its one letter.
    @property
    def index(self) -> int:  # type: ignore[override]
        return _SUIT_INDEX[self]


SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_SYMBOL = {Suit.OROS: "♦", Suit.COPAS: "♥", Suit.ESPADAS: "♠", Suit.BASTOS: "♣"}
_SUIT_ALIASES = {s.value: s for s in SUITS} | {
    "♦": Suit.OROS,
    "♢": Suit.OROS,
    "♥": Suit.COPAS,
    "♡": Suit.COPAS,
    "♠": Suit.ESPADAS,
    "♤": Suit.ESPADAS,
    "♣": Suit.BASTOS,
    "♧": Suit.BASTOS,
}


class Card(int):
    """A real card (rank, suit) or the joker (rank 0, no suit).

    An immutable value stored as one small int (``rank * 4 + suit``, the joker
    0), so hashing and comparing cards costs what ints cost; cards order by
    rank, then suit.
    """

    __slots__ = ()

    def __new__(cls, rank: int, suit: Suit | None) -> Card:
        return int.__new__(cls, 0 if suit is None else rank * 4 + _SUIT_INDEX[suit])

    @property
    def rank(self) -> int:
        return int(self) >> 2

    @property
    def suit(self) -> Suit | None:
        return None if self == 0 else SUITS[self & 3]

    @property
    def is_joker(self) -> bool:
        return self == 0

    def __bool__(self) -> bool:
        return True  # the joker is a card too, never "nothing"

    def __str__(self) -> str:
        return "*" if self == 0 else f"{int(self) >> 2}{SUITS[self & 3].value}"

    def __repr__(self) -> str:
        return f"Card(rank={self.rank}, suit={self.suit!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int, Suit | None]]:
        return (Card, (self.rank, self.suit))


JOKER = Card(0, None)


@dataclass(frozen=True, slots=True)
class Deck:
    """One pack's ranks, low to high; runs follow this order and never wrap."""

    name: str
    ranks: tuple[int, ...]
    #: The ranks of ace, jack/sota, queen/caballo and king/rey, for letter aliases.
    courts: tuple[int, int, int, int]

    @property
    def size(self) -> int:
        return 4 * len(self.ranks)

    @property
    def joker_id(self) -> int:
        """Engine id of the joker: one past the real cards."""
        return self.size

    def cards(self) -> list[Card]:
        """Every real card once, in engine-id order (rank, then suit)."""
        return [Card(r, s) for r in self.ranks for s in SUITS]

    def card_id(self, card: Card) -> int:
        """Dense id used by the solver: ``position * 4 + suit`` (joker last)."""
        if card.suit is None:
            return self.size
        return _POSITION[self.name][card.rank] * 4 + card.suit.index

    def card_of(self, card_id: int) -> Card:
        if card_id == self.size:
            return JOKER
        return Card(self.ranks[card_id >> 2], SUITS[card_id & 3])

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and (card.suit is None or card.rank in _POSITION[self.name])


SPANISH40 = Deck("spanish40", (1, 2, 3, 4, 5, 6, 7, 10, 11, 12), (1, 10, 11, 12))
SPANISH48 = Deck("spanish48", tuple(range(1, 13)), (1, 10, 11, 12))
FRENCH52 = Deck("french52", tuple(range(1, 14)), (1, 11, 12, 13))
DECKS: dict[str, Deck] = {d.name: d for d in (SPANISH40, SPANISH48, FRENCH52)}
_POSITION = {d.name: {r: i for i, r in enumerate(d.ranks)} for d in DECKS.values()}

# A (ace), J/B/S (jack, Bube, sota), Q/D/C (queen, Dame, caballo), K/R (king, rey).
_LETTER_COURT = {"a": 0, "j": 1, "b": 1, "s": 1, "q": 2, "d": 2, "c": 2, "k": 3, "r": 3}
_TOKEN = re.compile(r"^([0-9]{1,2}|[ajbsqdckr])(.)$")


def parse_card(token: object, deck: Deck | None = SPANISH40, field: str = "card") -> Card:
    """Parse one token: canonical (``12c``), suit symbols (``12♥``), letters (``Rc``).

    Case and surrounding spaces are ignored.  With a deck, the card must belong
    to it (the joker always parses; whether jokers are in play is the rules'
    business).  Without a deck, letters mean Spanish courts and any rank 1–13
    is accepted.
    """
    if not isinstance(token, str):
        raise CardError(f"A card must be written as text like '5o', not {token!r}.", field, token=str(token))
    text = token.strip().lower()
    if text in ("*", "joker", "jk", "comodín", "comodin"):
        return JOKER
    match = _TOKEN.match(text)
    suit = _SUIT_ALIASES.get(match.group(2)) if match else None
    if match is None or suit is None:
        raise CardError(
            f"'{token.strip()}' is not a card; write a rank and a suit letter, like 5o or 12c.",
            field,
            token=token.strip(),
        )
    rank_text = match.group(1)
    rank = int(rank_text) if rank_text.isdecimal() else (deck or SPANISH40).courts[_LETTER_COURT[rank_text]]
    if deck is None:
        if not 1 <= rank <= 13:
            raise CardError(f"'{token.strip()}' is not a card: there is no rank {rank}.", field, token=token.strip())
    elif rank not in _POSITION[deck.name]:
        if 1 <= rank <= 13:
            raise CardError(
                f"{rank}{suit.value} is not in the {deck.name} deck.",
                field,
                token=f"{rank}{suit.value}",
                deck=deck.name,
            )
        raise CardError(f"'{token.strip()}' is not a card: there is no rank {rank}.", field, token=token.strip())
    return Card(rank, suit)


def parse_cards(cards: str | Iterable[object], deck: Deck | str | None = SPANISH40, field: str = "cards") -> list[Card]:
    """Parse a space/comma separated string or a list of tokens.

    Errors name the offending position, e.g. ``cards[2]``.
    """
    if isinstance(deck, str):
        deck = DECKS[deck]
    if isinstance(cards, str):
        tokens: list[object] = [t for t in re.split(r"[\s,;]+", cards) if t]
    else:
        tokens = list(cards)
    return [parse_card(t, deck, f"{field}[{i}]") for i, t in enumerate(tokens)]


def format_cards(cards: Iterable[Card]) -> list[str]:
    """Canonical tokens, the form every output uses."""
    return [str(c) for c in cards]


_FRENCH_COURT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def short_label(card: Card, deck: Deck) -> str:
    """A compact label for a card face: ``12♥`` on Spanish decks (whose courts
    print their number), ``K♥`` on French ones."""
    if card.suit is None:
        return "★"
    rank = _FRENCH_COURT.get(card.rank, str(card.rank)) if deck.name == "french52" else str(card.rank)
    return f"{rank}{card.suit.symbol}"
