"""Meld tables and the exact solver (SPEC §3).

Cards are handled as dense integer ids (``Deck.card_id``: position * 4 +
suit, the joker one past the real cards).  A hand of up to eight cards is
indexed locally, highest value first, so that a set of hand cards is a small
bitmask and "the highest card left over" is its lowest set bit.

The solver first lists every valid meld inside the hand (every subset that is
a set or a run under some assignment of its wild cards), then searches the
disjoint combinations of those melds exhaustively.  Nothing is greedy, so
duplicates from two decks, jokers and wild real cards are all exact.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from .cards import Card, Deck
from .variants import Rules

SET = 1
RUN = 2


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A way to lay down a hand: melds plus the cards left over (deadwood)."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    points: int


class MeldContext:
    """Everything about meld validity that depends on the rules, precomputed.

    One context serves every rules object with the same deck, wild cards,
    ``min_real_cards`` and ``max_wilds_per_meld``; get it with
    :func:`meld_context`.
    """

    def __init__(self, deck: Deck, wild_ids: frozenset[int], min_real: int, max_wilds: int | None) -> None:
        self.deck = deck
        self.joker = deck.joker_id
        self.wild_ids = wild_ids | {deck.joker_id}
        self.min_real = max(1, min_real)
        self.max_wilds = 8 if max_wilds is None else max_wilds
        self.nranks = len(deck.ranks)
        self.meld_info = lru_cache(maxsize=1 << 16)(self._meld_info)

    # -- validity of one group --------------------------------------------
    def _meld_info(self, ids: tuple[int, ...]) -> tuple[int, int] | None:
        """``(kinds, fewest wilds)`` if the sorted ids form a meld, else None.

        ``kinds`` is a bit set of SET and RUN (both are possible only with
        ``min_real_cards`` 1); ``fewest wilds`` counts the cards that must act
        as wild under the best assignment (0 means genuine).
        """
        n = len(ids)
        if n < 3:
            return None
        jokers = ids.count(self.joker)
        reals = [c for c in ids if c != self.joker]
        wild_reals = [i for i, c in enumerate(reals) if c in self.wild_ids]
        kinds = 0
        fewest = 99
        for k in range(len(wild_reals) + 1):
            for acting in combinations(wild_reals, k):
                wilds = jokers + k
                if wilds > self.max_wilds:
                    continue
                natural = [c for i, c in enumerate(reals) if i not in acting]
                if len(natural) < self.min_real:
                    continue
                kind = self._natural_kind(natural, wilds, n)
                if kind:
                    kinds |= kind
                    fewest = min(fewest, wilds)
        return (kinds, fewest) if kinds else None

    def _natural_kind(self, natural: list[int], wilds: int, n: int) -> int:
        kind = 0
        first = natural[0]
        if n <= 4 and all(c >> 2 == first >> 2 for c in natural) and len({c & 3 for c in natural}) == len(natural):
            kind |= SET
        if n <= self.nranks and all(c & 3 == first & 3 for c in natural):
            positions = sorted(c >> 2 for c in natural)
            if len(set(positions)) == len(positions) and positions[-1] - positions[0] + 1 - len(positions) <= wilds:
                kind |= RUN
        return kind

    def is_meld(self, ids: Sequence[int]) -> bool:
        return self.meld_info(tuple(sorted(ids))) is not None

    # -- every meld inside a hand ------------------------------------------
    def candidates(self, ids: Sequence[int]) -> dict[int, int]:
        """Every valid meld among the hand's cards: ``{hand bitmask: fewest wilds}``."""
        wild_idx = [i for i, c in enumerate(ids) if c in self.wild_ids]
        found: dict[int, int] = {}
        if not wild_idx:
            self._plain_candidates(ids, found)
            return found
        by_rank: dict[int, list[int]] = {}
        by_suit: dict[int, list[int]] = {}
        for i, c in enumerate(ids):
            if c != self.joker:
                by_rank.setdefault(c >> 2, []).append(i)
                by_suit.setdefault(c & 3, []).append(i)
        for group in by_rank.values():
            for core in _distinct_subsets(group, ids, self.min_real, 4):
                self._add_with_wilds(core, 0, SET, ids, wild_idx, found)
        for group in by_suit.values():
            group.sort(key=lambda i: ids[i])
            for core, gaps in _run_cores(group, ids, len(wild_idx), self.min_real):
                self._add_with_wilds(core, gaps, RUN, ids, wild_idx, found)
        return found

    def _add_with_wilds(self, core: list[int], gaps: int, kind: int, ids: Sequence[int], wild_idx: list[int], found: dict[int, int]) -> None:
        size = len(core)
        if size < self.min_real:
            return
        top = 4 if kind == SET else self.nranks
        free = [w for w in wild_idx if w not in core]
        low = max(gaps, 3 - size, 0)
        high = min(top - size, len(free), self.max_wilds)
        core_mask = 0
        for i in core:
            core_mask |= 1 << i
        for k in range(low, high + 1):
            for extra in combinations(free, k):
                mask = core_mask
                for w in extra:
                    mask |= 1 << w
                # Ties between different assignments keep the fewest wilds;
                # a wild real card standing for itself counts as natural.
                if k < found.get(mask, 99):
                    found[mask] = k

    def _plain_candidates(self, ids: Sequence[int], found: dict[int, int]) -> None:
        """Melds of a hand without wild cards: sets of 3-4 and contiguous runs."""
        by_rank: dict[int, list[int]] = {}
        by_suit: dict[int, list[int]] = {}
        for i, c in enumerate(ids):
            by_rank.setdefault(c >> 2, []).append(i)
            by_suit.setdefault(c & 3, []).append(i)
        for group in by_rank.values():
            if len(group) >= 3:
                for core in _distinct_subsets(group, ids, 3, 4):
                    found[_mask(core)] = 0
        for group in by_suit.values():
            if len(group) >= 3:
                group.sort(key=lambda i: ids[i])
                for core, _ in _run_cores(group, ids, 0, 3):
                    found[_mask(core)] = 0

    # -- combinations ------------------------------------------------------
    def combos(self, candidates: dict[int, int]) -> list[tuple[int, ...]]:
        """Every set of pairwise disjoint candidate melds (the empty set first)."""
        masks = sorted(candidates)
        out: list[tuple[int, ...]] = [()]

        def extend(start: int, used: int, chosen: tuple[int, ...]) -> None:
            for j in range(start, len(masks)):
                m = masks[j]
                if not m & used:
                    picked = (*chosen, m)
                    out.append(picked)
                    extend(j + 1, used | m, picked)

        extend(0, 0, ())
        return out


