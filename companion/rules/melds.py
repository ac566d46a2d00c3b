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

from .cards import JOKER, Card, Deck
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
        self.by_id = [deck.card_of(i) for i in range(deck.size + 1)]
        #: Card → its bit in a hand bitmask of engine ids.
        self.bit_of = {card: 1 << i for i, card in enumerate(self.by_id)}
        self.wild_mask = sum(1 << i for i in self.wild_ids)
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
        found: dict[int, int] = {}
        if self.wild_ids.isdisjoint(ids):
            self._plain_candidates(ids, found)
            return found
        wild_idx = [i for i, c in enumerate(ids) if c in self.wild_ids]
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

    def _add_with_wilds(
        self, core: list[int], gaps: int, kind: int, ids: Sequence[int], wild_idx: list[int], found: dict[int, int]
    ) -> None:
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

    def plain_melds(self, held: int) -> list[int]:
        """Every meld among distinct real cards without wilds, as bitmasks of
        engine ids (``held`` is the hand's bitmask).

        With ids ``position * 4 + suit``, a run of three starts at every id
        ``a`` with ``a``, ``a + 4`` and ``a + 8`` all held; a set needs three
        bits in one rank's nibble.  Most hands have neither and return at once.
        """
        starts = held & (held >> 4) & (held >> 8)
        pairs = (held & _M1) + ((held >> 1) & _M1)
        threes = ((pairs & _M2) + ((pairs >> 2) & _M2) + _M3) & _M4
        if not starts and not threes:
            return []
        melds = []
        while threes:
            low = threes & -threes
            threes ^= low
            base = (low.bit_length() - 3) & ~3  # first id of that rank
            melds.extend(sub << base for sub in _SET_SUBSETS[(held >> base) & 15])
        while starts:
            low = starts & -starts
            starts ^= low
            run = low | low << 4 | low << 8
            while True:
                melds.append(run)
                nxt = (run & -run) << (4 * run.bit_count())
                if not held & nxt:
                    break
                run |= nxt
        return melds

    def _plain_candidates(self, ids: Sequence[int], found: dict[int, int]) -> None:
        """Melds of a hand without wilds that may hold two copies of a card:
        the melds of its distinct cards, once for every choice of copies."""
        held = 0
        for c in ids:
            held |= 1 << c
        melds = self.plain_melds(held)
        if not melds:
            return
        where: dict[int, list[int]] = {}
        for i, c in enumerate(ids):
            where.setdefault(c, []).append(i)
        for meld in melds:
            masks = [0]
            while meld:
                low = meld & -meld
                meld ^= low
                spots = where[low.bit_length() - 1]
                masks = [m | 1 << i for m in masks for i in spots]
            for m in masks:
                found[m] = 0

    # -- combinations ------------------------------------------------------
    def combos(self, candidates: dict[int, int]) -> list[tuple[int, ...]]:
        """Every set of pairwise disjoint candidate melds (the empty set first)."""
        if not candidates:
            return [()]
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


_M1 = int("01" * 32, 2)
_M2 = int("0011" * 16, 2)
_M3 = int("0001" * 16, 2)
_M4 = int("0100" * 16, 2)
#: For each nibble of suits held in one rank, the sub-nibbles of 3-4 suits (the sets).
_SET_SUBSETS = [[sub for sub in range(16) if sub & m == sub and sub.bit_count() >= 3] for m in range(16)]


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
    """The shared meld tables for these rules (cached on the rules value)."""
    ctx = rules.cache.get("melds")
    if ctx is None:
        deck = rules.pack
        wild_ids = frozenset(deck.card_id(c) for c in rules.wild_cards)
        ctx = rules.cache["melds"] = _context(deck, wild_ids, rules.min_real_cards, rules.max_wilds_per_meld)
    return ctx


BITS: list[tuple[int, ...]] = [tuple(i for i in range(8) if m >> i & 1) for m in range(256)]


class IndexedHand:
    """A hand of up to eight cards, indexed highest value first.

    ``melds`` maps each valid meld (a bitmask over the hand) to the fewest
    wild cards it needs; ``meld_value`` to the points it takes off the hand.
    """

    __slots__ = ("_cards", "ctx", "full", "ids", "meld_value", "melds", "total", "values")

    def __init__(self, cards: Sequence[Card], rules: Rules, ctx: MeldContext | None = None) -> None:
        ctx = ctx or meld_context(rules)
        keys = rules.card_keys
        keyed = sorted([keys[c] for c in cards])
        self.ctx = ctx
        self.ids = ids = [k & 255 for k in keyed]
        self._cards: tuple[Card, ...] | None = None
        self.values = vals = [-(k >> 8) for k in keyed]
        self.total = sum(vals)
        self.full = (1 << len(keyed)) - 1
        self.melds = melds = ctx.candidates(ids)
        self.meld_value = {m: sum([vals[i] for i in BITS[m]]) for m in melds} if melds else melds

    @property
    def cards(self) -> tuple[Card, ...]:
        if self._cards is None:
            by_id = self.ctx.by_id
            self._cards = tuple([by_id[i] for i in self.ids])
        return self._cards

    @property
    def n(self) -> int:
        return len(self.ids)

    @staticmethod
    def pick(pool: int) -> int:
        """The bit of the highest-valued card in ``pool`` (cards sort by value)."""
        return pool & -pool

    def bit_value(self, bit: int) -> int:
        return self.values[bit.bit_length() - 1]

    def card_of_bit(self, bit: int) -> Card:
        return self.cards[bit.bit_length() - 1]

    def card_bits(self, card: Card) -> int:
        """The bits of every copy of ``card`` in the hand."""
        return sum(1 << i for i, c in enumerate(self.cards) if c == card)

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
        return display_ids(self.ids_of(mask), self.ctx)


