"""Close verdicts (SPEC §4).

>>> from companion.rules import get_rules, parse_cards
>>> v = check_close(parse_cards("11c 11e 11b 5o 6o 7o 3c 12e"), get_rules("classic"))
>>> v.legal, str(v.discard), v.score
(True, '12e', 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from .cards import Card
from .errors import CardError, CountError
from .melds import (
    ID_BITS,
    IndexedHand,
    JokerMelds,
    NumberedMelds,
    PlainHand,
    PlainShown,
    ShownHand,
    Tables,
    joker_melds,
    per_rules,
    sort_cards,
    tables_for,
)
from .validate import check_cards
from .variants import CloseRule, Rules

Hand = IndexedHand | PlainHand
#: What a verdict shows its cards from.
Shown = IndexedHand | PlainHand | PlainShown | ShownHand


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a close is not legal: a message id with parameters, and English text."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return REASON_TEXT[self.code].format(**self.params)


#: English sentences for each reason code; front ends translate by code
#: (the parameters are described in :func:`reason_for`).
REASON_TEXT = {
    "first_round": "Nobody may close before every player has had a turn (first round).",
    "one_card_many": "{count} loose cards worth {points}; these rules allow at most one loose card worth {max} or less.",
    "one_card_high": "The loose card is worth {points}; these rules allow one loose card worth {max} or less.",
    "points_high": "The loose cards are worth {points}; these rules allow at most {max} points.",
}


class CloseOption(NamedTuple):
    """One way to close: which card goes face down and how the rest is shown.

    Options compare as tuples, and the leading fields are the one ranking,
    best first: legal before not legal; then winning the match; then the
    fewest ``points`` (the score of a legal close, the loose points
    otherwise); then the fewest loose cards; then the fewest melds (the
    longest ones, as a player lays them out); then the lowest meld bits, so
    that the order is total and repeatable.  ``melds``, ``discard`` and
    ``deadwood`` are bits of the hand (see :class:`IndexedHand`,
    :class:`PlainHand`).
    """

    illegal: bool
    loses_match: bool
    points: int
    loose: int
    meld_count: int
    melds: tuple[int, ...]
    discard: int  # the discarded card's bit, 0 with seven cards
    deadwood: int
    dead_points: int
    score: int | None  # None when not legal
    chinchon: bool

    @property
    def legal(self) -> bool:
        return not self.illegal

    @property
    def wins_match(self) -> bool:
        return not self.loses_match

    @property
    def key(self) -> tuple[bool, bool, int]:
        """What the closer cares about: two options with the same key are equally good."""
        return (self.illegal, self.loses_match, self.points)


#: The fields of a :class:`CloseOption` as a plain tuple (see :func:`_option_rows`).
OptionRow = tuple[bool, bool, int, int, int, tuple[int, ...], int, int, int, int | None, bool]


class CloseVerdict:
    """The answer to "can I close with this?" with the arrangement shown.

    The decision (``legal``, ``score``, ``chinchon``, ``wins_match``) is made
    when the verdict is built; the cards to show (``discard``, ``melds``,
    ``deadwood``, ``why``) are laid out the first time they are read.
    """

    __slots__ = ("_deadwood", "_first_round", "_hand", "_melds", "_option", "_rules")

    def __init__(self, hand: Shown, option: CloseOption, rules: Rules, first_round: bool) -> None:
        self._hand = hand
        self._option = option
        self._rules = rules
        self._first_round = first_round
        self._melds: tuple[tuple[Card, ...], ...] | None = None
        self._deadwood: tuple[Card, ...] | None = None

    @property
    def legal(self) -> bool:
        return self._option.legal

    @property
    def score(self) -> int | None:
        return self._option.score

    @property
    def chinchon(self) -> bool:
        return self._option.chinchon

    @property
    def wins_match(self) -> bool:
        return self._option.wins_match

    @property
    def dead_points(self) -> int:
        """Points of the loose cards kept (the score unless all are combined)."""
        return self._option.dead_points

    @property
    def discard(self) -> Card | None:
        bit = self._option.discard
        return self._hand.card_of_bit(bit) if bit else None

    @property
    def melds(self) -> tuple[tuple[Card, ...], ...]:
        if self._melds is None:
            self._melds = tuple(self._hand.meld_cards(m) for m in self._option.melds)
        return self._melds

    @property
    def deadwood(self) -> tuple[Card, ...]:
        if self._deadwood is None:
            self._deadwood = sort_cards(self._hand.cards_of(self._option.deadwood))
        return self._deadwood

    @property
    def why(self) -> Reason | None:
        return reason_for(self._option, self._rules, self._first_round)

    @property
    def reason(self) -> str | None:
        why = self.why
        return why.text if why else None

    def __repr__(self) -> str:
        shown = " ".join("-".join(map(str, m)) for m in self.melds)
        return f"<CloseVerdict legal={self.legal} discard={self.discard} melds={shown} deadwood={' '.join(map(str, self.deadwood))} score={self.score}>"


class CloseFacts(NamedTuple):
    """What a close check needs to know about one rules value (see :func:`close_facts`)."""

    #: The solver's tables (:func:`tables_for`).
    tables: Tables
    #: ``[n]``: the most loose points a close may keep with ``n`` loose cards
    #: (-1: none), read off :meth:`Rules.can_close` (the one home of the rule).
    loose_limit: tuple[int, ...]
    #: Whether :func:`best_close` need only try the combinations of melds
    #: that no other meld can join (see :func:`more_melds_never_hurt`).
    maximal_only: bool
    #: An all-combined close without wild cards: its score, and for a
    #: genuine Chinchón (one meld of all seven) its score and whether it
    #: does not win the match (see :func:`_full_close_score`).
    combined_score: int
    chinchon_score: int
    chinchon_loses: bool
    #: The deck's melds without wilds, numbered (for :func:`_plain_eight_row`).
    numbered: NumberedMelds
    #: ``[j]``: the melds of hands of distinct real cards, none wild, and
    #: ``j`` jokers (for :func:`_joker_eight_row`), for ``j`` from 1 to
    #: :data:`NUMBERED_JOKERS` and the rules' jokers; filled as hands come.
    with_jokers: list[JokerMelds | None]


@per_rules
def close_facts(rules: Rules) -> CloseFacts:
    """:class:`CloseFacts` for these rules, computed once."""
    most = max(rules.card_values.values())
    limits = tuple(_loose_limit(rules, n, n * most) for n in range(9))
    tables = tables_for(rules)
    return CloseFacts(
        tables,
        limits,
        more_melds_never_hurt(rules),
        _full_close_score(rules, False, None),
        _full_close_score(rules, True, 0),
        not rules.chinchon_wins_match,
        NumberedMelds(tables.ctx, tables.plain_meld_value),
        [None] * (min(rules.jokers, NUMBERED_JOKERS) + 1),
    )


#: The most jokers a hand may hold for :func:`_joker_eight_row` (more are rare,
#: and their tables large).
NUMBERED_JOKERS = 2


def _loose_limit(rules: Rules, count: int, high: int) -> int:
    """The most loose points (from 0 to ``high``) that ``count`` loose cards
    may have in a legal close; -1 if none.  Binary search: a rule that allows
    some points allows fewer."""
    if not rules.can_close(count, 0):
        return -1
    if rules.can_close(count, high):
        return high
    low = 0  # allowed; high is not
    while high - low > 1:
        middle = (low + high) // 2
        if rules.can_close(count, middle):
            low = middle
        else:
            high = middle
    return low


def more_melds_never_hurt(rules: Rules) -> bool:
    """Whether adding a meld to a way of closing always makes it better, so
    that :func:`best_close` need only try the combinations that no meld can
    join (:func:`maximal_combos`).

    A meld takes at least one real card, worth a point or more, off the loose
    cards, and the card going face down is still the highest left (when the
    player has not named it): the loose points never rise and the loose cards
    fall, so the close stays legal and its score falls, unless the rules pay
    a positive score for an all-combined close (a house rule), which could
    then rank below a close with loose cards.  Nor with jokers when a meld
    needs three real cards (a house rule): the combinations no meld can join
    then miss some of the best ways to close (7♠ 5♠ A♠ A♦ C♠ A♣ and two
    jokers close for 2 points; ``tests/rules/test_properties.py``).
    """
    if rules.jokers and rules.min_real_cards >= 3:
        return False
    bonuses = [rules.all_combined_bonus, *(rules.joker_run_bonus or ())]
    if isinstance(rules.chinchon, int):
        bonuses.append(rules.chinchon)
    return max(bonuses) <= 0


def _option_rows(
    hand: Hand,
    rules: Rules,
    first_round: bool,
    discard: Card | None,
    covers: list[tuple[tuple[int, ...], int, int]],
    loose_limit: tuple[int, ...],
) -> list[OptionRow]:
    """The ways to close with the given combinations of melds (``covers``, see
    :func:`disjoint_combos`), as tuples of :class:`CloseOption` fields: plain
    tuples, one per combination, of which only the chosen become records.
    ``loose_limit`` is :attr:`CloseFacts.loose_limit`."""
    blocked = first_round and not rules.first_round_close
    eight = hand.n == 8
    discard_bits = hand.card_bits(discard) if discard is not None else 0
    high_first = hand.high_first
    values = hand.values
    total = hand.total
    full = hand.full
    rows: list[OptionRow] = []
    for combo, covered, taken in covers:
        left = full ^ covered
        if eight:
            pool = left & discard_bits if discard_bits else left
            if not pool:
                continue
            i = pool.bit_length() - 1 if high_first else (pool & -pool).bit_length() - 1
            d = 1 << i
            dead = left ^ d
            dead_points = total - taken - values[i]
        else:
            d = 0
            dead = left
            dead_points = total - taken
        count = dead.bit_count()
        if blocked or dead_points > loose_limit[count]:
            rows.append((True, True, dead_points, count, len(combo), combo, d, dead, dead_points, None, False))
        elif dead:
            rows.append((False, True, dead_points, count, len(combo), combo, d, dead, dead_points, dead_points, False))
        else:
            wilds = hand.melds[combo[0]] if len(combo) == 1 and combo[0].bit_count() == 7 else None
            chinchon = wilds == 0
            score = _full_close_score(rules, chinchon, wilds)
            loses = not (chinchon and rules.chinchon_wins_match)
            rows.append((False, loses, score, 0, len(combo), combo, d, dead, dead_points, score, chinchon))
    return rows


def ranked_closes(
    hand: IndexedHand, rules: Rules, first_round: bool = False, discard: Card | None = None
) -> list[CloseOption]:
    """Every way to close this hand (8 cards with a discard, or 7 kept), best first."""
    rows = _option_rows(hand, rules, first_round, discard, hand.covers(), close_facts(rules).loose_limit)
    return [CloseOption._make(row) for row in sorted(rows)]


def best_close(hand: Hand, rules: Rules, first_round: bool = False, discard: Card | None = None) -> CloseOption:
    """The best way to close (see :class:`CloseOption` for the order): legal,
    winning the match, lowest score; when nothing is legal, the fewest loose
    points."""
    return _best_close(hand, rules, first_round, discard, close_facts(rules))


def _best_close(hand: Hand, rules: Rules, first_round: bool, discard: Card | None, facts: CloseFacts) -> CloseOption:
    if discard is None and facts.maximal_only:
        if isinstance(hand, IndexedHand):
            return _new_option(_indexed_row(hand, rules, facts, first_round and not rules.first_round_close))
        if hand.full.bit_count() == 8:
            return _new_option(
                _plain_eight_row(
                    hand.full, hand.by_suit, hand.total, facts, first_round and not rules.first_round_close
                )
            )
        covers = hand.maximal_covers()
    else:
        # With a named discard, a combination no meld can join may hold that card.
        covers = hand.covers()
    return _new_option(min(_option_rows(hand, rules, first_round, discard, covers, facts.loose_limit)))


#: ``CloseOption._make`` without its length check (rows always have every field).
_new_option = partial(tuple.__new__, CloseOption)


def _plain_eight_row(held: int, by_suit: int, total: int, facts: CloseFacts, blocked: bool) -> OptionRow:
    """``min(_option_rows(...))`` over :func:`maximal_combos` (so only when
    ``facts.maximal_only``) for eight distinct real cards, none wild
    (``held`` and ``by_suit`` as for :meth:`MeldContext.plain_melds`, worth
    ``total`` points), with no discard named: the same row, tie-breaks
    included, with no row built but the winner's.  ``blocked``: a
    first-round close the rules forbid.

    The melds come as a bitmask of their numbers (:class:`NumberedMelds`),
    walked lowest first, which is increasing meld order.  The combinations
    are those of :func:`maximal_combos`: every disjoint pair of melds, every
    meld in no such pair, and the empty one when there is no meld; each is
    ranked as it comes by the leading fields of its row (illegal,
    loses_match, points, loose, meld_count, melds), which decide ``min`` over
    the rows since no two combinations have the same melds.
    """
    numbered = facts.numbered
    found = numbered.of_hand(held, by_suit)
    values = facts.tables.value_of_id
    limit = facts.loose_limit
    # The card face down is the highest left: values never fall as ids rise.
    if not found:
        top = held.bit_length() - 1
        dead_points = total - values[top]
        discard = 1 << top
        illegal = blocked or dead_points > limit[7]
        return (
            illegal,
            True,
            dead_points,
            7,
            0,
            (),
            discard,
            held ^ discard,
            dead_points,
            None if illegal else dead_points,
            False,
        )
    alone = numbered.alone
    disjoint = numbered.disjoint
    larger = numbered.larger
    key: tuple[bool, bool, int, int, int, tuple[int, ...]]
    best: tuple[bool, bool, int, int, int, tuple[int, ...]] | None = None
    best_at = (0, 0)
    rest = found
    while rest:
        low = rest & -rest
        rest ^= low  # rest: the melds above this one
        i = low.bit_length() - 1
        partners = disjoint[i] & found
        if not partners:  # a meld no other can join
            if larger[i] & found:
                continue  # a larger one in the hand does better (see NumberedMelds.larger)
            combo, covered, taken, left_count = alone[i]
            if not left_count:
                continue  # all eight in one meld: nothing to put face down
            left = held ^ covered
            dead_points = total - taken - values[left.bit_length() - 1]
            count = left_count - 1  # the cards left, but the one face down
            if blocked or dead_points > limit[count]:
                key = (True, True, dead_points, count, 1, combo)
            elif count:
                key = (False, True, dead_points, count, 1, combo)
            else:  # one meld of all seven kept: a genuine Chinchón
                key = (False, facts.chinchon_loses, facts.chinchon_score, 0, 1, combo)
            if best is None or key < best:
                best = key
                best_at = left, dead_points
            continue
        partners &= rest  # those below paired with it already
        (m,), _, points, _ = alone[i]
        while partners:
            bit = partners & -partners
            partners ^= bit
            (n,), covered, points2, _ = alone[bit.bit_length() - 1]
            covered |= m
            count = 7 - covered.bit_count()  # the cards left, but the one face down
            if count < 0:
                continue  # all eight in melds: nothing to put face down
            left = held ^ covered
            dead_points = total - points - points2 - values[left.bit_length() - 1]
            if blocked or dead_points > limit[count]:
                key = (True, True, dead_points, count, 2, (m, n))
            elif count:
                key = (False, True, dead_points, count, 2, (m, n))
            else:
                key = (False, True, facts.combined_score, 0, 2, (m, n))
            if best is None or key < best:
                best = key
                best_at = left, dead_points
    assert best is not None, "eight cards in a maximal combination always leave one to put face down"
    illegal, loses, points, count, meld_count, chosen = best
    left, dead_points = best_at
    discard = 1 << left.bit_length() - 1
    score = None if illegal else points
    chinchon = not illegal and not count and meld_count == 1
    return (illegal, loses, points, count, meld_count, chosen, discard, left ^ discard, dead_points, score, chinchon)


def _joker_eight_row(
    reals: int, by_suit: int, order: int, total: int, melds: JokerMelds, facts: CloseFacts, rules: Rules, blocked: bool
) -> OptionRow:
    """``min(_option_rows(...))`` over :func:`maximal_combos` (so only when
    ``facts.maximal_only``) for eight cards, distinct real ones (``reals``
    and ``by_suit``, as for :meth:`MeldContext.plain_melds`) none wild, and
    jokers, with no discard named: the row of the :class:`IndexedHand` of
    those cards, tie-breaks included, with no row built but the winner's.
    ``order``: the cards as a mask of the value order (see
    :class:`JokerMelds`); ``total``: their points; ``blocked``: a
    first-round close the rules forbid.

    The melds come as a bitmask of their numbers, walked lowest first, as
    :func:`_plain_eight_row` walks them; numbers and the value order rank
    melds and cards as the IndexedHand's bits do, and the winner's bits are
    translated to those at the end.
    """
    found = melds.of_hand(reals, by_suit)
    masks = melds.masks
    points = melds.values
    # (meld numbers, covered, points they take) of each combination.
    covers: list[tuple[tuple[int, ...], int, int]]
    if not found:
        covers = [((), 0, 0)]
    else:
        covers = []
        disjoint = melds.disjoint
        larger = melds.larger
        rest = found
        while rest:
            low = rest & -rest
            rest ^= low  # rest: the melds above this one
            i = low.bit_length() - 1
            partners = disjoint[i] & found
            if not partners:
                if not larger[i] & found:  # else a larger one in the hand does better
                    covers.append(((i,), masks[i], points[i]))
                continue
            partners &= rest  # those below paired with it already
            m = masks[i]
            p = points[i]
            while partners:
                bit = partners & -partners
                partners ^= bit
                n = bit.bit_length() - 1
                covers.append(((i, n), m | masks[n], p + points[n]))
    values = facts.tables.order_value
    limit = facts.loose_limit
    best: tuple[bool, bool, int, int, int, tuple[int, ...]] | None = None
    best_at = (0, 0, 0)
    for combo, covered, taken in covers:
        left = order ^ covered
        if not left:
            continue  # all eight in melds: nothing to put face down
        discard = left & -left  # the most valuable card left
        dead_points = total - taken - values[discard.bit_length() - 1]
        count = 7 - covered.bit_count()
        if blocked or dead_points > limit[count]:
            key = (True, True, dead_points, count, len(combo), combo)
        elif count:
            key = (False, True, dead_points, count, len(combo), combo)
        elif len(combo) == 1:  # one meld of all seven kept
            wilds = melds.wilds[combo[0]]
            chinchon = wilds == 0
            score = _full_close_score(rules, chinchon, wilds)
            key = (False, not (chinchon and rules.chinchon_wins_match), score, 0, 1, combo)
        else:
            key = (False, True, facts.combined_score, 0, len(combo), combo)
        if best is None or key < best:
            best = key
            best_at = left, discard, dead_points
    assert best is not None, "eight cards in a maximal combination always leave one to put face down"
    illegal, loses, points_, count, meld_count, combo = best
    left, discard, dead_points = best_at
    chinchon = not illegal and not count and meld_count == 1 and not melds.wilds[combo[0]]
    # The hand's bit of each card is its place among the hand's cards in the value order.
    shown = []
    for i in combo:
        mask = masks[i]
        local = 0
        while mask:
            bit = mask & -mask
            mask ^= bit
            local |= 1 << (order & bit - 1).bit_count()
        shown.append(local)
    put_down = 1 << (order & discard - 1).bit_count()
    dead = 255 ^ put_down
    for local in shown:
        dead ^= local
    return (
        illegal,
        loses,
        points_,
        count,
        meld_count,
        tuple(shown),
        put_down,
        dead,
        dead_points,
        None if illegal else points_,
        chinchon,
    )


#: ``[x]`` for a hand bitmask ``x`` of up to eight cards: every mask inside
#: ``x`` as one bit of a 256-bit set, so that a hand's melds that share no card
#: with a meld ``m`` are ``melds & SUBSETS[full ^ m]`` with its melds as such a set.
SUBSETS: list[int] = []
for _x in range(256):
    _inside, _sub = 1, _x  # the empty mask, then every non-empty one from the top
    while _sub:
        _inside |= 1 << _sub
        _sub = (_sub - 1) & _x
    SUBSETS.append(_inside)
del _x, _inside, _sub


def _indexed_row(hand: IndexedHand, rules: Rules, facts: CloseFacts, blocked: bool) -> OptionRow:
    """``min(_option_rows(...))`` over :func:`maximal_combos` (so only when
    ``facts.maximal_only``) for an indexed hand of seven or eight cards with
    no discard named: the same row, tie-breaks included, with no row built
    but the winner's.  ``blocked``: a first-round close the rules forbid.

    The hand's melds are bitmasks under 256, so they are kept as one set of
    256 bits, and the melds sharing no card with one are that set's part
    inside :data:`SUBSETS` of the other cards: every disjoint pair, every meld
    in no such pair, and the empty combination when there is no meld, as
    :func:`maximal_combos` lists them.  For example in ``4o 5o 6o 7o * 11c
    11e 3b`` the melds holding the joker pair with ``4o 5o 6o 7o``'s parts
    only where no card is in both.
    """
    melds = hand.melds
    meld_points = hand.meld_value
    full = hand.full
    found = 0
    for m in melds:
        found |= 1 << m
    # (melds, covered, points they take) of each combination.
    covers: list[tuple[tuple[int, ...], int, int]]
    if not found:
        covers = [((), 0, 0)]
    else:
        covers = []
        rest = found
        while rest:
            low = rest & -rest
            rest ^= low  # rest: the melds above this one
            m = low.bit_length() - 1
            partners = found & SUBSETS[full ^ m]
            if not partners:
                covers.append(((m,), m, meld_points[m]))
                continue
            partners &= rest  # those below paired with it already
            while partners:
                bit = partners & -partners
                partners ^= bit
                n = bit.bit_length() - 1
                covers.append(((m, n), m | n, meld_points[m] + meld_points[n]))
    values = hand.values
    total = hand.total
    limit = facts.loose_limit
    eight = full == 255
    best: tuple[bool, bool, int, int, int, tuple[int, ...]] | None = None
    best_at = (0, 0, 0)
    for combo, covered, taken in covers:
        left = full ^ covered
        if eight:
            if not left:
                continue  # all eight in melds: nothing to put face down
            discard = left & -left  # the most valuable card left (see IndexedHand)
            dead_points = total - taken - values[discard.bit_length() - 1]
            count = 7 - covered.bit_count()
        else:
            discard = 0
            dead_points = total - taken
            count = 7 - covered.bit_count()
        if blocked or dead_points > limit[count]:
            key = (True, True, dead_points, count, len(combo), combo)
        elif count:
            key = (False, True, dead_points, count, len(combo), combo)
        elif len(combo) == 1:  # one meld of all seven kept
            wilds = melds[combo[0]]
            chinchon = wilds == 0
            score = _full_close_score(rules, chinchon, wilds)
            key = (False, not (chinchon and rules.chinchon_wins_match), score, 0, 1, combo)
        else:
            key = (False, True, facts.combined_score, 0, len(combo), combo)
        if best is None or key < best:
            best = key
            best_at = left, discard, dead_points
    assert best is not None, "seven or eight cards in a maximal combination always leave one to put face down"
    illegal, loses, points, count, meld_count, combo = best
    left, discard, dead_points = best_at
    chinchon = not illegal and not count and meld_count == 1 and not melds[combo[0]]
    return (
        illegal,
        loses,
        points,
        count,
        meld_count,
        combo,
        discard,
        left ^ discard,
        dead_points,
        None if illegal else points,
        chinchon,
    )


def _full_close_score(rules: Rules, chinchon: bool, wilds: int | None) -> int:
    if chinchon:
        if isinstance(rules.chinchon, int):
            return rules.chinchon
        return rules.all_combined_bonus
    if wilds and rules.joker_run_bonus and wilds <= len(rules.joker_run_bonus):
        return rules.joker_run_bonus[wilds - 1]
    return rules.all_combined_bonus


def reason_for(option: CloseOption, rules: Rules, first_round: bool) -> Reason | None:
    """Why ``option`` is not a legal close (None when it is).  Every reason
    carries what a front end needs to word it, so none recomputes a rule:
    ``max`` is the rules' limit (``close_max``), ``over`` how many points the
    loose cards are above it, ``too_many`` how many loose cards are beyond the
    one allowed."""
    if option.legal:
        return None
    if first_round and not rules.first_round_close:
        return Reason("first_round")
    count = option.deadwood.bit_count()
    points = option.dead_points
    limit = rules.close_max
    if rules.close_rule == CloseRule.ONE_CARD and count > 1:
        return Reason("one_card_many", {"count": count, "points": points, "max": limit, "too_many": count - 1})
    code = "one_card_high" if rules.close_rule == CloseRule.ONE_CARD else "points_high"
    return Reason(code, {"points": points, "max": limit, "over": points - limit})


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
    facts = close_facts(rules)
    if discard is None and len(cards) == 8 and facts.maximal_only:
        # The common check, eight different real cards and none wild, goes
        # straight to its search (see _index and _best_close for the rest).
        tables = facts.tables
        try:
            code = sum(map(tables.code_of.__getitem__, cards))
        except KeyError:
            code = 0  # a card outside the pack: check_cards says which, below
        held = code & ID_BITS
        if held.bit_count() == 8 and not held & tables.wild_mask:
            by_suit = code >> 64 & ID_BITS
            total = code >> 192
            row = _plain_eight_row(held, by_suit, total, facts, first_round and not rules.first_round_close)
            return CloseVerdict(tables.plain_shown, _new_option(row), rules, first_round)
        # Distinct real cards, none wild, and one or two jokers (the rules'
        # at most): the jokers' bits carry into a count above the real cards.
        joker = tables.ctx.joker
        jokers = held >> joker
        if 0 < jokers < len(facts.with_jokers):
            reals = held ^ jokers << joker
            # Equal cards would carry, leaving fewer bits than cards.
            if reals.bit_count() + jokers == 8 and not reals & tables.wild_mask:
                melds = facts.with_jokers[jokers]
                if melds is None:
                    melds = facts.with_jokers[jokers] = joker_melds(tables, jokers)
                order = code >> 128 & ID_BITS | sum(tables.joker_order_bits[:jokers])
                row = _joker_eight_row(
                    reals,
                    code >> 64 & ID_BITS,
                    order,
                    code >> 192,
                    melds,
                    facts,
                    rules,
                    first_round and not rules.first_round_close,
                )
                return CloseVerdict(ShownHand(cards, rules.card_keys, tables.ctx), _new_option(row), rules, first_round)
    if len(cards) not in (7, 8):
        raise CountError(
            f"A close needs the 8 cards held after drawing, or the 7 kept; got {len(cards)}.", field, count=len(cards)
        )
    if discard is not None:
        if len(cards) == 7:
            raise CountError("Name a discard only with the 8 cards held after drawing.", "discard")
        if discard not in cards:
            raise CardError(f"The discard {discard} is not among the cards.", "discard", token=str(discard))
    hand = _index(cards, rules, facts.tables, players, field)
    return CloseVerdict(hand, _best_close(hand, rules, first_round, discard, facts), rules, first_round)


def make_hand(cards: Sequence[Card], rules: Rules, players: int | None = None, field: str = "cards") -> Hand:
    """Validate the cards and index them: a :class:`PlainHand` when they are
    all different and none is wild, else an :class:`IndexedHand`."""
    return _index(cards, rules, tables_for(rules), players, field)


def _index(cards: Sequence[Card], rules: Rules, tables: Tables, players: int | None, field: str) -> Hand:
    try:
        code = sum(map(tables.code_of.__getitem__, cards))
    except KeyError:
        code = 0  # a card outside the pack: check_cards says which
    held = code & ID_BITS  # see Tables.code_of
    # A sum of powers of two has as many bits as terms only if all differ.
    if held.bit_count() == len(cards) and not held & tables.wild_mask:
        return PlainHand(held, code >> 64 & ID_BITS, code >> 192, tables)
    copies = rules.copies(players)
    if not tables.pack_holds(cards, copies):
        check_cards(cards, rules, copies, field)
    return IndexedHand(cards, rules, tables.ctx)


def possible_closer_scores(rules: Rules) -> frozenset[int]:
    """Every score a legal close can give under these rules (to check points
    typed in by hand): all-combined bonuses, and loose cards the close rule allows."""
    scores = {rules.all_combined_bonus}
    if isinstance(rules.chinchon, int):
        scores.add(rules.chinchon)
    if rules.joker_run_bonus and (rules.jokers or rules.wild_cards):
        scores.update(rules.joker_run_bonus)
    values = [rules.card_values[c] for c in rules.pack.cards() for _ in range(rules.copies())]
    values += [rules.joker_points] * rules.jokers
    if rules.close_rule == CloseRule.ONE_CARD:
        scores.update(v for v in values if v <= rules.close_max)
        return frozenset(scores)
    # Sums of one to seven loose cards up to close_max (a bounded subset sum).
    reach: list[set[int]] = [{0}] + [set() for _ in range(7)]
    for v in values:
        for k in range(7, 0, -1):
            reach[k].update(s + v for s in reach[k - 1] if s + v <= rules.close_max)
    for k in range(1, 8):
        scores.update(reach[k])
    return frozenset(scores)


def chinchon_score(rules: Rules) -> int:
    """What a genuine Chinchón scores the closer under these rules."""
    return _full_close_score(rules, True, 0)


def max_hand_points(rules: Rules) -> int:
    """The most a hand of eight unmatched cards can count (to check typed points)."""
    values = [rules.card_values[c] for c in rules.pack.cards() for _ in range(rules.copies(8))]
    values += [rules.joker_points] * rules.jokers
    return sum(sorted(values)[-8:])


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """One card to put face down, and the best close it leaves."""

    discard: Card
    verdict: CloseVerdict


def legal_discards(
    cards: Sequence[Card], rules: Rules, first_round: bool = False, *, players: int | None = None
) -> list[DiscardChoice]:
    """Every discard of an 8-card hand that allows a legal close, best first."""
    if len(cards) != 8:
        return []
    hand = make_hand(cards, rules, players)
    out = []
    for discard in dict.fromkeys(cards):
        option = best_close(hand, rules, first_round, discard)
        if option.legal:
            out.append(DiscardChoice(discard, CloseVerdict(hand, option, rules, first_round)))
    out.sort(key=lambda d: (not d.verdict.wins_match, d.verdict.score, str(d.discard)))
    return out


__all__ = [
    "CloseOption",
    "CloseVerdict",
    "DiscardChoice",
    "Reason",
    "best_close",
    "check_close",
    "chinchon_score",
    "legal_discards",
    "make_hand",
    "max_hand_points",
    "possible_closer_scores",
    "ranked_closes",
]