def _mask(indices: Sequence[int]) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def _distinct_subsets(group: list[int], ids: Sequence[int], low: int, high: int) -> Iterator[list[int]]:
    """Subsets of one rank's cards, ``low`` to ``high`` of them, with pairwise
    different suits (the natural core of a set)."""
    for size in range(low, min(high, len(group)) + 1):
        for core in combinations(group, size):
            if len({ids[i] & 3 for i in core}) == size:
                yield list(core)


def _run_cores(group: list[int], ids: Sequence[int], wilds: int, low: int) -> Iterator[tuple[list[int], int]]:
    """Subsets of one suit's cards (sorted by position), at least ``low`` of
    them, with distinct positions whose gaps the available wilds can fill:
    ``(core, gaps)``.  Both copies of a duplicate start runs of their own,
    since the other copy may be busy in a set."""
    n = len(group)

    def grow(start: int, core: list[int], last_pos: int, gaps: int) -> Iterator[tuple[list[int], int]]:
        for j in range(start, n):
            pos = ids[group[j]] >> 2
            if pos == last_pos:
                continue  # a duplicate cannot sit twice in one run
            new_gaps = gaps + pos - last_pos - 1
            if new_gaps > wilds:
                break
            picked = [*core, group[j]]
            if len(picked) >= low:
                yield picked, new_gaps
            yield from grow(j + 1, picked, pos, new_gaps)

    for i in range(n):
        if low <= 1:
            yield [group[i]], 0
        yield from grow(i + 1, [group[i]], ids[group[i]] >> 2, 0)


@lru_cache(maxsize=64)
def _context(deck: Deck, wild_ids: frozenset[int], min_real: int, max_wilds: int | None) -> MeldContext:
    return MeldContext(deck, wild_ids, min_real, max_wilds)


def meld_context(rules: Rules) -> MeldContext:
    """The shared meld tables for these rules (cached)."""
    deck = rules.pack
    wild_ids = frozenset(deck.card_id(c) for c in rules.wild_cards)
    return _context(deck, wild_ids, rules.min_real_cards, rules.max_wilds_per_meld)


BITS: list[tuple[int, ...]] = [tuple(i for i in range(8) if m >> i & 1) for m in range(256)]


class IndexedHand:
    """A hand of up to eight cards, indexed highest value first.

    ``melds`` maps each valid meld (a bitmask over the hand) to the fewest
    wild cards it needs; ``meld_value`` to the points it takes off the hand.
    """

    __slots__ = ("cards", "ids", "values", "total", "full", "melds", "meld_value", "ctx")

    def __init__(self, cards: Sequence[Card], rules: Rules, ctx: MeldContext | None = None) -> None:
        ctx = ctx or meld_context(rules)
        deck = ctx.deck
        value = rules.value
        keyed = sorted(((-value(c), deck.card_id(c), c) for c in cards))
        self.ctx = ctx
        self.cards = tuple(k[2] for k in keyed)
        self.ids = tuple(k[1] for k in keyed)
        self.values = tuple(-k[0] for k in keyed)
        self.total = sum(self.values)
        self.full = (1 << len(keyed)) - 1
        self.melds = ctx.candidates(self.ids)
        vals = self.values
        self.meld_value = {m: sum(vals[i] for i in BITS[m]) for m in self.melds}

    def points_of(self, mask: int) -> int:
        vals = self.values
        return sum(vals[i] for i in BITS[mask])

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        cards = self.cards
        return tuple(cards[i] for i in BITS[mask])

    def ids_of(self, mask: int) -> tuple[int, ...]:
        ids = self.ids
        return tuple(sorted(ids[i] for i in BITS[mask]))

    def combos(self) -> list[tuple[int, ...]]:
        return self.ctx.combos(self.melds)

    def meld_cards(self, mask: int) -> tuple[Card, ...]:
        """A meld's cards in reading order (see :func:`display_order`)."""
        return display_order(self.cards_of(mask), self.ctx)


