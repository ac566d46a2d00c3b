"""Close verdicts (SPEC §4).

>>> from companion.rules import get_rules, parse_cards
>>> v = check_close(parse_cards("11c 11e 11b 5o 6o 7o 3c 12e"), get_rules("classic"))
>>> v.legal, str(v.discard), v.score
(True, '12e', 3)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .errors import CardError, CountError
from .melds import IndexedHand, meld_context, sort_cards
from .validate import check_cards
from .variants import CloseRule, Rules


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a close is not legal: a message id with parameters, and English text."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return REASON_TEXT[self.code].format(**self.params)


#: English sentences for each reason code; front ends translate by code.
REASON_TEXT = {
    "first_round": "Nobody may close before every player has had a turn (first round).",
    "one_card_many": "{count} loose cards worth {points}; these rules allow at most one loose card worth {max} or less.",
    "one_card_high": "The loose card is worth {points}; these rules allow one loose card worth {max} or less.",
    "points_high": "The loose cards are worth {points}; these rules allow at most {max} points.",
}


@dataclass(frozen=True, slots=True)
class CloseOption:
    """One way to close: which card goes face down and how the rest is shown.

    ``melds`` are hand bitmasks (see :class:`IndexedHand`); ``key`` orders
    options best first: legal, then winning the match, then lowest score (or
    fewest loose points when not legal).
    """

    discard: int  # hand bit of the discarded card, 0 with seven cards
    melds: tuple[int, ...]
    deadwood: int
    dead_points: int
    legal: bool
    score: int | None
    chinchon: bool
    wins_match: bool

    @property
    def key(self) -> tuple[int, int, int]:
        if self.legal:
            return (0, 0 if self.wins_match else 1, self.score)  # type: ignore[return-value]
        return (1, 1, self.dead_points)


@dataclass(frozen=True, slots=True)
class CloseVerdict:
    """The answer to "can I close with this?" with the arrangement shown."""

    legal: bool
    discard: Card | None
    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    score: int | None
    chinchon: bool
    wins_match: bool
    why: Reason | None
    dead_points: int

    @property
    def reason(self) -> str | None:
        return self.why.text if self.why else None


def close_options(hand: IndexedHand, rules: Rules, first_round: bool = False, discard: Card | None = None) -> Iterator[CloseOption]:
    """Every way to close this hand (8 cards with a discard, or 7 kept)."""
    n = len(hand.ids)
    blocked = first_round and not rules.first_round_close
    discard_bits = 0
    if discard is not None:
        for i, c in enumerate(hand.cards):
            if c == discard:
                discard_bits |= 1 << i
    total = hand.total
    values = hand.values
    meld_value = hand.meld_value
    singles = hand.melds
    for combo in hand.combos():
        covered = 0
        taken = 0
        for m in combo:
            covered |= m
            taken += meld_value[m]
        left = hand.full ^ covered
        if n == 8:
            pool = left & discard_bits if discard is not None else left
            if not pool:
                continue
            d = pool & -pool  # highest value first, so the lowest bit
            dead = left ^ d
            dead_points = total - taken - values[d.bit_length() - 1]
        else:
            d = 0
            dead = left
            dead_points = total - taken
        count = dead.bit_count()
        legal = not blocked and rules.can_close(count, dead_points)
        chinchon = False
        wilds = None
        if not dead and len(combo) == 1 and combo[0].bit_count() == 7:
            wilds = singles[combo[0]]
            chinchon = wilds == 0
        wins = legal and chinchon and rules.chinchon_wins_match
        if not legal:
            score = None
        elif dead:
            score = dead_points
        else:
            score = _full_close_score(rules, chinchon, wilds)
        yield CloseOption(d, combo, dead, dead_points, legal, score, chinchon, wins)


def _full_close_score(rules: Rules, chinchon: bool, wilds: int | None) -> int:
    if chinchon:
        if isinstance(rules.chinchon, int):
            return rules.chinchon
        return rules.all_combined_bonus
    if wilds and rules.joker_run_bonus and wilds <= len(rules.joker_run_bonus):
        return rules.joker_run_bonus[wilds - 1]
    return rules.all_combined_bonus


def _tidy(option: CloseOption) -> tuple[int, int, tuple[int, ...]]:
    """Among equally good options, prefer the fewest loose cards and the
    longest melds: what a player would lay out."""
    return (option.deadwood.bit_count(), len(option.melds), option.melds)


def best_option(options: Iterator[CloseOption]) -> CloseOption:
    return min(options, key=lambda o: (o.key, _tidy(o)))


def reason_for(option: CloseOption, rules: Rules, first_round: bool) -> Reason | None:
    if option.legal:
        return None
    if first_round and not rules.first_round_close:
        return Reason("first_round")
    count = option.deadwood.bit_count()
    if rules.close_rule == CloseRule.ONE_CARD:
        if count > 1:
            return Reason("one_card_many", {"count": count, "points": option.dead_points, "max": rules.close_max})
        return Reason("one_card_high", {"points": option.dead_points, "max": rules.close_max})
    return Reason("points_high", {"points": option.dead_points, "max": rules.close_max})


def verdict_of(hand: IndexedHand, option: CloseOption, rules: Rules, first_round: bool) -> CloseVerdict:
    return CloseVerdict(
        legal=option.legal,
        discard=hand.cards[option.discard.bit_length() - 1] if option.discard else None,
        melds=tuple(hand.meld_cards(m) for m in option.melds),
        deadwood=sort_cards(hand.cards_of(option.deadwood), hand.ctx),
        score=option.score,
        chinchon=option.chinchon,
        wins_match=option.wins_match,
        why=reason_for(option, rules, first_round),
        dead_points=option.dead_points,
    )


def check_close(
    cards: Sequence[Card],
    rules: Rules,
    first_round: bool = False,
    discard: Card | None = None,
    *,
    players: int | None = None,
    field: str = "cards",
) -> CloseVerdict:
    """Whether a player may close with these cards, and the best way to.

    ``cards`` is the hand after drawing (8 cards: the best discard is chosen
    unless ``discard`` names one) or the seven cards kept.
    """
    if len(cards) not in (7, 8):
        raise CountError(f"A close needs the 8 cards held after drawing, or the 7 kept; got {len(cards)}.", field, count=len(cards))
    check_cards(cards, rules, rules.copies(players), field)
    if discard is not None:
        if len(cards) == 7:
            raise CountError("Name a discard only with the 8 cards held after drawing.", "discard")
        if discard not in cards:
            raise CardError(f"The discard {discard} is not among the cards.", "discard", token=str(discard))
    hand = IndexedHand(cards, rules, meld_context(rules))
    option = best_option(close_options(hand, rules, first_round, discard))
    return verdict_of(hand, option, rules, first_round)


__all__ = ["CloseOption", "CloseVerdict", "Reason", "check_close", "close_options"]
