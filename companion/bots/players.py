"""Computer players.  Pure Python over the rules engine; no Flask, no database.

- :class:`SimpleBot` takes the top discard when it lowers its loose points,
  throws the card that leaves the fewest loose points, and closes as soon as
  it legally can.
- :class:`GoodBot` also remembers what has been discarded and looks one draw
  ahead: it keeps the seven cards that the cards still live (not seen
  discarded) would most improve, avoids feeding the next player a card they
  took before, and closes as soon as it legally can with its best-scoring
  close.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..rules import Card, Rules, best_melds
from ..rules.close import check_close
from ..rules.game import Discard, Draw, HandGame, Source


@dataclass
class Move:
    source: str  # "stock" or "discard"


@dataclass
class EndTurn:
    card: Card
    close: bool


class SimpleBot:
    name = "simple"

    def choose_draw(self, game: HandGame, seat: int) -> Move:
        top = game.top_discard
        if top is None:
            return Move("stock")
        rules = game.rules
        now = _loose(game.hands[seat], rules)
        with_top = _best_after_discard(game.hands[seat] + [top], rules, forbid=top)
        return Move("discard" if with_top < now else "stock")

    def choose_end(self, game: HandGame, seat: int) -> EndTurn:
        hand = game.hands[seat]
        rules = game.rules
        for card in _discard_order(hand, rules):
            if game.can_close(seat, card):
                return EndTurn(card, True)
        return EndTurn(_discard_order(hand, rules)[0], False)


@dataclass
class GoodBot(SimpleBot):
    name = "good"
    seen: Counter = field(default_factory=Counter)  # cards known to be out of reach
    taken_by_next: set = field(default_factory=set)

    def observe(self, game: HandGame, seat: int) -> None:
        """Read the public log: discarded cards, and what the next player picked up."""
        self.seen = Counter()
        self.taken_by_next = set()
        nxt = (seat + 1) % game.players
        for move in game.seen_by(seat):
            if isinstance(move, Discard):
                self.seen[str(move.card)] += 1
            if isinstance(move, Draw) and move.source == Source.DISCARD and move.seat == nxt:
                self.taken_by_next.add(str(move.card))

    def choose_draw(self, game: HandGame, seat: int) -> Move:
        self.observe(game, seat)
        return super().choose_draw(game, seat)

    def choose_end(self, game: HandGame, seat: int) -> EndTurn:
        hand = game.hands[seat]
        rules = game.rules
        options = []
        for card in dict.fromkeys(hand):
            rest = list(hand)
            rest.remove(card)
            verdict = check_close(hand, rules, game.first_round, card, players=game.players)
            loose = best_melds(rest, rules, copies=rules.copies(game.players)).points
            options.append((card, verdict, loose))
        legal = [o for o in options if o[1].legal]
        if legal:
            # A legal close already caps the score at the rules' limit: take the best one now.
            card, _verdict, _ = min(legal, key=lambda o: (not o[1].wins_match, o[1].score))
            return EndTurn(card, True)
        # Look one draw ahead: keep the seven that the cards still live would
        # improve most (points a drawn card would pull into melds).
        live = self._live_cards(hand, game)
        best = min(
            options,
            key=lambda o: (
                o[2] - self._expected_gain(o[0], hand, o[2], live, game),
                str(o[0]) in self.taken_by_next,
                -rules.value(o[0]),
            ),
        )
        return EndTurn(best[0], False)

    def _live_cards(self, hand: list[Card], game: HandGame) -> list[tuple[Card, int]]:
        """Cards the stock may still hold: not seen discarded, not in this hand."""
        copies = game.rules.copies(game.players)
        out = []
        for card in game.rules.pack.cards():
            left = copies - self.seen[str(card)] - hand.count(card)
            if left > 0:
                out.append((card, left))
        return out

    def _expected_gain(self, discard: Card, hand: list[Card], loose: int, live, game: HandGame) -> float:
        rules = game.rules
        rest = list(hand)
        rest.remove(discard)
        total = gain = 0
        for card, left in live:
            total += left
            absorbed = loose + rules.value(card) - _loose([*rest, card], rules)
            if absorbed > 0:
                gain += absorbed * left
        return gain / total if total else 0.0


def _loose(cards: list[Card], rules: Rules) -> int:
    return best_melds(cards, rules, copies=2).points


def _best_after_discard(cards: list[Card], rules: Rules, forbid: Card | None = None) -> int:
    """Fewest loose points keeping seven of these eight cards."""
    best = None
    for card in dict.fromkeys(cards):
        if card == forbid:
            continue
        rest = list(cards)
        rest.remove(card)
        points = _loose(rest, rules)
        best = points if best is None else min(best, points)
    return best if best is not None else _loose(cards, rules)


def _discard_order(hand: list[Card], rules: Rules) -> list[Card]:
    """Cards to throw, best first: the one leaving the fewest loose points,
    then the highest value."""
    scored = []
    for card in dict.fromkeys(hand):
        rest = list(hand)
        rest.remove(card)
        scored.append((_loose(rest, rules), -rules.value(card), str(card), card))
    return [s[3] for s in sorted(scored)]


BOTS = {"simple": SimpleBot, "good": GoodBot}
