"""One hand of digital play: deal, draw, discard, close, reshuffle (SPEC §4–§6).

The state is plain data (``to_dict``/``from_dict``) so the web layer keeps it
in the database and any worker can serve the next action.  Every action has
the triad ``verify_x`` (raises :class:`PlayError` saying why), ``can_x``
(bool) and ``x`` (does it), and is recorded in ``log`` as a typed move
(:class:`Draw`, :class:`Discard`, :class:`Close`, :class:`Reshuffle`,
:class:`Void`).  Only these methods change the hand: ``phase`` is derived and
the outcome (a close, or a void hand) is set by the action that causes it.

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
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

from .cards import JOKER, Card, Deck, parse_card
from .close import check_close
from .errors import ChinchonError
from .settle import HandResult, settle_hand
from .variants import Reshuffle as ReshuffleRule
from .variants import Rules

HAND_SIZE = 7


class PlayError(ChinchonError):
    """An action that the rules or the state of the hand do not allow."""

    code = "play"


class Phase(enum.StrEnum):
    DRAW = "draw"  # the player to move must draw
    DISCARD = "discard"  # the player to move holds 8 cards: discard or close
    OVER = "over"  # somebody closed, or the hand is void


class Source(enum.StrEnum):
    STOCK = "stock"
    DISCARD = "discard"  # the top of the discard pile


class VoidReason(enum.StrEnum):
    """Why a hand ended without a close (nobody scores it, SPEC §6)."""

    RESHUFFLES = "reshuffles"  # the stock ran out once more than ``max_reshuffles`` allows
    EMPTY = "empty"  # the stock ran out and not even a reshuffle gives a card
    ABANDONED = "abandoned"  # whoever runs the hand stopped it (e.g. a turn limit)


class Shuffler(Protocol):
    def shuffle(self, x: list[Any]) -> None: ...


# -- moves: what happened, in order (as pokerkit records operations) ----------------------
@dataclass(frozen=True, slots=True)
class Draw:
    """``seat`` took ``card`` from the stock or the discard pile.

    The card of a stock draw is secret to everybody but the drawer: show a
    log through :meth:`HandGame.seen_by`.  ``card`` is None only in records
    stored before drawn cards were kept, or when hidden from a viewer."""

    seat: int
    source: Source
    card: Card | None
    name: ClassVar[str] = "draw"

    def seen_by(self, viewer: int | None) -> Draw:
        if self.source == Source.STOCK and viewer != self.seat:
            return replace(self, card=None)
        return self


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    card: Card
    name: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class Close:
    """``seat`` closed, putting ``card`` face down (it is shown after the hand)."""

    seat: int
    card: Card
    name: ClassVar[str] = "close"


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """The discards became the new stock; ``kept`` stayed face up (``keep_top``)."""

    kept: Card | None
    stock: int  # cards in the new stock
    name: ClassVar[str] = "reshuffle"


@dataclass(frozen=True, slots=True)
class Void:
    """The hand ended without a close: nobody scores (SPEC §6)."""

    seat: int | None  # who was to draw, if anybody
    reason: VoidReason
    name: ClassVar[str] = "void"


Move = Draw | Discard | Close | Reshuffle | Void
MOVES: dict[str, type[Move]] = {m.name: m for m in (Draw, Discard, Close, Reshuffle, Void)}


def move_to_json(move: Move) -> dict[str, Any]:
    """A move as plain JSON: ``{"move": name, field: value...}``, cards as tokens."""
    out: dict[str, Any] = {"move": move.name}
    for key in move.__slots__:
        value = getattr(move, key)
        out[key] = str(value) if isinstance(value, Card | enum.Enum) else value
    return out


def move_from_json(data: dict[str, Any], deck: Deck) -> Move:
    """Read :func:`move_to_json`, and the dicts stored before moves were typed."""

    def card(token: str | None) -> Card | None:
        return parse_card(token, deck) if token else None

    name = data.get("move")
    if name is None:  # the old shape: {"action": ..., "seat": ..., "card": ...}
        name = {"exhausted": "void"}.get(data["action"], data["action"])
        if name == "void":
            return Void(data.get("seat"), VoidReason.EMPTY)
        if name == "reshuffle":
            return Reshuffle(card(data.get("kept")), 0)
    match name:
        case "draw":
            return Draw(data["seat"], Source(data["source"]), card(data.get("card")))
        case "discard":
            return Discard(data["seat"], card(data["card"]))  # type: ignore[arg-type]  # a stored discard names its card
        case "close":
            return Close(data["seat"], card(data["card"]))  # type: ignore[arg-type]  # a stored close names its card
        case "reshuffle":
            return Reshuffle(card(data.get("kept")), data.get("stock", 0))
        case "void":
            return Void(data.get("seat"), VoidReason(data["reason"]))
    raise ValueError(f"Unknown move {name!r}.")


@dataclass
class HandGame:
    """The state of one hand at a digital table (seats are indexes into ``hands``).

    ``phase`` is derived: over once somebody closed or the hand is void, else
    the player to move draws with seven cards and discards with eight."""

    rules: Rules
    dealer: int
    hands: list[list[Card]]
    stock: list[Card]  # drawn from the end
    discards: list[Card]  # the top is the last
    turn: int
    turns_taken: int = 0  # completed turns, for the first-round rule
    reshuffles: int = 0
    closer: int | None = None
    closing_discard: Card | None = None
    void: Void | None = None
    log: list[Move] = field(default_factory=list)

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
        if HAND_SIZE * players + 2 > len(pack):
            raise PlayError(f"A pack of {len(pack)} cards cannot deal to {players} players.", "players")
        rng.shuffle(pack)
        hands: list[list[Card]] = [[] for _ in range(players)]
        first = (dealer + 1) % players
        for _ in range(HAND_SIZE):
            for k in range(players):
                hands[(first + k) % players].append(pack.pop())
        discards = [pack.pop()]
        return cls(rules=rules, dealer=dealer, hands=hands, stock=pack, discards=discards, turn=first)

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def phase(self) -> Phase:
        if self.closer is not None or self.void is not None:
            return Phase.OVER
        return Phase.DISCARD if len(self.hands[self.turn]) > HAND_SIZE else Phase.DRAW

    @property
    def exhausted(self) -> bool:
        """The hand ended without a close (kept for readers of the old name)."""
        return self.void is not None

    @property
    def first_round(self) -> bool:
        """True until every player has had a turn."""
        return self.turns_taken < self.players

    @property
    def top_discard(self) -> Card | None:
        return self.discards[-1] if self.discards else None

    def seen_by(self, viewer: int | None) -> list[Move]:
        """The log as seat ``viewer`` may see it (None: a spectator): every
        move, but a card drawn from the stock only for its drawer."""
        return [m.seen_by(viewer) if isinstance(m, Draw) else m for m in self.log]

    # -- drawing ------------------------------------------------------------------------
    def verify_draw(self, seat: int, source: str) -> None:
        self._verify_turn(seat, Phase.DRAW, "draw")
        if source not in (Source.STOCK, Source.DISCARD):
            raise PlayError("Draw from the stock or from the discard pile.", "source", key="source")
        if source == Source.DISCARD and not self.discards:
            raise PlayError("The discard pile is empty; draw from the stock.", "source", key="empty_pile")

    def can_draw(self, seat: int, source: str) -> bool:
        return self._can(self.verify_draw, seat, source)

    def draw(self, seat: int, source: str, rng: Shuffler) -> Card | None:
        """Take a card; an empty stock is first rebuilt from the discards.

        Returns None when the hand is void instead (SPEC §6): the stock ran
        out once more than ``max_reshuffles`` allows, or not even a reshuffle
        leaves a card to draw.  Nobody scores a void hand.

        >>> import random
        >>> from companion.rules import get_rules, parse_cards
        >>> game = HandGame(get_rules(max_reshuffles=0), 1, [parse_cards("1o 2o 3o 4o 5o 6o 7o")] * 2,
        ...                 stock=[], discards=parse_cards("1c 2c 3c"), turn=0)
        >>> game.draw(0, "stock", random.Random(0)) is None, game.void.reason.value, str(game.phase)
        (True, 'reshuffles', 'over')
        """
        self.verify_draw(seat, source)
        if source == Source.STOCK and not self.stock:
            limit = self.rules.max_reshuffles
            if limit is not None and self.reshuffles >= limit:
                self._end_void(seat, VoidReason.RESHUFFLES)
                return None
            self._reshuffle(rng)
            if not self.stock:
                self._end_void(seat, VoidReason.EMPTY)
                return None
        card = self.stock.pop() if source == Source.STOCK else self.discards.pop()
        self.hands[seat].append(card)
        self.log.append(Draw(seat, Source(source), card))
        return card

    def _reshuffle(self, rng: Shuffler) -> None:
        keep = [self.discards.pop()] if self.rules.reshuffle == ReshuffleRule.KEEP_TOP and self.discards else []
        self.stock = self.discards
        rng.shuffle(self.stock)
        self.discards = keep
        self.reshuffles += 1
        self.log.append(Reshuffle(keep[0] if keep else None, len(self.stock)))

    def _end_void(self, seat: int | None, reason: VoidReason) -> None:
        self.void = Void(seat, reason)
        self.log.append(self.void)

    def abandon(self) -> None:
        """Stop a hand nobody has closed (for runners with a turn limit): void."""
        if self.phase == Phase.OVER:
            raise PlayError("This hand is over.", "phase", key="over")
        self._end_void(None, VoidReason.ABANDONED)

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
        self.log.append(Discard(seat, card))
        self.turns_taken += 1
        self.turn = (self.turn + 1) % self.players

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
        self.log.append(Close(seat, card))
        return self.settle(choices)

    def settle(self, choices: dict[int, int] | None = None) -> HandResult:
        """The settled hand (the closer shows the seven kept cards)."""
        if self.closer is None or self.closing_discard is None:
            raise PlayError("Nobody has closed yet.", "close")
        return settle_hand(self.shown_hands(), self.rules, self.closer, self.first_round, choices=choices)

    def shown_hands(self) -> list[list[Card]]:
        """The hands as shown after the hand: the closer's seven kept cards
        (the card put face down left out)."""
        hands = [list(h) for h in self.hands]
        if self.closer is not None and self.closing_discard is not None:
            hands[self.closer].remove(self.closing_discard)
        return hands

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
    def _can(verify: Callable[..., object], *args: object) -> bool:
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
            "phase": self.phase.value,  # derived; written for people reading the database
            "turns_taken": self.turns_taken,
            "reshuffles": self.reshuffles,
            "closer": self.closer,
            "closing_discard": str(self.closing_discard) if self.closing_discard is not None else None,
            "void": move_to_json(self.void) if self.void is not None else None,
            "log": [move_to_json(m) for m in self.log],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], rules: Rules) -> HandGame:
        deck = rules.pack

        def cards(tokens: Sequence[str]) -> list[Card]:
            return [parse_card(t, deck) for t in tokens]

        log = [move_from_json(m, deck) for m in data["log"]]
        void = data.get("void")
        return cls(
            rules=rules,
            dealer=data["dealer"],
            hands=[cards(h) for h in data["hands"]],
            stock=cards(data["stock"]),
            discards=cards(data["discards"]),
            turn=data["turn"],
            turns_taken=data["turns_taken"],
            reshuffles=data["reshuffles"],
            closer=data["closer"],
            closing_discard=parse_card(data["closing_discard"], deck) if data["closing_discard"] else None,
            # Deals stored before void hands had a reason said "exhausted": true.
            void=move_from_json(void, deck)
            if void
            else (Void(None, VoidReason.EMPTY) if data.get("exhausted") else None),  # type: ignore[arg-type]  # a stored void is a Void
            log=log,
        )


# -- a finished hand, move by move ---------------------------------------------------------
class _Stacked:
    """A shuffler that lays the stock so that the recorded draws come out in order."""

    def __init__(self, segments: list[list[Card]], bottom: list[Card]) -> None:
        self.segments = segments  # the stock draws after each reshuffle, in order
        self.bottom = bottom  # what the last stock still holds at the end

    def shuffle(self, x: list[Any]) -> None:
        wanted = self.segments.pop(0) if self.segments else []
        rest = list(x)
        for card in wanted:
            if card not in rest:
                raise PlayError(f"The record draws {card} from a stock that does not hold it.", "log")
            rest.remove(card)
        if not self.segments and Counter(rest) == Counter(self.bottom):
            rest = list(self.bottom)
        x[:] = [*rest, *reversed(wanted)]


def replay(final: HandGame) -> list[tuple[HandGame, Move]]:
    """Every move of a recorded hand with the position just before it, from
    the deal on: the deal is rebuilt from the final position and the log (each
    seat's cards less what it drew plus what it threw; the stock in the order
    of its draws), then played again through the same actions, so a record
    the rules do not allow is refused (:class:`PlayError` on ``log``).  A
    reshuffle is part of the draw that caused it.

    >>> import random
    >>> from companion.rules import get_rules
    >>> game = HandGame.deal(get_rules("classic"), players=2, dealer=1, rng=random.Random(3))
    >>> game.draw(0, "stock", random.Random(0)) is not None
    True
    >>> game.discard(0, game.hands[0][0])
    >>> [(type(m).__name__, len(before.hands[0])) for before, m in replay(game)]
    [('Draw', 7), ('Discard', 8)]
    """
    rules, log = final.rules, final.log
    drawn: list[Counter[Card]] = [Counter() for _ in final.hands]
    thrown: list[Counter[Card]] = [Counter() for _ in final.hands]
    segments: list[list[Card]] = [[]]
    for m in log:
        if isinstance(m, Draw | Discard | Close) and not 0 <= m.seat < final.players:
            raise PlayError("The record names a seat that is not at the table.", "log")
        if isinstance(m, Draw):
            if m.card is None:
                raise PlayError("This record does not keep the cards drawn.", "log")
            drawn[m.seat][m.card] += 1
            if m.source == Source.STOCK:
                segments[-1].append(m.card)
        elif isinstance(m, Discard):
            thrown[m.seat][m.card] += 1
        elif isinstance(m, Reshuffle):
            segments.append([])
    hands = []
    for seat, cards in enumerate(final.hands):
        held = Counter(cards)
        held.update(thrown[seat])
        held.subtract(drawn[seat])
        if any(n < 0 for n in held.values()) or held.total() != HAND_SIZE:
            raise PlayError(f"Seat {seat}'s cards do not add up to a dealt hand.", "log")
        hands.append(sorted(held.elements(), key=lambda c: rules.card_keys.get(c, -1)))
    first = segments.pop(0)
    stock = [*(final.stock if not segments else []), *reversed(first)]
    everything = Counter(final.cards_in_play())
    everything.subtract(Counter(c for h in hands for c in h))
    everything.subtract(Counter(stock))
    if any(n < 0 for n in everything.values()) or everything.total() != 1:
        raise PlayError("The record's cards do not add up to one deal.", "log")
    game = HandGame(
        rules=rules,
        dealer=final.dealer,
        hands=hands,
        stock=stock,
        discards=list(everything.elements()),
        turn=(final.dealer + 1) % final.players,
    )
    stacked = _Stacked(segments, final.stock)
    out: list[tuple[HandGame, Move]] = []
    for m in log:
        if isinstance(m, Reshuffle):
            continue  # made by the draw after it (a card drawn, or the hand void)
        if isinstance(m, Void) and m.reason != VoidReason.ABANDONED:
            # A draw from a stock that ran out for good: no card, the hand void (not a decision: no step).
            if m.seat is None or game.draw(m.seat, Source.STOCK, stacked) is not None or game.void != m:
                raise PlayError("The record's void hand does not follow from its deal.", "log")
            continue
        before = HandGame.from_dict(game.to_dict(), rules)
        if isinstance(m, Draw):
            if game.draw(m.seat, m.source, stacked) != m.card:
                raise PlayError("The record's draws do not follow from its deal.", "log")
        elif isinstance(m, Discard):
            game.discard(m.seat, m.card)
        elif isinstance(m, Close):
            game.close(m.seat, m.card)
        else:
            game.abandon()
        out.append((before, m))

    def position(g: HandGame) -> dict[str, Any]:
        return g.to_dict() | {"hands": [sorted(h) for h in g.to_dict()["hands"]]}

    if position(game) != position(final):
        raise PlayError("The record's moves do not lead to its final position.", "log")
    return out
