"""Checks that cards can exist together under a rule set (deck, copies, jokers)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import JOKER, Card
from .errors import CardError
from .variants import Rules


def check_cards(cards: Sequence[Card], rules: Rules, copies: int, field: str = "cards") -> None:
    """Raise :class:`CardError` at the first card that cannot be there."""
    distinct = set(cards)
    if len(distinct) == len(cards) and distinct <= rules.card_keys.keys() and (rules.jokers or JOKER not in distinct):
        return  # the common case, decided in C: all different, all in the pack
    check_card_groups([cards], rules, copies, lambda i, j: f"{field}[{j}]")


def check_card_groups(
    groups: Sequence[Sequence[Card]], rules: Rules, copies: int, path: Callable[[int, int], str] | None = None
) -> None:
    """Like :func:`check_cards` over several hands dealt from one pack.

    ``path(i, j)`` names card ``j`` of group ``i``; the error points at the
    first extra copy in reading order.
    """
    path = path or (lambda i, j: f"hands[{i}][{j}]")
    deck = rules.pack
    seen: dict[Card, int] = {}
    for i, group in enumerate(groups):
        for j, card in enumerate(group):
            if card.suit is None:
                if rules.jokers == 0:
                    raise CardError("These rules play without jokers.", path(i, j), token="*")
                limit = rules.jokers
            else:
                if card not in deck:
                    raise CardError(
                        f"{card} is not in the {deck.name} deck.", path(i, j), token=str(card), deck=deck.name
                    )
                limit = copies
            count = seen.get(card, 0) + 1
            if count > limit:
                if card.suit is None:
                    message = f"Only {limit} joker{'s' if limit > 1 else ''} in the pack; this is one too many."
                elif limit == 1:
                    message = f"{card} appears twice, but the pack has only one."
                else:
                    message = f"{card} appears {count} times, but the pack has only {limit}."
                raise CardError(message, path(i, j), token=str(card), copies=limit)
            seen[card] = count
