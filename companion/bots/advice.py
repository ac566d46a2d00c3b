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
  enumerated (each copy counts once).  With the seven cards held before
  drawing, the next draw is this turn's: in the first round (and unless the
  rules let a player close then) it cannot close, so ``close_next`` is 0.
- ``close_within_3``: the chance of being able to close after one of the
  next three own draws (fewer when ``stock`` leaves fewer before the pack
  is rebuilt), the draws being three different unseen cards at random.
  Between draws the seat keeps the seven with the fewest loose points (ties:
  it throws the higher card, then the card later in deck order).  Sampled: ``samples`` random draw sequences
  from ``random.Random(seed)``, the same sequences for every discard.  Only
  this turn's draw can be in the first round (seven cards before drawing):
  it then closes nothing, and the draws after it may.
- ``expected_points``: the points the seat would hold if somebody else
  closed right after its next draw — the average over the next draw ``c``
  (uniform over the unseen cards) of the fewest loose points among the
  sevens kept from ``K + c``.  Lay-offs onto the closer's melds are not
  counted (they depend on the closer's cards).  Exact.
- ``close_now``: ``K`` is a legal close already (never in the first round,
  unless the rules allow it).

``recommended`` is the discard to play: one that closes now, with the best
score, if any; else the highest ``close_within_3 + close_next``, then the
fewest ``expected_points``.  With the seven cards held before drawing, the
answer has one row with ``discard`` None and ``recommended`` None.

:func:`next_draw` gives the exact figures alone, with the closing cards of
each discard (the referee's close checker shows them).  :func:`hint` puts
the figures in the terms of a turn for a seat in digital play, from its
:class:`~companion.bots.view.SeatView` only: before drawing, the stock
against the pile's card; after drawing, each discard.

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
from dataclasses import dataclass, replace

from ..rules import JOKER, Card, Rules
from ..rules.errors import ChinchonError, CountError
from ..rules.validate import check_card_groups
from .hands import HandEval, evaluator
from .players import known_held
from .view import SeatView

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
    #: The distinct unseen cards that, drawn next, let the seat close (deck order).
    outs: tuple[Card, ...] = ()
    #: Unseen copies among ``outs`` (``close_next`` is ``hits / unseen``).
    hits: int = 0


@dataclass(frozen=True, slots=True)
class Advice:
    rows: tuple[DiscardOdds, ...]
    recommended: Card | None
    samples: int
    unseen: int
    draws: int  # own draws counted by close_within_3


def unseen_cards(rules: Rules, hand: Sequence[Card], seen: Sequence[Card], players: int | None) -> list[Card]:
    """Every card of the pack not in ``hand`` or ``seen``, one entry per copy."""
    copies = rules.copies(players)
    pool = Counter({c: copies for c in rules.pack.cards()})
    if rules.jokers:
        pool[JOKER] = rules.jokers
    pool.subtract(Counter(hand))
    pool.subtract(Counter(seen))
    return [c for c, n in pool.items() for _ in range(max(n, 0))]


def _checked(rules: Rules, hand: Sequence[Card], seen: Sequence[Card], players: int | None) -> list[Card]:
    """The unseen cards, after checking the hand and the seen cards (fields named)."""
    if len(hand) not in (7, 8):
        raise CountError(f"Give the 8 cards held after drawing, or the 7 before; got {len(hand)}.", "hand")
    if players is not None and not rules.min_players <= players <= rules.max_players:
        raise ChinchonError(
            f"players must be from {rules.min_players} to {rules.max_players} under these rules.", "players"
        )
    check_card_groups([hand, seen], rules, rules.copies(players), lambda i, j: f"{('hand', 'seen')[i]}[{j}]")
    unseen = unseen_cards(rules, hand, seen, players)
    if not unseen:
        raise ChinchonError("No card is left unseen: nothing can be drawn.", "seen")
    return unseen


def _kept_options(hand: list[Card]) -> list[tuple[Card | None, list[Card]]]:
    if len(hand) == 7:
        return [(None, hand)]
    out: list[tuple[Card | None, list[Card]]] = []
    for d in dict.fromkeys(hand):
        kept = list(hand)
        kept.remove(d)
        out.append((d, kept))
    return out


def _may_close(rules: Rules, first_round: bool) -> bool:
    return not first_round or rules.first_round_close


def next_draw(
    rules: Rules,
    hand: Sequence[Card],
    seen: Sequence[Card] = (),
    *,
    players: int | None = None,
    first_round: bool = False,
) -> list[DiscardOdds]:
    """The exact figures only (``close_next``, ``outs``, ``expected_points``,
    ``close_now``; ``close_within_3`` is left 0): one row per discard of eight
    cards, or one row for seven.  ``players`` None: the rules' own number of
    decks.  ``first_round`` only affects ``close_now`` (the draw after this
    one is never in the first round)."""
    hand, seen = list(hand), list(seen)
    unseen = _checked(rules, hand, seen, players)
    return _exact_rows(evaluator(rules), hand, unseen, players, first_round, {}, draw_now=False)


def _exact_rows(
    ev: HandEval,
    hand: list[Card],
    unseen: list[Card],
    players: int | None,
    first_round: bool,
    memo: _Memo,
    *,
    draw_now: bool,
) -> list[DiscardOdds]:
    """``draw_now``: seven cards are the seven before this turn's draw, which
    the first-round rule may keep from closing (else they are the seven kept
    after this turn's discard, and the next draw is a later turn's)."""
    may = _may_close(ev.rules, first_round)
    rows = []
    for d, kept in _kept_options(hand):
        score = ev.close_score(kept, players) if may else None
        hits, points, outs = _one_draw(ev, kept, unseen, players, memo)
        if d is None and draw_now and not may:
            hits, outs = 0, ()
        rows.append(DiscardOdds(d, hits / len(unseen), 0.0, points, score is not None, score, outs, hits))
    return rows


def advise(
    rules: Rules,
    hand: Sequence[Card],
    seen: Sequence[Card] = (),
    *,
    stock: int | None = None,
    players: int = 2,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    draws: int | None = None,
    first_round: bool = False,
) -> Advice:
    """Odds per discard (see the module's docstring for the exact definitions).

    ``draws`` (1–3) overrides the number of own draws ``close_within_3``
    counts; ``first_round``: this turn is in the first round (eight cards
    cannot close now; seven cannot close with this turn's draw).
    Raises a :class:`ChinchonError` naming the field for bad input (``hand``,
    ``hand[i]``, ``seen[i]``, ``players``, ``stock``, ``samples``, ``draws``).
    """
    hand = list(hand)
    seen = list(seen)
    if len(hand) in (7, 8) and not 1 <= samples <= MAX_SAMPLES:
        raise ChinchonError(f"samples must be from 1 to {MAX_SAMPLES}.", "samples")
    unseen = _checked(rules, hand, seen, players)
    if stock is not None and not 0 <= stock <= len(unseen):
        raise ChinchonError(f"stock must be from 0 to {len(unseen)} (the cards not seen).", "stock")
    if draws is not None and not 1 <= draws <= 3:
        raise ChinchonError("draws must be from 1 to 3.", "draws")
    if draws is None:
        draws = 3 if stock is None else max(1, min(3, -(-stock // players)))
    ev = evaluator(rules)
    memo: _Memo = {}  # the eights met by the exact part come back as first draws of the sequences
    rows = _exact_rows(ev, hand, unseen, players, first_round, memo, draw_now=True)
    blocked = 1 if len(hand) == 7 and not _may_close(rules, first_round) else 0  # this turn's draw closes nothing
    rng = random.Random(seed)
    sequences = [rng.sample(unseen, min(draws, len(unseen))) for _ in range(samples)]
    rows = [
        replace(
            row,
            close_within_3=sum(_closes_within(ev, kept, seq, players, memo, blocked) for seq in sequences) / samples,
        )
        for row, (_d, kept) in zip(rows, _kept_options(hand), strict=True)
    ]
    recommended = _recommend(rows).discard if len(hand) == 8 else None
    return Advice(tuple(rows), recommended, samples, len(unseen), draws)


def _recommend(rows: Sequence[DiscardOdds]) -> DiscardOdds:
    """A close now with the best score; else the best odds, then the fewest points."""
    closing = [r for r in rows if r.close_now]
    if closing:
        return min(closing, key=lambda r: (r.close_score, str(r.discard)))
    return min(rows, key=_rank)


_Memo = dict[tuple[Card, ...], tuple[list[Card], int, bool]]


def _best_seven(ev: HandEval, eight: list[Card], players: int | None, memo: _Memo) -> tuple[list[Card], int, bool]:
    """The seven to keep (fewest loose points; ties: throw the higher card, then the later one),
    their loose points, and whether any seven of the eight closes."""
    key8 = tuple(sorted(eight))
    got = memo.get(key8)
    if got is None:
        got = memo[key8] = _solve_seven(ev, list(key8), players)
    return got


def _solve_seven(ev: HandEval, eight: list[Card], players: int | None) -> tuple[list[Card], int, bool]:
    value = ev.rules.value
    if ev.is_plain(eight):  # one deck, no wild cards: bitmasks, and the close question in one call
        mask = ev.mask(eight)
        closes = ev.eight_mask(mask)[1]
        best = min((ev.points_of_mask(mask ^ ev.bit[c]), -value(c), c) for c in eight)
        keep = list(eight)
        keep.remove(best[2])
        return keep, best[0], closes
    seven, points, closes, _ = ev.solve_eight(eight, players)  # the engine, skipping discards that cannot matter
    return list(seven), points, closes


def _one_draw(
    ev: HandEval, kept: list[Card], unseen: list[Card], players: int | None, memo: _Memo
) -> tuple[int, float, tuple[Card, ...]]:
    """Exact over every unseen card: the copies that let the seat close, the
    average loose points held after the draw, and the distinct closing cards."""
    hits = points = 0
    outs: dict[Card, None] = {}
    for c in unseen:
        _, loose, can = _best_seven(ev, [*kept, c], players, memo)
        points += loose
        if can:
            hits += 1
            outs[c] = None
    order = ev.rules.card_keys.get
    return hits, points / len(unseen), tuple(sorted(outs, key=lambda c: order(c, 0)))


def _closes_within(
    ev: HandEval, kept: list[Card], draws: list[Card], players: int, memo: _Memo, blocked: int = 0
) -> bool:
    """Whether one of ``draws`` lets the seat close; the first ``blocked``
    draws (in the first round) cannot."""
    for i, c in enumerate(draws):
        kept, _, can = _best_seven(ev, [*kept, c], players, memo)
        if can and i >= blocked:
            return True
    return False


# -- a hint for the seat to move (digital play) -------------------------------------------
HINT_SAMPLES = 200


@dataclass(frozen=True, slots=True)
class HintRow:
    """One move the seat could make, with its odds.

    ``move``: ``"stock"`` (draw from the stock), ``"take"`` (take ``card``
    from the pile, then throw ``then``), ``"discard"`` or ``"close"`` (put
    ``card`` down).  Before drawing, ``close_next`` is the chance to close
    *this* turn; after drawing, after the next draw.  ``close_within_3``
    counts this turn's draw and the next two before drawing, the next three
    after.  ``expected_points``: the loose points held at the end of this
    turn (before drawing) or after the next draw (after drawing), should
    somebody else close then."""

    move: str
    card: Card | None
    then: Card | None
    close_next: float
    close_within_3: float
    expected_points: float
    score: int | None = None  # a close's score


@dataclass(frozen=True, slots=True)
class Hint:
    phase: str  # "draw" or "discard"
    rows: tuple[HintRow, ...]  # the recommended move first
    samples: int
    unseen: int


def seen_by_seat(view: SeatView) -> list[Card]:
    """The cards a seat knows cannot come from the stock: the pile, and the
    cards opponents took from it and have not thrown since."""
    return [*view.pile, *known_held(view)]


def hint(view: SeatView, *, samples: int = HINT_SAMPLES, seed: int = 0) -> Hint:
    """The odds of each move for the seat to move, from its view only."""
    rules, players = view.rules, view.players
    seen = seen_by_seat(view)

    def ask(hand: Sequence[Card], seen: Sequence[Card], draws: int | None = None) -> Advice:
        # the seat's own stock, players, turn and seed
        return advise(
            rules,
            hand,
            seen,
            stock=view.stock_size,
            players=players,
            samples=samples,
            seed=seed,
            draws=draws,
            first_round=view.first_round,
        )

    if view.drawn:
        advice = ask(view.hand, seen)
        best = _recommend(advice.rows)
        rows = sorted(advice.rows, key=lambda r: (r is not best, not r.close_now, _rank(r)))
        return Hint(
            "discard",
            tuple(
                HintRow(
                    "close" if r.close_now else "discard",
                    r.discard,
                    None,
                    r.close_next,
                    r.close_within_3,
                    r.expected_points,
                    r.close_score,
                )
                for r in rows
            ),
            samples,
            advice.unseen,
        )
    stock = ask(view.hand, seen)
    s = stock.rows[0]
    options = [HintRow("stock", None, None, s.close_next, s.close_within_3, s.expected_points)]
    if view.top is not None:
        rest = list(seen)
        rest.remove(view.top)
        eight = [*view.hand, view.top]
        later = stock.draws - 1  # the pile's card is this turn's draw
        if later:
            take_rows = ask(eight, rest, draws=later).rows
        else:
            take_rows = tuple(next_draw(rules, eight, rest, players=players, first_round=view.first_round))
        best = _recommend([r for r in take_rows if r.discard != view.top])
        ev = evaluator(rules)
        kept = list(eight)
        assert best.discard is not None, "every row of eight cards names its discard"
        kept.remove(best.discard)
        within = 1.0 if best.close_now else best.close_within_3 if later else 0.0
        options.append(
            HintRow(
                "take",
                view.top,
                best.discard,
                1.0 if best.close_now else 0.0,
                within,
                float(ev.loose(kept)),
                best.close_score if best.close_now else None,
            )
        )
    options.sort(key=lambda r: (-(r.close_next + r.close_within_3), r.expected_points, r.move))
    return Hint("draw", tuple(options), samples, stock.unseen)


def _rank(row: DiscardOdds) -> tuple:
    return (-(row.close_within_3 + row.close_next), row.expected_points, str(row.discard))
