"""The simple and good computer players (protocol: :mod:`companion.bots.protocol`).

- :class:`SimpleBot` takes the top of the pile when it lowers its loose
  points, throws the card that leaves the fewest loose points, and closes as
  soon as it legally can.
- :class:`GoodBot` also looks one draw ahead: it keeps the seven cards that
  the cards still live (not in the pile, not in its hand) would most
  improve, avoids feeding the next player a card of a rank or suit they took
  from the pile, and closes as soon as it can with its best-scoring close.

Both break deadlocks: once the stock has been rebuilt from the pile (the
courts circulate because everybody keeps low cards), they build melds
whatever the cards' points — fewest loose *cards*, keeping pairs and
neighbours — so somebody can close.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from ..rules import JOKER, Card
from .hands import HandEval, evaluator
from .protocol import Source
from .view import SeatView


class SimpleBot:
    name = "simple"
    #: Switch to meld building once the stock has been reshuffled (issue #13).
    break_deadlocks = True

    def choose_draw(self, view: SeatView) -> Source:
        top = view.top
        if top is None:
            return "stock"
        ev = evaluator(view.rules)
        if self._deadlocked(view):
            now = ev.loose_count(view.hand)
            after = min(_without(ev.loose_count, [*view.hand, top], c) for c in set(view.hand))
            return "discard" if after < now else "stock"
        now = ev.loose(view.hand)
        with_top = min(_without(ev.loose, [*view.hand, top], c) for c in set(view.hand))
        return "discard" if with_top < now else "stock"

    def choose_end(self, view: SeatView) -> tuple[Card, bool]:
        order = self.discard_order(view)
        for card in order:
            if view.can_close(card):
                return card, True
        return order[0], False

    def discard_order(self, view: SeatView) -> list[Card]:
        """Cards to throw, best first: the one leaving the fewest loose points,
        then the highest value (in a deadlock: the fewest loose cards, then
        the card with the fewest partners)."""
        ev = evaluator(view.rules)
        hand = list(view.hand)
        if self._deadlocked(view) and view.reshuffles >= 2:
            # Still stuck: let the cards flow.  Among the throws that keep the
            # most cards melded, pick one by a draw seeded from the table.
            rng = random.Random(hash((view.reshuffles, view.stock_size, view.seat, view.hand)))
            return sorted(set(hand), key=lambda c: (_without(ev.loose_count, hand, c), rng.random()))
        if self._deadlocked(view):
            pool = circulating(view)
            return sorted(
                set(hand),
                key=lambda c: (
                    _without(ev.loose_count, hand, c),
                    live_partners(ev, c, hand, pool),
                    partners(c, hand),
                    _without(ev.loose, hand, c),
                    -ev.rules.value(c),
                    c,
                ),
            )
        return sorted(set(hand), key=lambda c: (_without(ev.loose, hand, c), -ev.rules.value(c), str(c)))

    def _deadlocked(self, view: SeatView) -> bool:
        return self.break_deadlocks and view.reshuffles > 0


class GoodBot(SimpleBot):
    name = "good"

    def choose_end(self, view: SeatView) -> tuple[Card, bool]:
        ev = evaluator(view.rules)
        hand = list(view.hand)
        legal = [c for c in set(hand) if view.can_close(c)]
        if legal:
            # A legal close already caps the score at the rules' limit: take the best one now.
            return min(legal, key=lambda c: (_close_rank(ev, hand, c, view.players), c)), True
        if self._deadlocked(view):
            return self.discard_order(view)[0], False
        live = live_cards(view)
        fed = fed_cards(view)

        def key(card: Card) -> tuple[float, int, int, Card]:
            rest = list(hand)
            rest.remove(card)
            loose = ev.loose(rest)
            return (loose - expected_gain(ev, rest, loose, live), near(card, fed), -ev.rules.value(card), card)

        return min(set(hand), key=key), False


def _without(fn: Callable[[list[Card]], int], cards: list[Card], card: Card) -> int:
    rest = list(cards)
    rest.remove(card)
    return fn(rest)


def _close_rank(ev: HandEval, hand: list[Card], card: Card, players: int) -> int:
    rest = list(hand)
    rest.remove(card)
    score = ev.close_score(rest, players)
    return score if score is not None else 10**6


def partners(card: Card, hand: list[Card]) -> int:
    """How many other held cards share its rank or sit within two of it in its suit."""
    if card == JOKER:
        return -10
    n = 0
    for other in hand:
        if other is card or other == JOKER:
            continue
        same_rank = other.rank == card.rank and other.suit != card.suit
        if same_rank or (other.suit == card.suit and 0 < abs(other.rank - card.rank) <= 2):
            n += 1
    return n


def circulating(view: SeatView) -> set[Card]:
    """Cards seen thrown and not in this hand: once the stock has been rebuilt
    from the pile, these are the cards that go round (the rest sit in hands)."""
    return {t.card for t in view.thrown} - set(view.hand)


def live_partners(ev: HandEval, card: Card, hand: list[Card], pool: set[Card]) -> int:
    """Held cards that make a meld with ``card`` and one circulating card: a
    pair whose third card is stuck in another hand is worth nothing."""
    n = 0
    for other in set(hand):
        if other == card or partners(card, [other]) == 0:
            continue
        if any(ev.loose([card, other, p]) == 0 for p in pool):
            n += 1
    return n


def live_cards(view: SeatView) -> list[tuple[Card, int]]:
    """Cards that may still come: not in the pile, not in this hand, not known
    to be held by an opponent (taken from the pile and not thrown since)."""
    rules = view.rules
    copies = rules.copies(view.players)
    out_of_reach = Counter(view.hand) + Counter(view.pile) + Counter(known_held(view))
    pool = [(c, copies) for c in rules.pack.cards()]
    if rules.jokers:
        pool.append((JOKER, rules.jokers))
    out = []
    for card, n in pool:
        left = n - out_of_reach[card]
        if left > 0:
            out.append((card, left))
    return out


def known_held(view: SeatView) -> list[Card]:
    """Cards opponents took from the pile and have not thrown since."""
    held: list[Card] = []
    for seat in view.opponents:
        cards: list[Card] = []
        for t in view.thrown:
            if t.taken_by == seat:
                cards.append(t.card)
        # A card taken and later thrown again shows up as thrown by that seat.
        for card in view.thrown_by(seat):
            if card in cards:
                cards.remove(card)
        held += cards
    return held


def fed_cards(view: SeatView) -> list[Card]:
    """Cards the next player took from the pile (they collect their ranks and suits)."""
    return list(view.taken_by(view.opponents[0])) if view.opponents else []


def near(card: Card, cards: Sequence[Card]) -> int:
    """How many of ``cards`` share the rank of ``card`` or sit within two of it
    in its suit (jokers never count): throwing ``card`` may help a player who
    collects those cards, and a card near what they took is likelier theirs."""
    if card == JOKER:
        return 0
    n = 0
    for c in cards:
        if c == JOKER:
            continue
        if c.rank == card.rank or (c.suit == card.suit and abs(c.rank - card.rank) <= 2):
            n += 1
    return n


def expected_gain(ev: HandEval, rest: list[Card], loose: int, live: list[tuple[Card, int]]) -> float:
    """Average points a drawn live card would pull into melds with the seven kept."""
    total = gain = 0
    value = ev.rules.value
    for card, left in live:
        total += left
        absorbed = loose + value(card) - ev.loose([*rest, card])
        if absorbed > 0:
            gain += absorbed * left
    return gain / total if total else 0.0
