"""Computer players.  Pure Python over the rules engine; no Flask, no database.

- :class:`SimpleBot` takes the top discard when it lowers its loose points,
  throws the card that leaves the fewest loose points, and closes as soon as
  it legally can.
- :class:`GoodBot` also remembers what has been discarded (cards no longer
  live cannot complete its melds), keeps cards that still have partners in
  play, avoids feeding the next player a card it just took, and closes when
  as soon as it legally can, with the best-scoring close.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..rules import Card, Rules, best_melds
from ..rules.close import check_close
from ..rules.game import HandGame


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
        for entry in game.log:
            if entry.get("action") == "discard":
                self.seen[entry["card"]] += 1
            if entry.get("action") == "draw" and entry.get("source") == "discard" and entry.get("seat") == nxt:
                self.taken_by_next.add(entry["card"])

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
            card, verdict, _ = min(legal, key=lambda o: (not o[1].wins_match, o[1].score))
            # Close when it pays: all combined, a low score, or the hand drags on.
            if verdict.score is not None and (
                verdict.score <= 0 or verdict.score <= 2 or game.turns_taken > 3 * game.players
            ):
                return EndTurn(card, True)
        best = min(
            options,
            key=lambda o: (o[2], self._liveness(o[0], hand, game), str(o[0]) in self.taken_by_next, -rules.value(o[0])),
        )
        return EndTurn(best[0], False)

    def _liveness(self, card: Card, hand: list[Card], game: HandGame) -> int:
        """How many cards still in play could pair with ``card`` (keep the live ones)."""
        if card.suit is None:
            return 99
        deck = game.rules.pack
        copies = game.rules.copies(game.players)
        ranks = deck.ranks
        pos = ranks.index(card.rank)
        partners = [c for c in deck.cards() if c.rank == card.rank and c != card]
        partners += [c for c in deck.cards() if c.suit == card.suit and abs(ranks.index(c.rank) - pos) == 1]
        return sum(max(0, copies - self.seen[str(c)] - hand.count(c)) for c in partners)


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
