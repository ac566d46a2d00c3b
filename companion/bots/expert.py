"""The expert computer player: odds from the seat's view, and the match score.

It sees what a person at the table sees (a :class:`SeatView`) and reasons
about the cards it has not seen:

- **Where the unseen cards are.**  Every card not in its hand, not in the
  pile and not known to be held (taken from the pile by an opponent and not
  thrown since) is unseen.  Each is in the stock or in an opponent's hand;
  cards close to what an opponent took from the pile (same rank, or same suit
  within two) are likelier in that hand, cards close to what they threw less
  likely.  That gives each unseen card a chance of being the next stock card.
- **Two draws ahead.**  For every seven it could keep, the chance to be able
  to close after the next draw is computed exactly over those chances; the
  chance after the draw after that is sampled (determinized pairs of draws,
  the same for every option), keeping the seven with the fewest loose points
  in between; the loose points it would hold are averaged the same way.
- **The opponents' hands.**  The opponent model (:mod:`companion.bots.model`)
  samples hands for the opponents from what they took, threw and refused
  and from how well their last throw fits; in each sampled deal, playing
  as the simple and good players do, the chance that somebody closes
  before its next turn is exact for each card it could throw (a card that
  lets the next player close counts in full), and the chance at the turn
  after is rolled one draw on.  (Two decks or wild cards: a per-turn chance
  that grows with their turns and with every card they took from the pile.)
- **The race.**  Those chances race the opponents'.  An option's value is
  what it expects to win by closing (the opponents' likely points, less its
  own closing score) minus the points it expects to hold should an opponent
  close first.
- **When to close.**  A legal close is compared with waiting for −10 or a
  Chinchón on the same terms: it waits only when the better close is likely
  and nobody looks close to closing.
- **The match.**  Heads-up, points are valued by the chance to win the match
  they leave (:mod:`companion.bots.equity`): a close that puts itself out
  is worth nothing, one that puts the opponent out the match, and points
  weigh more near the target.  With more players, points that would put
  itself out weigh heavily (less when it could buy back in), and so do the
  points that would put an opponent out.

- **Played out.**  With a thinking budget (milliseconds, ``think_ms``), the
  table model's choice and its next best moves (three throws and the best
  close, or stock against pile) are played out over deals sampled from the
  opponent model (:mod:`companion.bots.search`), and another move replaces
  the table model's only when it does clearly better on the same deals.
  The budget sets the number of deals, not a clock.  The values
  :meth:`ExpertBot.judge_draw` and :meth:`ExpertBot.judge_end` give (what
  the hand review reads) are the table model's.

Decisions are deterministic for a given view, seed and budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from ..rules import JOKER, Card
from ..rules.variants import Eliminate
from .equity import equity
from .hands import HandEval, evaluator
from .model import OpponentModel, stock_close_chance, take_top
from .players import fed_cards, known_held, near, partners
from .protocol import Source
from .search import Move, Search
from .view import SeatView

WIN_MATCH = 120.0  # points a match win is worth in the race
# Discards looked at closely (by loose points), plus two by melded cards.
# Measured against good (points per hand, 1500 hands): all eight -0.36, two
# -0.50, three (and one by melded cards) +0.03, four -0.12: the race prefers
# close chances to low points when it sees every discard, so the loose-points
# filter stays.
CANDIDATES = 4
#: The thinking budget per decision, in milliseconds, when none is given:
#: the search over sampled deals (:mod:`companion.bots.search`) does the
#: work this budget allows (0: the table model alone).
THINK_MS = 250.0
#: The throws (best first by the table model) the search plays out, with the best close.
SEARCHED = 3
_MEMO_LIMIT = 400_000

#: Cards as a dict key: a bitmask (int) when the plan is ``plain``, else the
#: sorted cards (a tuple).  ``_Plan.plain`` picks one, not the key's type, so
#: the type checker cannot tell them apart: Any.
HandKey = Any
#: What :meth:`HandEval.solve_eight` says of eight cards: the seven kept, their
#: loose points, whether they close, the best close score.
_Solved = tuple[tuple[Card, ...], int, bool, int | None]


class ExpertBot:
    name = "expert"

    # Pairs of draws sampled for the second draw ahead: 160 (was 48).  Against
    # `good`, classic, 400 matches: 48 pairs 61.3 % (seed 1) / 58.8 % (seed 7),
    # 160 pairs 63.7 % / 64.5 %, 400 pairs 60.2 % / 60.8 %; per hand (1500
    # hands) all within 0.2 points.  Not monotonic, so within noise: the count
    # only sets how noisy the second-draw odds are.  p95 13-23 ms (budget 250).
    def __init__(self, seed: int = 0, pairs: int = 160, think_ms: float | None = None) -> None:
        self.seed = seed
        self.pairs = pairs
        self.think_ms = THINK_MS if think_ms is None else think_ms
        self.plan_cls = _Plan  # the table model (a subclass can vary the constants when measuring)

    # -- the protocol ----------------------------------------------------------------
    def choose_draw(self, view: SeatView) -> Source:
        top = view.top
        if top is None or (not partners(top, list(view.hand)) and view.rules.value(top) > 4):
            return "stock"  # a high card that touches nothing held never beats a fresh one
        plan = self.plan_cls(view, self.seed, self.pairs)
        values = self._judge_draw(plan, view, candidates=True)
        choice: Source = "discard" if values["discard"] > values["stock"] else "stock"
        search = self._search(plan)
        if search is not None:
            moves: list[Move] = [("stock", None), ("pile", None)]
            if choice == "discard":
                moves.reverse()  # the table model's choice first
            move, _ = search.best(moves, view.hand)
            choice = "discard" if move[0] == "pile" else "stock"
        return choice

    def choose_end(self, view: SeatView) -> tuple[Card, bool]:
        plan = self.plan_cls(view, self.seed, self.pairs)
        values = self._judge_end(plan, view, candidates=True)
        closes = {move: v for move, v in values.items() if move[1]}
        throws = {move: v for move, v in values.items() if not move[1]}
        best = max(throws, key=lambda m: (throws[m], m[0]))
        close = None
        if closes:
            close = min(closes, key=lambda m: (-closes[m], m[0]))  # the best score, then the lowest card
            if closes[close] == WIN_MATCH * 3:
                return close  # a Chinchón that wins the match
        choice = close if close is not None and closes[close] >= throws[best] else best
        search = self._search(plan)
        if search is not None:
            ranked = sorted(throws, key=lambda m: (throws[m], m[0]), reverse=True)[:SEARCHED]
            options = [m for m in [choice, *ranked, close] if m is not None]
            moves: list[Move] = [("close" if c else "throw", card) for card, c in dict.fromkeys(options)]
            if len(moves) > 1:
                (kind, card), _ = search.best(moves, view.hand)
                assert card is not None
                choice = (card, kind == "close")
        return choice

    def _search(self, plan: _Plan) -> Search | None:
        """The search over sampled deals, when the budget and the cards allow one."""
        if not plan.plain or self.think_ms <= 0:
            return None
        search = Search(plan, self.seed, self.think_ms)
        return search if search.enabled else None

    # -- the value of each move (what choose_* maximise; the hand review reads them) ------
    def judge_draw(self, view: SeatView, *, candidates: bool = False) -> dict[Source, float]:
        """The value of drawing from the stock and of taking the pile's card
        (with the best discard after it), on the scale :meth:`choose_draw`
        compares (the table model's: the search only picks among its best).
        ``candidates``: look only at the discards worth a look."""
        return self._judge_draw(self.plan_cls(view, self.seed, self.pairs), view, candidates=candidates)

    def judge_end(self, view: SeatView, *, candidates: bool = False) -> dict[tuple[Card, bool], float]:
        """The value of each move with eight cards: ``(card, False)`` throws
        ``card``, ``(card, True)`` closes with it face down (legal closes
        only), on the scale :meth:`choose_end` compares (the table model's)."""
        return self._judge_end(self.plan_cls(view, self.seed, self.pairs), view, candidates=candidates)

    @staticmethod
    def _judge_draw(plan: _Plan, view: SeatView, *, candidates: bool) -> dict[Source, float]:
        hand = list(view.hand)
        values: dict[Source, float] = {"stock": plan.value(hand, my_first=True)}
        top = view.top
        if top is not None:
            eight = [*hand, top]
            throws = plan.candidates(eight, top) if candidates else [d for d in dict.fromkeys(eight) if d != top]
            best = max(plan.value(_without(eight, d), my_first=False, discard=d) - plan.feed_cost(d) for d in throws)
            close = plan.close_value(eight)
            values["discard"] = best if close is None else max(best, close)
        return values

    @staticmethod
    def _judge_end(plan: _Plan, view: SeatView, *, candidates: bool) -> dict[tuple[Card, bool], float]:
        hand = list(view.hand)
        throws = plan.candidates(hand) if candidates else list(dict.fromkeys(hand))
        values: dict[tuple[Card, bool], float] = {
            (d, False): plan.value(_without(hand, d), my_first=False, discard=d) - plan.feed_cost(d) for d in throws
        }
        for d in dict.fromkeys(hand):
            if view.can_close(d):
                score = plan.ev.close_score(_without(hand, d), view.players)
                values[(d, True)] = plan.close_gain(_score(score))
        return values


def _score(score: int | None) -> int:
    return 10**6 if score is None else score


def _without(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


class _Plan:
    """One decision's model of the table (built from the view only)."""

    # The turn-based hazard (with two decks or wild cards; Q1 also grows the
    # sampled one turn by turn).  An opponent's chance to close at their
    # turn: measured for the simple player heads-up (3 % at its first turn,
    # 10 % at its fifth, 21 % at its tenth), more for every card taken from
    # the pile still held.  Re-measured against the expert (1500 hands each,
    # classic): good closes at 3.8 % of its second turn, 10.2 % of its
    # fifth, 16.2 % of its eighth, 22 % of its eleventh; simple 3.8 / 8.4 /
    # 13.3 / 18.8 %; the model gives 3.4 / 9.1 / 14.8 / 20.5 %.  After a
    # throw worth 3-4 both close 18 % of the time, after a 9-10 (value 8-10)
    # 4-6 %.  Doubling or halving Q0 and Q1 moved the expert's points per
    # hand against good by under 0.1.
    Q0 = 0.015
    Q1 = 0.019
    Q_HELD = 0.03
    Q_LOW = 0.25
    # Measured (points per hand against good, 1500 hands, the same deals; the
    # unchanged expert -0.12, good against itself -1.10 on these deals, so the
    # expert is about 1 point per hand better than good): LAYOFF 1.1 / 1.4 gave
    # -0.06 / +0.08, LONG 1.0 -0.19, FEED 0 and GIFT 0 -0.22, GIFT 2.0 -0.09,
    # FEED 4.0 (with LAYOFF 1.3) -0.35: all within noise, so unchanged.
    LAYOFF = 0.85
    FEED = 2.5
    GIFT = 0.8
    LONG = 0.5  # weight of the points held after two draws when the hand goes on
    GIFT_BELOW = 6.0
    # Opponents' hands sampled per decision (0: the turn-based hazard alone).
    # Calibrated on real deals (bench/bench_model.py, expert against good,
    # classic, 60 hands, 284 positions, 40 samples): the chance that the
    # opponent closes at its next turn, predicted / measured, by its turns so
    # far: 0-1 2.6 / 3.3 %, 2-3 3.9 / 8.3 %, 4-5 9.0 / 9.1 %, 6-8 13.6 / 12.5 %,
    # all 7.9 / 8.8 %; the turn-based hazard gave 14.9 % in all (4.0, 9.1,
    # 18.1, 28.7 % by turn).  24 samples keep decisions inside the budget.
    DEALS = 24

    def __init__(self, view: SeatView, seed: int, pairs: int) -> None:
        self.view = view
        self.ev: HandEval = evaluator(view.rules)
        self.players = view.players
        # The hand sorted: the same cards in another order (a hand replayed for its review) decide the same.
        self.rng = random.Random(hash((seed, view.seat, len(view.thrown), view.stock_size, tuple(sorted(view.hand)))))
        self._memo8 = _memo_for(self.ev)
        self._memo7: dict[HandKey, tuple[float, float, float, float, float]] = {}
        self.plain = self.ev.plain and view.rules.copies(view.players) == 1
        self.bit = self.ev.bit
        self.q: float  # somebody else closes before my next turn: set by _opponents, then by the sampled deals
        self._unseen()
        self._opponents()
        self.draw_pairs = self._sample_pairs(pairs)
        self._q_after: dict[Card | None, float] = {}
        self._later: dict[tuple[int, int], float] = {}
        self.q2 = self.q
        self.deals = self._sample_deals(self.DEALS) if self.plain and self.DEALS else []
        if self.deals:
            self.q = self.q_after(None)

    # -- where the unseen cards are ------------------------------------------------
    def _unseen(self) -> None:
        view = self.view
        rules = view.rules
        copies = rules.copies(view.players)
        count: dict[Card, int] = {c: copies for c in rules.pack.cards()}
        if rules.jokers:
            count[JOKER] = rules.jokers
        held = known_held(view)
        for c in [*view.hand, *view.pile, *held]:
            if count.get(c, 0) > 0:
                count[c] -= 1
        unseen = [c for c, n in count.items() for _ in range(n)]
        # Opponents' cards not known: spread over the unseen cards by weight.
        hidden = sum(view.hand_sizes[s] for s in view.opponents) - len(held)
        weights = []
        took = [t.card for t in view.thrown if t.taken_by is not None and t.taken_by != view.seat]
        threw = [t.card for t in view.thrown if t.seat is not None and t.seat != view.seat]
        for c in unseen:
            w = 1.0 + 1.5 * near(c, took) - 0.3 * near(c, threw)
            weights.append(max(0.2, w))
        total = sum(weights) or 1.0
        probs = []
        for w in weights:
            in_hands = min(0.95, hidden * w / total)
            probs.append(1.0 - in_hands)
        norm = sum(probs) or 1.0
        self.unseen = unseen
        self.draw_p = [p / norm for p in probs]
        # The next stock card, merged by card (copies add up).
        merged: dict[Card, float] = {}
        for c, p in zip(unseen, self.draw_p, strict=True):
            merged[c] = merged.get(c, 0.0) + p
        self.next_cards = list(merged.items())

    def _sample_pairs(self, n: int) -> list[tuple[Card, Card]]:
        if len(self.unseen) < 2:
            return []
        pairs = []
        for _ in range(n):
            a, b = self.rng.choices(range(len(self.unseen)), weights=self.draw_p, k=2)
            while b == a:
                b = self.rng.choices(range(len(self.unseen)), weights=self.draw_p, k=1)[0]
            pairs.append((self.unseen[a], self.unseen[b]))
        return pairs

    # -- the opponents ---------------------------------------------------------------------
    def _opponents(self) -> None:
        view = self.view
        rules = view.rules
        held = {s: 0 for s in view.opponents}
        turns = {s: 0 for s in view.opponents}
        last: dict[int, int] = {}
        for t in view.thrown:
            if t.seat in turns:
                turns[t.seat] += 1
                last[t.seat] = rules.value(t.card)
            if t.taken_by in held:
                held[t.taken_by] += 1
        hazards = []
        for s in view.opponents:
            q = self.Q0 + self.Q1 * turns[s] + self.Q_HELD * held[s]
            # A player who throws a low card has nothing higher left loose (measured:
            # 15 % to close next after throwing a 4 or 5, 5 % after a 9 or a 10).
            if s in last:
                q *= 0.6 + self.Q_LOW * max(0, 9 - last[s])
            hazards.append(min(0.5, q))
        none = 1.0
        for q in hazards:
            none *= 1.0 - q
        self.q = 1.0 - none  # somebody else closes before my next turn
        mean_turns = sum(turns.values()) / max(1, len(turns))
        # What each opponent would likely score (measured: 21 points after their first turn, about 15 % less each turn).
        self.opp_points = 22.0 * 0.85 ** max(0.0, mean_turns - 1)
        target = rules.target
        totals = view.totals
        me = totals[view.seat]
        heads_up = view.players == 2
        # Points that put an opponent out are worth more; heads-up that is the match.
        bonus = 0.0
        for s in view.opponents:
            over = _sigmoid((totals[s] + self.opp_points - target) / 6.0)
            bonus += over * (WIN_MATCH if heads_up else 25.0)
        self.win_gain = len(view.opponents) * self.opp_points + bonus
        reentry = rules.reentries != 0 and view.players >= rules.reentry_min_players and not heads_up
        self.out_weight = (0.3 if reentry else 1.0) * WIN_MATCH
        self.my_total = me
        self.target = target
        self.fed = fed_cards(view)
        # Heads-up, points are valued by the chance to win the match they leave.
        self.eq = equity(target, rules.eliminate == Eliminate.REACH) if heads_up else None
        if self.eq is not None:
            self.their_total = totals[view.opponents[0]]
            self.eq0 = self.eq(me, self.their_total)
        self.their_points = [self.opp_points]  # what the opponent would score were I to close now

    def _match(self, mine: float, theirs: float) -> float:
        """Heads-up: what adding these points to the totals changes in the match, in points."""
        eq = self.eq
        assert eq is not None
        return eq.points * (eq(self.my_total + round(mine), self.their_total + round(theirs)) - self.eq0)

    # -- the opponents' hands, sampled from the evidence (companion.bots.model) ----------
    def _sample_deals(self, n: int) -> list[tuple[int, int, float, float]]:
        """Per sampled deal: the next opponent's seven (a mask), its points,
        its chance to close from the stock, and the chance that none of the
        later opponents closes at their turn.  Also sets the chance that
        somebody closes at their second turn from now (``q2``): each
        opponent rolled one draw on (the stock card kept if it helps)."""
        ev = self.ev
        rng = self.rng
        model = OpponentModel(self.view, ev)
        out = []
        none2 = 0.0
        for _ in range(n):
            deal = model.sample(rng)
            stock = deal.stock
            masks = [ev.mask(h) for h in deal.hands]
            chances = [stock_close_chance(ev, m, stock) for m in masks]
            rest = 1.0
            for c in chances[1:]:
                rest *= 1.0 - c
            out.append((masks[0], ev.points_of_mask(masks[0]), chances[0], rest))
            none = 1.0
            for m in masks:
                if stock:
                    drawn = stock[int(rng.random() * len(stock))]
                    m = ev.keep_mask(m | ev.bit[drawn])
                none *= 1.0 - stock_close_chance(ev, m, stock)
            none2 += none
        self.q2 = 1.0 - none2 / n
        # Were I to close now: the measured mean, spread as the sampled hands' points.
        mean = sum(points for _, points, _, _ in out) / n
        if mean:
            self.their_points = [self.opp_points * points / mean for _, points, _, _ in out]
        return out

    def q_after(self, discard: Card | None) -> float:
        """The chance that somebody closes before my next turn once I throw
        ``discard`` (None: a card not known yet, so only their stock draws)."""
        if not self.deals:
            return self.q
        got = self._q_after.get(discard)
        if got is None:
            none = 0.0
            for mask, _, from_stock, rest in self.deals:
                took = take_top(self.ev, mask, discard) if discard is not None else None
                first = from_stock if took is None else float(took)
                none += (1.0 - first) * rest
            got = self._q_after[discard] = 1.0 - none / len(self.deals)
        return got

    def my_cost(self, loose: float) -> float:
        """What holding ``loose`` points costs if somebody else closes (lay-offs take some off)."""
        if self.eq is not None:
            return -self._match(self.LAYOFF * loose, 0)
        return self.LAYOFF * loose + self.out_weight * _sigmoid((self.my_total + loose - self.target) / 5.0)

    def close_gain(self, score: int) -> float:
        if score == -1000:
            return WIN_MATCH * 3
        if self.eq is not None:
            return self.later_gain(0, score)  # the spread of their points, unshrunk
        return self.win_gain - score - self.out_weight * _sigmoid((self.my_total + score - self.target) / 5.0)

    # -- a playout's end, valued (companion.bots.search) ----------------------------------
    def closed_by_me(self, score: int, theirs: list[float]) -> float:
        """I close scoring ``score``; the opponents take ``theirs`` (lay-offs off)."""
        if score == -1000:
            return WIN_MATCH * 3
        if self.eq is not None:
            return self._match(score, theirs[0])
        out = sum(
            _sigmoid((self.view.totals[s] + t - self.target) / 6.0) * 25.0
            for s, t in zip(self.view.opponents, theirs, strict=True)
        )
        return sum(theirs) + out - score - self.out_weight * _sigmoid((self.my_total + score - self.target) / 5.0)

    def closed_by_them(self, mine: float, score: int) -> float:
        """An opponent closes scoring ``score``; I take ``mine`` (lay-offs off)."""
        if score == -1000:
            return -WIN_MATCH * 3
        if self.eq is not None:
            return self._match(mine, score)
        return -mine - self.out_weight * _sigmoid((self.my_total + mine - self.target) / 5.0)

    def held_both(self, mine: float, theirs: list[float]) -> float:
        """Nobody has closed yet: a share of what each side holds."""
        if self.eq is not None:
            return self._match(mine, theirs[0])
        return sum(theirs) / len(theirs) - mine

    def later_gain(self, draws: int, score: float) -> float:
        """What closing after ``draws`` more draws, scoring ``score``, is worth.
        Heads-up, over the same spread of the opponent's points as closing now
        (:meth:`close_gain`), each shrunk by the turns to come: valued at their
        mean, a later close near the target would always put the opponent out,
        and waiting would look better than a close now that almost surely does."""
        if self.eq is not None:
            key = (draws, round(score))
            got = self._later.get(key)
            if got is None:
                shrink = 0.85**draws
                spread = self.their_points
                got = self._later[key] = sum(self._match(score, x * shrink) for x in spread) / len(spread)
            return got
        return self.win_gain * 0.85**draws - score

    def candidates(self, eight: list[Card], keep: Card | None = None) -> list[Card]:
        """Discards worth a look: the ones leaving the fewest loose points, and
        the ones leaving the most melded cards (at most ``CANDIDATES``)."""
        ev = self.ev
        scored = []
        for d in set(eight):
            if d == keep:
                continue
            rest = _without(eight, d)
            scored.append((ev.loose(rest), ev.loose_count(rest), -ev.rules.value(d), d))
        by_points = sorted(scored)
        by_count = sorted(scored, key=lambda t: (t[1], t[0], t[2], t[3]))
        chosen = dict.fromkeys([t[3] for t in by_points[:CANDIDATES]] + [t[3] for t in by_count[:2]])
        return list(chosen)

    def feed_cost(self, card: Card) -> float:
        """What throwing ``card`` may give the next player: a card near what
        they took from the pile, or a low card they can swap for a high one."""
        low = max(0.0, self.GIFT_BELOW - self.ev.rules.value(card)) if card != JOKER else 10.0
        return self.FEED * near(card, self.fed) * (1.0 + self.q) + self.GIFT * low

    # -- hands as keys: a bitmask for plain cards (fast), a sorted tuple otherwise -----
    def key_of(self, cards: Sequence[Card]) -> HandKey:
        return self.ev.mask(cards) if self.plain else tuple(sorted(cards))

    def add(self, key: HandKey, card: Card) -> HandKey:
        return key | self.bit[card] if self.plain else tuple(sorted((*key, card)))

    def info(self, key8: HandKey) -> tuple[int, bool, int | None]:
        """(loose points after the best discard, closes?, best close score) of eight cards."""
        if self.plain:
            return self.ev.eight_mask(key8)
        return self._slow(key8)[1:]

    def keep(self, key8: HandKey) -> HandKey:
        """The seven of eight cards with the fewest loose points."""
        if self.plain:
            return self.ev.keep_mask(key8)
        return self._slow(key8)[0]

    def _slow(self, key8: HandKey) -> _Solved:
        got = self._memo8.get(key8)
        if got is None:
            got = self._memo8[key8] = self.ev.solve_eight(list(key8), self.players)
        return got

    def loose7(self, key: HandKey) -> int:
        return self.ev.points_of_mask(key) if self.plain else self.ev.loose(list(key))

    def close_value(self, eight: list[Card]) -> float | None:
        """The value of closing with these eight cards now, if legal."""
        _, closes, score = self.info(self.key_of(eight))
        if not closes or (self.view.first_round and not self.view.rules.first_round_close):
            return None
        return self.close_gain(score if score is not None else 0)

    # -- seven kept ------------------------------------------------------------------------
    def odds(self, key: HandKey) -> tuple[float, float, float, float, float]:
        """(close next draw, close within two, loose after one draw, loose after
        two (0 when closed), expected close score)."""
        got = self._memo7.get(key)
        if got is not None:
            return got
        info, add = self.info, self.add
        p1 = loose1 = score1 = 0.0
        for c, p in self.next_cards:
            loose, closes, close_score = info(add(key, c))
            loose1 += p * loose
            if closes:
                p1 += p
                score1 += p * max(-20, close_score if close_score is not None else 0)
        hits = 0
        loose2 = 0.0
        for a, b in self.draw_pairs:
            first = add(key, a)
            one = info(first)
            if one[1]:
                continue  # closed at the first draw: nothing left to hold
            two = info(add(self.keep(first), b))
            if two[1]:
                hits += 1
            else:
                loose2 += two[0]
        n = len(self.draw_pairs)
        p2_more = hits / n if n else 0.0
        loose2 = loose2 / n if n else loose1
        score = score1 / p1 if p1 else 1.5
        got = self._memo7[key] = (p1, min(1.0, p1 + p2_more), loose1, loose2, score)
        return got

    def value(self, kept: list[Card], *, my_first: bool, discard: Card | None = None) -> float:
        """Expected gain of holding ``kept`` (the race against the opponents),
        ``discard`` thrown (None: not chosen yet)."""
        key = self.key_of(kept)
        p1, p2, loose1, loose2, score = self.odds(key)
        loose0 = self.loose7(key)
        h = [p1, (p2 - p1) / (1.0 - p1) if p1 < 1.0 else 1.0]
        h.append(min(0.9, h[1] * 1.15 + 0.02))
        grow = self.Q1 if self.deals else 0.0  # the turn-based hazard already grows
        qs = [self.q_after(discard), self.q2, min(0.5, self.q2 + grow), min(0.5, self.q2 + 2 * grow)]
        alive = 1.0
        total = 0.0
        draws = 0
        for k in range(8):
            if (k % 2 == 0) == my_first:
                hz = h[min(draws, 2)]
                total += alive * hz * self.later_gain(draws, score if draws == 0 else 1.0)
                alive *= 1.0 - hz
                draws += 1
            else:
                held = loose0 if draws == 0 else loose1 if draws == 1 else loose2
                q = qs[k // 2]
                total -= alive * q * self.my_cost(held)
                alive *= 1.0 - q
        # Whatever is left: a long hand, roughly even, holding what we hold.
        total -= alive * self.LONG * self.my_cost(loose2)
        return total


def _memo_for(ev: HandEval) -> dict[HandKey, _Solved]:
    memo = ev.memo.setdefault("expert", {})
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    return memo


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))
