"""One hand of digital play: deal, draw, discard, close, reshuffle (SPEC §4–§6).

The state is plain data (``to_dict``/``from_dict``) so the web layer keeps it
in the database and any worker can serve the next action.  Every action has
the triad ``verify_x`` (raises :class:`PlayError` saying why), ``can_x``
(bool) and ``x`` (does it):

>>> import random
>>> from companion.rules import get_rules
>>> game = HandGame.deal(get_rules("classic"), players=3, dealer=0, rng=random.Random(1))
>>> game.turn, str(game.phase), len(game.hands[1])
(1, 'draw', 7)
>>> game.can_discard(1, game.hands[1][0])   # drawing comes first
False
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .cards import JOKER, Card
from .close import check_close
from .errors import ChinchonError
from .settle import HandResult, settle_hand
from .variants import Reshuffle, Rules


class PlayError(ChinchonError):
    """An action that the rules or the state of the hand do not allow."""

    code = "play"


class Phase(enum.StrEnum):
    DRAW = "draw"  # the player to move must draw
    DISCARD = "discard"  # the player to move holds 8 cards: discard or close
    OVER = "over"  # somebody closed (or the pack ran out)


class Shuffler(Protocol):
    def shuffle(self, x: list[Any]) -> None: ...


@dataclass
class HandGame:
    """The state of one hand at a digital table (seats are indexes into ``hands``)."""

    rules: Rules
    dealer: int
    hands: list[list[Card]]
    stock: list[Card]  # drawn from the end
    discards: list[Card]  # the top is the last
    turn: int
    phase: Phase = Phase.DRAW
    turns_taken: int = 0  # completed turns, for the first-round rule
    reshuffles: int = 0
    closer: int | None = None
    closing_discard: Card | None = None
    exhausted: bool = False
    log: list[dict[str, Any]] = field(default_factory=list)

    # -- dealing ----------------------------------------------------------------------
    @classmethod
    def deal(
        cls, rules: Rules, players: int, dealer: int, rng: Shuffler, *, table_players: int | None = None
    ) -> HandGame:
        """Shuffle, deal seven cards each one at a time from the player after the
        dealer, and turn up the first discard.  ``table_players`` sizes the pack
        when players have gone out (the pack stays the one chosen at the start)."""
        copies = rules.copies(table_players or players)
        pack = [*rules.pack.cards() * copies, *[JOKER] * rules.jokers]
        if 7 * players + 2 > len(pack):
            raise PlayError(f"A pack of {len(pack)} cards cannot deal to {players} players.", "players")
        rng.shuffle(pack)
        hands: list[list[Card]] = [[] for _ in range(players)]
        first = (dealer + 1) % players
        for _ in range(7):
            for k in range(players):
                hands[(first + k) % players].append(pack.pop())
        discards = [pack.pop()]
        return cls(rules=rules, dealer=dealer, hands=hands, stock=pack, discards=discards, turn=first)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def first_round(self) -> bool:
        """True until every player has had a turn."""
        return self.turns_taken < self.players

    @property
    def top_discard(self) -> Card | None:
        return self.discards[-1] if self.discards else None

    # -- drawing ------------------------------------------------------------------------
    def verify_draw(self, seat: int, source: str) -> None:
        self._verify_turn(seat, Phase.DRAW, "draw")
        if source not in ("stock", "discard"):
            raise PlayError("Draw from the stock or from the discard pile.", "source", key="source")
        if source == "discard" and not self.discards:
            raise PlayError("The discard pile is empty; draw from the stock.", "source", key="empty_pile")

    def can_draw(self, seat: int, source: str) -> bool:
        return self._can(self.verify_draw, seat, source)

    def draw(self, seat: int, source: str, rng: Shuffler) -> Card | None:
        """Take a card; an empty stock is first rebuilt from the discards.

        Returns None when not even a reshuffle leaves a card to draw: the hand
        then ends without a close and nobody scores.
        """
        self.verify_draw(seat, source)
        if source == "stock" and not self.stock:
            self._reshuffle(rng)
            if not self.stock:
                self.exhausted = True
                self.phase = Phase.OVER
                self.log.append({"seat": seat, "action": "exhausted"})
                return None
        card = self.stock.pop() if source == "stock" else self.discards.pop()
        self.hands[seat].append(card)
        self.phase = Phase.DISCARD
        self.log.append(
            {"seat": seat, "action": "draw", "source": source, "card": str(card) if source == "discard" else None}
        )
        return card

    def _reshuffle(self, rng: Shuffler) -> None:
        keep = [self.discards.pop()] if self.rules.reshuffle == Reshuffle.KEEP_TOP and self.discards else []
        self.stock = self.discards
        rng.shuffle(self.stock)
        self.discards = keep
        self.reshuffles += 1
        self.log.append({"action": "reshuffle", "kept": str(keep[0]) if keep else None})

    # -- discarding -------------------------------------------------------------------
    def verify_discard(self, seat: int, card: Card) -> None:
        self._verify_turn(seat, Phase.DISCARD, "discard")
        if card not in self.hands[seat]:
            raise PlayError(f"{card} is not in your hand.", "card", key="not_held", card=str(card))

    def can_discard(self, seat: int, card: Card) -> bool:
        return self._can(self.verify_discard, seat, card)

    def discard(self, seat: int, card: Card) -> None:
        self.verify_discard(seat, card)
        self.hands[seat].remove(card)
        self.discards.append(card)
        self.log.append({"seat": seat, "action": "discard", "card": str(card)})
        self._next_turn()

    def _next_turn(self) -> None:
        self.turns_taken += 1
        self.turn = (self.turn + 1) % self.players
        self.phase = Phase.DRAW

    # -- closing ------------------------------------------------------------------------
    def verify_close(self, seat: int, card: Card) -> None:
        """A close puts ``card`` face down and shows the other seven; the
        engine must find them closable under the rules."""
        self.verify_discard(seat, card)
        verdict = check_close(self.hands[seat], self.rules, self.first_round, card, players=self.players)
        if not verdict.legal:
            raise PlayError(verdict.reason or "This close is not legal.", "close", why=verdict.why)

    def can_close(self, seat: int, card: Card) -> bool:
        return self._can(self.verify_close, seat, card)

    def close(self, seat: int, card: Card, choices: dict[int, int] | None = None) -> HandResult:
        """Close: the hand ends and everybody shows and lays off (SPEC §5)."""
        self.verify_close(seat, card)
        self.closer = seat
        self.closing_discard = card
        self.phase = Phase.OVER
        self.log.append({"seat": seat, "action": "close", "card": str(card)})
        return self.settle(choices)

    def settle(self, choices: dict[int, int] | None = None) -> HandResult:
        """The settled hand (the closer shows the seven kept cards)."""
        if self.closer is None or self.closing_discard is None:
            raise PlayError("Nobody has closed yet.", "close")
        hands = [list(h) for h in self.hands]
        hands[self.closer].remove(self.closing_discard)
        return settle_hand(hands, self.rules, self.closer, self.first_round, choices=choices)

    # -- helpers --------------------------------------------------------------------------
    def _verify_turn(self, seat: int, phase: Phase, what: str) -> None:
        if self.phase == Phase.OVER:
            raise PlayError("This hand is over.", "phase", key="over")
        if not 0 <= seat < self.players:
            raise PlayError("There is no such seat.", "seat", key="seat")
        if seat != self.turn:
            raise PlayError("It is not your turn.", "seat", key="turn")
        if self.phase != phase:
            if phase == Phase.DRAW:
                raise PlayError("You have drawn already: discard or close.", "phase", key="drawn")
            raise PlayError(f"Draw first, then {what}.", "phase", key="draw_first")

    @staticmethod
    def _can(verify, *args) -> bool:
        try:
            verify(*args)
        except PlayError:
            return False
        return True

    def cards_in_play(self) -> list[Card]:
        """Every card of the pack, wherever it is (card conservation)."""
        return [*self.stock, *self.discards, *(c for h in self.hands for c in h)]

    # -- storage ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        def tokens(cards: Sequence[Card]) -> list[str]:
            return [str(c) for c in cards]

        return {
            "dealer": self.dealer,
            "hands": [tokens(h) for h in self.hands],
            "stock": tokens(self.stock),
            "discards": tokens(self.discards),
            "turn": self.turn,
            "phase": self.phase.value,
            "turns_taken": self.turns_taken,
            "reshuffles": self.reshuffles,
            "closer": self.closer,
            "closing_discard": str(self.closing_discard) if self.closing_discard is not None else None,
            "exhausted": self.exhausted,
            "log": self.log,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], rules: Rules) -> HandGame:
        from .cards import parse_card

        def cards(tokens: Sequence[str]) -> list[Card]:
            return [parse_card(t, rules.pack) for t in tokens]

        return cls(
            rules=rules,
            dealer=data["dealer"],
            hands=[cards(h) for h in data["hands"]],
            stock=cards(data["stock"]),
            discards=cards(data["discards"]),
            turn=data["turn"],
            phase=Phase(data["phase"]),
            turns_taken=data["turns_taken"],
            reshuffles=data["reshuffles"],
            closer=data["closer"],
            closing_discard=parse_card(data["closing_discard"], rules.pack) if data["closing_discard"] else None,
            exhausted=data["exhausted"],
            log=list(data["log"]),
        )
