"""Hand positions written out card by card, shared by the engine's and the bots' tests."""

from __future__ import annotations

from companion.rules import get_rules, parse_cards
from companion.rules.game import HandGame

classic = get_rules("classic")


def fixed(hands, stock, discards, turn=0, rules=classic, turns_taken=10, reshuffles=0, dealer=None):
    """A game in the draw phase: ``hands`` in seat order (the last seat dealt
    unless ``dealer`` says), ``stock`` top last, ``discards`` bottom first,
    each a string of cards."""
    return HandGame(
        rules=rules,
        dealer=len(hands) - 1 if dealer is None else dealer,
        hands=[parse_cards(h) for h in hands],
        stock=parse_cards(stock),
        discards=parse_cards(discards),
        turn=turn,
        turns_taken=turns_taken,
        reshuffles=reshuffles,
    )
