"""What the opponents hold, read from what a seat saw: card weights and sampled hands.

Every card not in the seat's hand, not in the pile and not known to be held
(taken from the pile and not thrown since) is *unseen*: it lies in the stock
or in an opponent's hand.  What each opponent did tells which:

- a card they **took** from the pile completes or nearly completes a meld,
  so its partners (same rank, or same suit within two) are likelier theirs;
- a card they **threw**, or **refused** (it lay on top when they drew from
  the stock), is rarely one they need, and neither are its partners;
- the card they threw last left them the hand they hold now, so it was
  rarely worse to throw than any card they kept (a player throws what
  leaves the fewest loose points, mostly).

:class:`OpponentModel` gives each unseen card a weight per opponent from
that evidence and samples whole deals consistent with the view: each
opponent holds the cards known to be theirs plus unseen cards drawn by
weight, to their exact hand size, and the rest is the stock.  Among a few
such deals one is kept by how well each opponent's last throw fits the hand
it leaves them (sampling-importance-resampling, plain cards only).

>>> import random
>>> from companion.rules import get_rules
>>> from companion.rules.game import HandGame
>>> from .view import seat_view
>>> game = HandGame.deal(get_rules("classic"), players=2, dealer=0, rng=random.Random(3))
>>> model = OpponentModel(seat_view(game, game.turn))
>>> deal = model.sample(random.Random(1))
>>> len(deal.hands[0]), len(deal.stock)
(7, 25)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from ..rules import JOKER, Card
from .hands import HandEval
from .players import near
from .view import SeatView

# What one piece of evidence adds to the log odds of a card being in that
# opponent's hand: fitted by bench/bench_model.py --fit (logistic regression
# over every unseen card, expert against good, classic, 60 hands, 7500
# cards; two runs: 0.37 / 0.36, -0.72 / -0.69, -0.50 / -0.56).
TOOK = 0.36
THREW = -0.7
REFUSED = -0.53
#: Log-likelihood lost per point by which an opponent's last throw left more
#: loose points than its best throw would have (see :meth:`OpponentModel.fit`).
LAST_THROW = 2.5
#: Deals drawn for each one kept (sampling-importance-resampling).
CANDIDATES = 6


@dataclass(frozen=True, slots=True)
class Deal:
    """One sampled layout of the cards the seat cannot see."""

    hands: tuple[tuple[Card, ...], ...]  # per opponent, in view.opponents order
    stock: tuple[Card, ...]


class OpponentModel:
    """Where the unseen cards are, per opponent, from one :class:`SeatView`."""

    def __init__(self, view: SeatView, ev: HandEval | None = None) -> None:
        self.view = view
        self.ev = ev if ev is not None and ev.plain and view.rules.copies(view.players) == 1 else None
        self.opponents = view.opponents
        rules = view.rules
        copies = rules.copies(view.players)
        count = Counter({c: copies for c in rules.pack.cards()})
        if rules.jokers:
            count[JOKER] = rules.jokers
        self.known = {s: held_by(view, s) for s in self.opponents}
        count.subtract([*view.hand, *view.pile, *(c for cards in self.known.values() for c in cards)])
        self.unseen: list[Card] = sorted(c for c, n in count.items() for _ in range(max(0, n)))
        self.hidden = {s: max(0, view.hand_sizes[s] - len(self.known[s])) for s in self.opponents}
        self.weights = {s: [self._weight(s, c) for c in self.unseen] for s in self.opponents}
        self.inverse = {s: [1.0 / w for w in ws] for s, ws in self.weights.items()}
        self.last = {s: thrown[-1] if (thrown := view.thrown_by(s)) else None for s in self.opponents}

    def _weight(self, seat: int, card: Card) -> float:
        view = self.view
        took = view.taken_by(seat)
        threw = view.thrown_by(seat)
        refused = refused_by(view, seat)
        return math.exp(TOOK * near(card, took) + THREW * near(card, threw) + REFUSED * near(card, refused))

    def chance_held(self, seat: int) -> dict[Card, float]:
        """Each unseen card's chance of being in ``seat``'s hand (copies add up):
        the hidden cards spread over the unseen ones by weight."""
        weights = self.weights[seat]
        total = sum(weights) or 1.0
        k = self.hidden[seat]
        out: dict[Card, float] = {}
        for c, w in zip(self.unseen, weights, strict=True):
            out[c] = out.get(c, 0.0) + min(1.0, k * w / total)
        return out

    def sample(self, rng: random.Random) -> Deal:
        """One deal consistent with the view, by the evidence: with an
        evaluator, the best fitting of :data:`CANDIDATES` drawn by
        :meth:`draw`, each kept with a chance in proportion to :meth:`fit`."""
        if self.ev is None:
            return self.draw(rng)
        deals = [self.draw(rng) for _ in range(CANDIDATES)]
        fits = [self.fit(d) for d in deals]
        pick = rng.random() * sum(fits)
        for deal, f in zip(deals, fits, strict=True):
            pick -= f
            if pick <= 0.0:
                return deal
        return deals[-1]

    def fit(self, deal: Deal) -> float:
        """How likely the opponents' last throws are, were these their hands:
        ``exp(-LAST_THROW * excess)``, the excess being the loose points a
        throw kept beyond the fewest it could have kept."""
        ev = self.ev
        assert ev is not None
        excess = 0
        for s, hand in zip(self.opponents, deal.hands, strict=True):
            last = self.last[s]
            if last is not None and last not in hand and len(hand) == 7:
                h = ev.mask(hand)
                excess += ev.points_of_mask(h) - ev.with_card(h, last)[0]
        return math.exp(-LAST_THROW * excess)

    def draw(self, rng: random.Random) -> Deal:
        """One deal consistent with the view: each opponent, in play order,
        draws its hidden cards from what is left, by weight, without
        replacement (Efraimidis–Spirakis keys: ``u ** (1 / w)``, the largest win)."""
        left = list(range(len(self.unseen)))
        hands = []
        r = rng.random
        for s in self.opponents:
            inverse = self.inverse[s]
            keys = sorted([(r() ** inverse[i], i) for i in left], reverse=True)
            k = self.hidden[s]
            hands.append((*self.known[s], *(self.unseen[i] for _, i in keys[:k])))
            left = [i for _, i in keys[k:]]
        left.sort()
        return Deal(tuple(hands), tuple(self.unseen[i] for i in left))


def close_chance(ev: HandEval, hand: tuple[Card, ...], top: Card | None, stock: tuple[Card, ...]) -> float:
    """The chance that a player holding ``hand`` (seven distinct plain cards)
    closes at their next turn, playing as the simple and good players do:
    they take ``top`` when it lets them close or lowers their loose points,
    else draw from ``stock`` (each card equally likely), and close whenever
    they legally can."""
    h = ev.mask(hand)
    took = take_top(ev, h, top) if top is not None else None
    return float(took) if took is not None else stock_close_chance(ev, h, stock)


def take_top(ev: HandEval, h: int, top: Card) -> bool | None:
    """Whether the seven cards of mask ``h`` take ``top`` from the pile: None
    when they leave it, else whether they can then close."""
    loose, closes = ev.with_card(h, top)
    if closes:
        return True
    return False if loose < ev.points_of_mask(h) else None


def stock_close_chance(ev: HandEval, h: int, stock: tuple[Card, ...]) -> float:
    """The share of ``stock`` that would let the seven cards of mask ``h`` close."""
    return ev.closing_draws(h, stock) / len(stock) if stock else 0.0


def held_by(view: SeatView, seat: int) -> list[Card]:
    """Cards ``seat`` took from the pile and has not thrown since."""
    cards = list(view.taken_by(seat))
    for card in view.thrown_by(seat):
        if card in cards:
            cards.remove(card)
    return cards


def refused_by(view: SeatView, seat: int) -> list[Card]:
    """Cards that lay on top of the pile when ``seat`` drew from the stock:
    each card the player before ``seat`` threw that ``seat`` did not take,
    once ``seat`` has played since."""
    before = (seat - 1) % view.players
    thrown = view.thrown
    last_turn = max((i for i, t in enumerate(thrown) if t.seat == seat), default=-1)
    return [t.card for i, t in enumerate(thrown[:last_turn]) if t.seat == before and t.taken_by != seat]