class PlainHand:
    """A hand of distinct real cards, none of them wild: one bitmask of engine
    ids, so melds come straight from :meth:`MeldContext.plain_melds` and
    values from byte tables.  Same interface as :class:`IndexedHand`; most
    hands in play are plain, and this is what makes close checks fast.
    """

    __slots__ = ("_bytes", "_card_values", "ctx", "full", "meld_value", "melds", "total")

    def __init__(self, held: int, total: int, rules: Rules, ctx: MeldContext) -> None:
        self.ctx = ctx
        self.full = held
        self.total = total
        self._bytes = tables = rules.cache.get("bytes") or _byte_values(rules)
        self._card_values = rules.card_values
        self.melds = melds = dict.fromkeys(ctx.plain_melds(held), 0)
        self.meld_value = {m: _mask_value(m, tables) for m in melds} if melds else melds

    @property
    def n(self) -> int:
        return self.full.bit_count()

    @staticmethod
    def pick(pool: int) -> int:
        """The bit of the highest-valued card: values never fall as ids rise."""
        return 1 << (pool.bit_length() - 1)

    def bit_value(self, bit: int) -> int:
        return self._card_values[self.ctx.by_id[bit.bit_length() - 1]]

    def card_of_bit(self, bit: int) -> Card:
        return self.ctx.by_id[bit.bit_length() - 1]

    def card_bits(self, card: Card) -> int:
        return self.ctx.bit_of.get(card, 0) & self.full

    def combos(self) -> list[tuple[int, ...]]:
        return self.ctx.combos(self.melds)

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        by_id = self.ctx.by_id
        out = []
        while mask:
            low = mask & -mask
            out.append(by_id[low.bit_length() - 1])
            mask ^= low
        return tuple(out)

    def points_of(self, mask: int) -> int:
        return _mask_value(mask, self._bytes)

    meld_cards = cards_of  # ids ascending read well without wilds


@lru_cache(maxsize=32)
def _byte_table_cached(deck: Deck, values: tuple[tuple[Card, int], ...]) -> tuple[tuple[int, ...], ...]:
    by_id = dict(values)
    ids = [by_id.get(deck.card_of(i), 0) for i in range(deck.size + 1)]
    ids += [0] * (-len(ids) % 8)
    return tuple(
        tuple(sum(ids[8 * k + b] for b in range(8) if byte >> b & 1) for byte in range(256))
        for k in range(len(ids) // 8)
    )


def _byte_values(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Per byte of a hand bitmask, the points of each byte value (cached)."""
    tables = rules.cache.get("bytes")
    if tables is None:
        items = tuple(sorted(rules.card_values.items()))
        tables = rules.cache["bytes"] = _byte_table_cached(rules.pack, items)
    return tables


def _mask_value(mask: int, tables: tuple[tuple[int, ...], ...]) -> int:
    total = 0
    k = 0
    while mask:
        total += tables[k][mask & 255]
        mask >>= 8
        k += 1
    return total


def display_order(cards: Sequence[Card], ctx: MeldContext) -> tuple[Card, ...]:
    """Cards of a meld as a player lays them out: runs low to high with each
    wild in the gap it fills (spare wilds at the high end, or the low end when
    the run already reaches the top), sets by suit with wilds last."""
    return display_ids(sorted(ctx.deck.card_id(c) for c in cards), ctx)


def display_ids(ids: list[int], ctx: MeldContext) -> tuple[Card, ...]:
    """:func:`display_order` for sorted engine ids."""
    by_id = ctx.by_id
    wild_ids = ctx.wild_ids
    if wild_ids.isdisjoint(ids):
        return tuple([by_id[i] for i in ids])  # sorted ids already read well
    info = ctx.meld_info(tuple(ids))
    if info is None or not info[0] & RUN or (info[0] & SET and len({i & 3 for i in ids if i != ctx.joker}) > 1):
        naturals = [by_id[i] for i in ids if i not in wild_ids]
        wilds = [by_id[i] for i in ids if i in wild_ids]
        return (*naturals, *wilds)
    # A run: choose which wild real cards stand for themselves, then place wilds.
    for naturals, wilds in _run_splits(ids, ctx, info[1]):
        positions = [i >> 2 for i in naturals]
        lo, hi = positions[0], positions[-1]
        spare = len(wilds) - (hi - lo + 1 - len(naturals))
        top_room = ctx.nranks - 1 - hi
        hi += min(spare, top_room)
        lo -= spare - min(spare, top_room)
        by_pos = {i >> 2: by_id[i] for i in naturals}
        pool = [by_id[i] for i in wilds]
        return tuple(by_pos[p] if p in by_pos else pool.pop() for p in range(lo, hi + 1))
    return tuple(by_id[i] for i in ids)


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
        deadwood=sort_cards(hand.cards_of(dead)),
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


def sort_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards in deck order (rank, then suit; jokers last)."""
    ordered = sorted(cards)  # cards compare as rank * 4 + suit, the joker 0
    jokers = ordered.count(JOKER)
    return (*ordered[jokers:], *ordered[:jokers])
