"""What one seat may know: :class:`SeatView`, built by :func:`seat_view`.

A computer player receives a view and nothing else.  The view holds copies
of public facts (the pile, the moves everybody saw, hand sizes, totals) and
the seat's own cards; it holds no reference to the game, the other hands or
the stock.  ``can_close`` checks the seat's own cards under the rules only.

>>> import random
>>> from companion.rules import get_rules
>>> from companion.rules.game import HandGame
>>> game = HandGame.deal(get_rules("classic"), players=2, dealer=0, rng=random.Random(3))
>>> view = seat_view(game, game.turn)
>>> len(view.hand), view.stock_size, view.hand_sizes
(7, 25, (7, 7))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ..rules import Card, Rules, check_close
from ..rules.game import Discard, Draw, Reshuffle, Source
from ..rules.variants import Reshuffle as ReshuffleRule

if TYPE_CHECKING:
    from ..rules.game import HandGame


class Thrown(NamedTuple):
    """A card that went face up onto the pile.

    ``seat`` is who threw it (None for the card turned up at the deal);
    ``taken_by`` the seat that later drew it from the pile, if anybody did.
    """

    seat: int | None
    card: Card
    taken_by: int | None = None


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything a seat can know at its turn, and nothing more."""

    seat: int
    players: int
    hand: tuple[Card, ...]  # the seat's own cards (8 after drawing)
    top: Card | None  # the top of the pile
    pile: tuple[Card, ...]  # the whole pile, bottom first (everybody saw each card thrown)
    thrown: tuple[Thrown, ...]  # every card thrown so far, in order
    stock_size: int
    hand_sizes: tuple[int, ...]  # per seat (own included)
    totals: tuple[int, ...]  # match totals per seat (as passed by the caller)
    rules: Rules
    first_round: bool
    reshuffles: int  # how often the stock was rebuilt from the pile (public)
    can_close: Callable[[Card], bool]

    @property
    def opponents(self) -> tuple[int, ...]:
        """The other seats in play order, the next player first."""
        return tuple((self.seat + k) % self.players for k in range(1, self.players))

    @property
    def drawn(self) -> bool:
        """True after drawing (eight cards held: discard or close)."""
        return len(self.hand) == 8

    def taken_by(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` took from the pile, in order."""
        return tuple(t.card for t in self.thrown if t.taken_by == seat)

    def thrown_by(self, seat: int) -> tuple[Card, ...]:
        """Cards ``seat`` threw, in order."""
        return tuple(t.card for t in self.thrown if t.seat == seat)


@dataclass(frozen=True, slots=True)
class CloseChecker:
    """``can_close(card)`` over these cards only (never the game); a plain
    value, so a view can be handed to another process (:mod:`.apart`)."""

    hand: tuple[Card, ...]
    rules: Rules
    first_round: bool
    players: int

    def __call__(self, card: Card) -> bool:
        if len(self.hand) != 8 or card not in self.hand:
            return False
        return check_close(self.hand, self.rules, self.first_round, card, players=self.players).legal


def seat_view(game: HandGame, seat: int, totals: Sequence[int] | None = None) -> SeatView:
    """The view of ``seat`` (the only place that reads the game's log)."""
    thrown = _replay_pile(game)
    hand = tuple(game.hands[seat])
    players = game.players
    pile = tuple(game.discards)
    return SeatView(
        seat=seat,
        players=players,
        hand=hand,
        top=pile[-1] if pile else None,
        pile=pile,
        thrown=tuple(thrown),
        stock_size=len(game.stock),
        hand_sizes=tuple(len(h) for h in game.hands),
        totals=tuple(totals) if totals is not None else (0,) * players,
        rules=game.rules,
        first_round=game.first_round,
        reshuffles=game.reshuffles,
        can_close=CloseChecker(hand, game.rules, game.first_round, players),
    )


def _replay_pile(game: HandGame) -> list[Thrown]:
    """Replay the public log: every card thrown, and who took which.

    The card turned up at the deal is not in the log; it is known while it
    lies in the pile or once somebody takes it (the draw names the card).
    """
    thrown: list[Thrown] = [Thrown(None, Card(0, None))]  # placeholder for the deal's card
    pile: list[int] = [0]  # indexes into ``thrown``
    known_up = False
    for move in game.seen_by(None):  # the public log: stock draws hide their card
        if isinstance(move, Discard):
            thrown.append(Thrown(move.seat, move.card))
            pile.append(len(thrown) - 1)
        elif isinstance(move, Draw) and move.source == Source.DISCARD and pile:
            k = pile.pop()
            card = move.card if move.card is not None else thrown[k].card
            thrown[k] = Thrown(thrown[k].seat, card, move.seat)
            known_up = known_up or k == 0
        elif isinstance(move, Reshuffle):
            keep = pile[-1:] if game.rules.reshuffle == ReshuffleRule.KEEP_TOP else []
            pile = keep
    if not known_up and pile and pile[0] == 0 and game.discards:
        thrown[0] = thrown[0]._replace(card=game.discards[0])
        known_up = True
    if not known_up:
        thrown.pop(0)
    return thrown
