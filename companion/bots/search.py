"""The expert's search over sampled deals (information-set sampling).

The expert's table model (:mod:`companion.bots.expert`) values each move from
odds; this module checks its best few moves by playing them out.  Deals of
the cards the seat cannot see are sampled from the opponent model
(:class:`~companion.bots.model.OpponentModel`: the opponents' hands by what
they took, threw and refused, the rest the stock, shuffled), and in each
deal every candidate move is played out on the same cards a few turns on,
everybody playing as the simple and good players do (take the pile's card
when it closes or lowers the loose points, else the stock; close as soon as
legal with the best score; else keep the seven with the fewest loose
points), until somebody closes, the stock runs out or the horizon is
reached.  A playout ends in points: who closed, with what score, and what
the others held (the closer's lay-offs taken off as the table model does),
valued by the same match score as the table model.  The candidates'
averages pick the move; when the best two stay within two standard errors
of each other, more deals are drawn (up to the budget).

The work is a number of deals set by the thinking budget in milliseconds
(measured: bench/bench_expert.py), not a clock, so a decision is the same
for a given view, seed and budget on any machine.  Plain cards only (one
deck, no wild cards): elsewhere the table model decides alone.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..rules import Card
from .hands import HandEval
from .model import OpponentModel

if TYPE_CHECKING:
    from .expert import _Plan

#: Deals sampled per millisecond of budget (heads-up; in proportion to two
#: over the players otherwise): the first batch, and the most when the best
#: moves stay close.  Measured (bench/bench_expert.py, budget 250 ms, CPU
#: time on a shared machine): p95 81 ms heads-up, 135 ms at four players
#: before the share by players, wall time about twice that under load.
FIRST_PER_MS = 0.12
MOST_PER_MS = 0.36
#: An alternative replaces the table model's move when it gains more than
#: this many standard errors (paired over the same deals), on at least
#: MIN_SWITCH deals; the deals are doubled while the best alternative's gain
#: lies between minus one and SWITCH_CLOSE standard errors.
SWITCH = 1.0
SWITCH_CLOSE = 2.0
MIN_SWITCH = 4
#: Turns each player plays in a playout before it is cut short.
HORIZON = 6
#: What a cut-short playout counts of the loose points each side holds.
LEAF = 0.5

#: Mixed into the seed so the search's deals differ from the table model's draws.
SALT = 7919
#: A candidate move: ``("throw", card)``, ``("close", card)``, ``("stock", None)`` or ``("pile", None)``.
Move = tuple[str, Card | None]


class Search:
    """Playouts of one decision's candidate moves over sampled deals."""

    def __init__(self, plan: _Plan, seed: int, think_ms: float) -> None:
        self.plan = plan
        self.ev: HandEval = plan.ev
        view = plan.view
        self.view = view
        # A playout lasts HORIZON turns of every player: fewer deals at a fuller table.
        share = think_ms * 2 / view.players
        self.first = max(0, int(share * FIRST_PER_MS))
        self.most = max(self.first, int(share * MOST_PER_MS))
        # Ints only (cards are ints): the same seed in every process, unlike a string's hash.
        self.rng = random.Random(
            hash((seed, SALT, view.seat, len(view.thrown), view.stock_size, tuple(sorted(view.hand))))
        )
        self.model = OpponentModel(view, self.ev)
        self.cards = self.ev.cards
        # Seats (0 this one, then the opponents in play order) still in their
        # first turn, when the rules forbid closing in it.
        self.blocked: tuple[int, ...] = ()
        if view.first_round and not view.rules.first_round_close:
            seats = [view.seat, *view.opponents]
            self.blocked = tuple(k for k, s in enumerate(seats) if k and not view.thrown_by(s))

    @property
    def enabled(self) -> bool:
        return self.first >= 2

    def _deal(self) -> tuple[list[int], list[Card]]:
        deal = self.model.sample(self.rng)
        stock = list(deal.stock)
        self.rng.shuffle(stock)
        return [self.ev.mask(h) for h in deal.hands], stock

    def best(self, moves: Sequence[Move], hand: Sequence[Card]) -> tuple[Move, dict[Move, float]]:
        """The move to play, and each move's average over the deals.  The
        first move is the table model's choice: another replaces it only when
        it does better on the same deals by more than :data:`SWITCH` standard
        errors of the difference (a few noisy deals never overturn it).
        While an alternative may still beat it but does not yet clearly do,
        the deals are doubled, up to the budget's most."""
        ev = self.ev
        me = ev.mask(hand)
        default = moves[0]
        totals = {m: 0.0 for m in moves}
        diffs = {m: 0.0 for m in moves}
        squares = {m: 0.0 for m in moves}
        n = 0
        target = self.first
        while n < target:
            opps, stock = self._deal()
            values = {m: self.play(m, me, opps, stock) for m in moves}
            for m, v in values.items():
                d = v - values[default]
                totals[m] += v
                diffs[m] += d
                squares[m] += d * d
            n += 1
            if n == target and target < self.most:
                mean, se = self._leader(moves[1:], diffs, squares, n)
                if mean > -se and mean < SWITCH_CLOSE * se:
                    target = min(self.most, target * 2)
        means = {m: totals[m] / n for m in moves}
        if n < MIN_SWITCH or len(moves) < 2:
            return default, means
        mean, se = self._leader(moves[1:], diffs, squares, n)
        leader = max(moves[1:], key=lambda m: diffs[m])
        return (leader if mean > SWITCH * se else default), means

    @staticmethod
    def _leader(
        moves: Sequence[Move], diffs: dict[Move, float], squares: dict[Move, float], n: int
    ) -> tuple[float, float]:
        """The best alternative's mean gain over the first move, and its standard error."""
        m = max(moves, key=lambda m: diffs[m])
        mean = diffs[m] / n
        var = max(0.0, squares[m] / n - mean * mean)
        return mean, math.sqrt(var / max(1, n - 1))

    # -- one playout ------------------------------------------------------------------
    def play(self, move: Move, me: int, opps: list[int], stock: list[Card]) -> float:
        ev = self.ev
        kind, card = move
        hands = [me, *opps]  # seat 0 is this seat, then the opponents in play order
        players = len(hands)
        pos = 0  # the next stock card
        top = self.view.top
        if kind == "close":
            assert card is not None
            kept = me ^ ev.bit[card]
            score = ev.mask_close_score(kept)
            return self._closed(0, score if score is not None else 0, hands)
        if kind == "throw":
            assert card is not None
            hands[0] = me ^ ev.bit[card]
            top = card
            turn = 1
        else:
            if kind == "pile" and top is not None:
                drawn = top
            else:
                if not stock:
                    return self._leaf(hands)
                drawn = stock[0]
                pos = 1
            eight = me | ev.bit[drawn]
            loose, closes, score = ev.eight_mask(eight)
            if closes and not (self.view.first_round and not self.view.rules.first_round_close):
                return self._closed(0, score if score is not None else 0, hands)
            keep = ev.keep_mask(eight)
            hands[0] = keep
            top = self._card(eight ^ keep)
            turn = 1
        blocked = set(self.blocked)
        for _ in range(HORIZON * players):
            seat = turn % players
            h = hands[seat]
            took = False
            if top is not None:
                loose, closes = ev.with_card(h, top)
                took = (closes and seat not in blocked) or loose < ev.points_of_mask(h)
            if took:
                assert top is not None
                drawn = top
            else:
                if pos >= len(stock):
                    return self._leaf(hands)
                drawn = stock[pos]
                pos += 1
            eight = h | ev.bit[drawn]
            loose, closes, score = ev.eight_mask(eight)
            if closes and seat not in blocked:
                return self._closed(seat, score if score is not None else 0, hands)
            blocked.discard(seat)
            keep = ev.keep_mask(eight)
            hands[seat] = keep
            top = self._card(eight ^ keep)
            turn += 1
        return self._leaf(hands)

    def _card(self, bit: int) -> Card:
        return self.cards[bit.bit_length() - 1]

    def _closed(self, seat: int, score: int, hands: list[int]) -> float:
        """The playout's value when ``seat`` closes scoring ``score`` (the others hold ``hands``)."""
        plan = self.plan
        ev = self.ev
        layoff = plan.LAYOFF
        if seat == 0:
            theirs = [layoff * ev.points_of_mask(h) for h in hands[1:]]
            return plan.closed_by_me(score, theirs)
        mine = layoff * ev.points_of_mask(hands[0])
        return plan.closed_by_them(mine, score)

    def _leaf(self, hands: list[int]) -> float:
        """A playout cut short: a share of what each side holds."""
        ev = self.ev
        layoff = self.plan.LAYOFF * LEAF
        mine = layoff * ev.points_of_mask(hands[0])
        theirs = [layoff * ev.points_of_mask(h) for h in hands[1:]]
        return self.plan.held_both(mine, theirs)
