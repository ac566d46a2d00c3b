"""The advisor: a seat's odds for each discard, from what the seat can see.

Pure Python over the rules engine.  The cards the seat has not seen (not in
its hand, not among the ``seen`` cards thrown) are the *unseen* cards; each
is taken as equally likely to be the next card drawn (they lie in the stock
or in other hands, and nothing tells them apart).

For each possible discard ``d`` of the eight cards held after drawing, with
``K`` the seven kept:

- ``close_next``: the chance that after the next draw the seat can close,
  i.e. that some card of ``K + c`` can go face down leaving a legal close,
  for ``c`` uniform over the unseen cards.  Exact: every unseen card is
  enumerated (each copy counts once).  The first-round rule is not applied.
- ``close_within_3``: the chance of being able to close after one of the
  next three own draws (fewer when ``stock`` leaves fewer before the pack
  is rebuilt), the draws being three different unseen cards at random.
  Between draws the seat keeps the seven with the fewest loose points (ties:
  it throws the higher card, then the card later in deck order).  Sampled: ``samples`` random draw sequences
  from ``random.Random(seed)``, the same sequences for every discard.
- ``expected_points``: the points the seat would hold if somebody else
  closed right after its next draw — the average over the next draw ``c``
  (uniform over the unseen cards) of the fewest loose points among the
  sevens kept from ``K + c``.  Lay-offs onto the closer's melds are not
  counted (they depend on the closer's cards).  Exact.
- ``close_now``: ``K`` is a legal close already (the first-round rule aside).

``recommended`` is the discard to play: one that closes now, with the best
score, if any; else the highest ``close_within_3 + close_next``, then the
fewest ``expected_points``.  With the seven cards held before drawing, the
answer has one row with ``discard`` None and ``recommended`` None.

>>> from companion.rules import get_rules, parse_cards
>>> a = advise(get_rules("classic"), parse_cards("11c 11e 11b 5o 6o 7o 3c 12e"), samples=200)
>>> row = next(r for r in a.rows if str(r.discard) == "12e")
>>> str(a.recommended), row.close_now, row.close_score, row.close_next
('12e', True, 3, 1.0)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import JOKER, Card, Rules
from ..rules.errors import ChinchonError, CountError
from ..rules.validate import check_card_groups
from .hands import HandEval, evaluator

DEFAULT_SAMPLES = 400
MAX_SAMPLES = 5000


@dataclass(frozen=True, slots=True)
class DiscardOdds:
    discard: Card | None
    close_next: float
    close_within_3: float
    expected_points: float
    close_now: bool
    close_score: int | None  # the score of closing now with this discard, if legal


@dataclass(frozen=True, slots=True)
class Advice:
    rows: tuple[DiscardOdds, ...]
    recommended: Card | None
    samples: int
    unseen: int
    draws: int  # own draws counted by close_within_3


def unseen_cards(rules: Rules, hand: Sequence[Card], seen: Sequence[Card], players: int) -> list[Card]:
    """Every card of the pack not in ``hand`` or ``seen``, one entry per copy."""
    copies = rules.copies(players)
    pool = Counter({c: copies for c in rules.pack.cards()})
    if rules.jokers:
        pool[JOKER] = rules.jokers
    pool.subtract(Counter(hand))
    pool.subtract(Counter(seen))
    return [c for c, n in pool.items() for _ in range(max(n, 0))]


def advise(
    rules: Rules,
    hand: Sequence[Card],
    seen: Sequence[Card] = (),
    *,
    stock: int | None = None,
    players: int = 2,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> Advice:
    """Odds per discard (see the module's docstring for the exact definitions).

    Raises a :class:`ChinchonError` naming the field for bad input (``hand``,
    ``hand[i]``, ``seen[i]``, ``players``, ``stock``, ``samples``).
    """
    hand = list(hand)
    seen = list(seen)
    if len(hand) not in (7, 8):
        raise CountError(f"Give the 8 cards held after drawing, or the 7 before; got {len(hand)}.", "hand")
    if not rules.min_players <= players <= rules.max_players:
        raise ChinchonError(
            f"players must be from {rules.min_players} to {rules.max_players} under these rules.", "players"
        )
    if not 1 <= samples <= MAX_SAMPLES:
        raise ChinchonError(f"samples must be from 1 to {MAX_SAMPLES}.", "samples")
    check_card_groups([hand, seen], rules, rules.copies(players), lambda i, j: f"{('hand', 'seen')[i]}[{j}]")
    unseen = unseen_cards(rules, hand, seen, players)
    if not unseen:
        raise ChinchonError("No card is left unseen: nothing can be drawn.", "seen")
    if stock is not None and not 0 <= stock <= len(unseen):
        raise ChinchonError(f"stock must be from 0 to {len(unseen)} (the cards not seen).", "stock")
    draws = 3 if stock is None else max(1, min(3, -(-stock // players)))
    ev = evaluator(rules)
    rng = random.Random(seed)
    sequences = [rng.sample(unseen, min(draws, len(unseen))) for _ in range(samples)]

    kept_options: list[tuple[Card | None, list[Card]]]
    if len(hand) == 8:
        kept_options = []
        for d in dict.fromkeys(hand):
            kept = list(hand)
            kept.remove(d)
            kept_options.append((d, kept))
    else:
        kept_options = [(None, hand)]

    rows = []
    memo: _Memo = {}
    for d, kept in kept_options:
        score = ev.close_score(kept, players)
        nxt, points = _one_draw(ev, kept, unseen, players, memo)
        within = sum(_closes_within(ev, kept, seq, players, memo) for seq in sequences) / samples
        rows.append(DiscardOdds(d, nxt, within, points, score is not None, score))
    recommended = None
    if len(hand) == 8:
        closing = [r for r in rows if r.close_now]
        if closing:
            best = min(closing, key=lambda r: (r.close_score, str(r.discard)))
        else:
            best = min(rows, key=lambda r: (-(r.close_within_3 + r.close_next), r.expected_points, str(r.discard)))
        recommended = best.discard
    return Advice(tuple(rows), recommended, samples, len(unseen), draws)


_Memo = dict[tuple[Card, ...], tuple[list[Card], int, bool]]


def _best_seven(ev: HandEval, eight: list[Card], players: int, memo: _Memo) -> tuple[list[Card], int, bool]:
    """The seven to keep (fewest loose points; ties: throw the higher card, then the later one),
    their loose points, and whether any seven of the eight closes."""
    key8 = tuple(sorted(eight))
    got = memo.get(key8)
    if got is None:
        got = memo[key8] = _solve_seven(ev, list(key8), players)
    return got


def _solve_seven(ev: HandEval, eight: list[Card], players: int) -> tuple[list[Card], int, bool]:
    closes = False
    best: tuple[int, int, Card] | None = None
    keep: list[Card] = eight[:7]
    value = ev.rules.value
    for e in dict.fromkeys(eight):
        rest = list(eight)
        rest.remove(e)
        if not closes and ev.can_close(rest, players):
            closes = True
        key = (ev.loose(rest), -value(e), e)
        if best is None or key < best:
            best, keep = key, rest
    return keep, best[0] if best else 0, closes


def _one_draw(ev: HandEval, kept: list[Card], unseen: list[Card], players: int, memo: _Memo) -> tuple[float, float]:
    """Exact ``close_next`` and ``expected_points`` over every unseen card."""
    closes = points = 0
    for c in unseen:
        _, loose, can = _best_seven(ev, [*kept, c], players, memo)
        points += loose
        closes += can
    return closes / len(unseen), points / len(unseen)


def _closes_within(ev: HandEval, kept: list[Card], draws: list[Card], players: int, memo: _Memo) -> bool:
    for c in draws:
        kept, _, can = _best_seven(ev, [*kept, c], players, memo)
        if can:
            return True
    return False