def display_order(cards: Sequence[Card], ctx: MeldContext) -> tuple[Card, ...]:
    """Cards of a meld as a player lays them out: runs low to high with each
    wild in the gap it fills (spare wilds at the high end, or the low end when
    the run already reaches the top), sets by suit with wilds last."""
    deck = ctx.deck
    ids = sorted(deck.card_id(c) for c in cards)
    info = ctx.meld_info(tuple(ids))
    if info is None or not info[0] & RUN or info[0] & SET and len({i & 3 for i in ids if i != ctx.joker}) > 1:
        naturals = [deck.card_of(i) for i in ids if i not in ctx.wild_ids]
        wilds = [deck.card_of(i) for i in ids if i in ctx.wild_ids]
        return (*naturals, *wilds)
    # A run: choose which wild real cards stand for themselves, then place wilds.
    wilds_needed = info[1]
    for naturals, wilds in _run_splits(ids, ctx, wilds_needed):
        positions = [i >> 2 for i in naturals]
        lo, hi = positions[0], positions[-1]
        spare = len(wilds) - (hi - lo + 1 - len(naturals))
        top_room = ctx.nranks - 1 - hi
        hi += min(spare, top_room)
        lo -= spare - min(spare, top_room)
        by_pos = {i >> 2: deck.card_of(i) for i in naturals}
        pool = [deck.card_of(i) for i in wilds]
        return tuple(by_pos[p] if p in by_pos else pool.pop() for p in range(lo, hi + 1))
    return tuple(deck.card_of(i) for i in ids)


def _run_splits(ids: list[int], ctx: MeldContext, wilds_needed: int) -> Iterator[tuple[list[int], list[int]]]:
    jokers = [i for i in ids if i == ctx.joker]
    reals = [i for i in ids if i != ctx.joker]
    wild_reals = [k for k, i in enumerate(reals) if i in ctx.wild_ids]
    for k in range(len(wild_reals) + 1):
        for acting in combinations(wild_reals, k):
            if len(jokers) + k != wilds_needed:
                continue
            naturals = [i for n, i in enumerate(reals) if n not in acting]
            if len({i & 3 for i in naturals}) != 1 or len({i >> 2 for i in naturals}) != len(naturals):
                continue
            positions = sorted(i >> 2 for i in naturals)
            if positions[-1] - positions[0] + 1 - len(positions) <= wilds_needed:
                yield sorted(naturals), jokers + [reals[a] for a in acting]


def best_melds(cards: Sequence[Card], rules: Rules, *, copies: int | None = None, field: str = "cards") -> Arrangement:
    """The arrangement of 1–8 cards with the fewest unmatched points.

    >>> from companion.rules import get_rules, parse_cards
    >>> best_melds(parse_cards("5b 5c 5e 4o 12o 2c 1c"), get_rules("classic")).points
    17
    """
    from .errors import CountError
    from .validate import check_cards

    if not 1 <= len(cards) <= 8:
        raise CountError(f"Give from 1 to 8 cards; got {len(cards)}.", field, count=len(cards))
    check_cards(cards, rules, rules.copies() if copies is None else copies, field)
    hand = IndexedHand(cards, rules)
    combo = best_combo(hand)
    covered = 0
    for m in combo:
        covered |= m
    dead = hand.full ^ covered
    return Arrangement(
        melds=tuple(hand.meld_cards(m) for m in combo),
        deadwood=sort_cards(hand.cards_of(dead), ctx=hand.ctx),
        points=hand.points_of(dead),
    )


def best_combo(hand: IndexedHand) -> tuple[int, ...]:
    """The melds covering the most points; ties: fewest loose cards, fewest melds."""
    meld_value = hand.meld_value

    def key(combo: tuple[int, ...]) -> tuple[int, int, int, tuple[int, ...]]:
        covered = 0
        for m in combo:
            covered |= m
        return (-sum(meld_value[m] for m in combo), -covered.bit_count(), len(combo), combo)

    return min(hand.combos(), key=key)


def sort_cards(cards: Sequence[Card], ctx: MeldContext) -> tuple[Card, ...]:
    """Cards in deck order (rank, then suit; jokers last)."""
    return tuple(sorted(cards, key=ctx.deck.card_id))
