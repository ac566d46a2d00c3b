"""Meld tables and the exact solver (SPEC §3).

Cards are handled as dense integer ids (``Deck.card_id``: position * 4 +
suit, the joker one past the real cards), so the four suits of one rank are
one nibble of a bitmask of ids.  A hand of up to eight cards is also indexed
locally, highest value first, so that a group of hand cards is a small
bitmask and "the highest card left over" is its lowest set bit.

Exactness rests on one invariant of the candidate lister,
:meth:`MeldContext.candidates`: it lists **every** subset of the hand that is
a valid meld (a set or a run under some assignment of its wild cards), each
with the fewest cards that must act as wild, and no other subset.  All the
rest is exhaustive: :func:`disjoint_combos` and :meth:`MeldContext.combos`
list every set of pairwise disjoint candidates, and the searches (best melds,
closes, lay-offs) rank them all.  Nothing is greedy, so duplicates from two
decks, jokers and wild real cards are all exact.  ``tests/rules/test_melds.py``
checks the invariant against brute force over every subset of random hands.

What depends only on the rules (meld validity, card values, every meld of the
deck without wilds) is built once per rules value and kept in this module
(:func:`tables_for`); the frozen :class:`Rules` value carries none of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, wraps
from itertools import combinations
from typing import TypeVar

from .cards import JOKER, Card, Deck
from .variants import Rules

SET = 1
RUN = 2
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A way to lay down a hand: melds plus the cards left over (deadwood)."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    points: int


# Masks over a bitmask of engine ids, where each rank is one nibble (its four
# suits); together they count the suits held in every rank at once.
_LOW_BIT_OF_EACH_PAIR = int("01" * 32, 2)
_LOW_PAIR_OF_EACH_NIBBLE = int("0011" * 16, 2)
_ONE_IN_EACH_NIBBLE = int("0001" * 16, 2)
_BIT_2_OF_EACH_NIBBLE = int("0100" * 16, 2)
#: For each nibble of suits held in one rank, its sub-nibbles of three or four suits (the sets).
_SET_SUBSETS = [[sub for sub in range(16) if sub & m == sub and sub.bit_count() >= 3] for m in range(16)]
_EIGHT_IN_EACH_NIBBLE = int("1000" * 64, 2)
#: Where each suit's positions start in a suit-major bitmask (see :func:`suit_major`).
_SUIT_SHIFTS = (0, 16, 32, 48)
_ONE_SUIT = (1 << 16) - 1
#: The bits of a bitmask of engine ids in a card code (see :attr:`Tables.code_of`).
ID_BITS = (1 << 64) - 1


def low_bits(mask: int) -> Iterator[int]:
    """The set bits of ``mask``, lowest first, each as a power of two."""
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def suit_major(ids: Iterable[int]) -> int:
    """Real cards' engine ids as a suit-major bitmask: bit ``16 * suit + position``."""
    return sum(1 << (16 * (i & 3) + (i >> 2)) for i in ids)


def ranks_with_suits(held: int, at_least: int) -> int:
    """Bit 2 of the nibble of every rank in which ``held`` (engine ids) has
    ``at_least`` (1 to 4) suits or more."""
    per_pair = (held & _LOW_BIT_OF_EACH_PAIR) + ((held >> 1) & _LOW_BIT_OF_EACH_PAIR)
    per_nibble = (per_pair & _LOW_PAIR_OF_EACH_NIBBLE) + ((per_pair >> 2) & _LOW_PAIR_OF_EACH_NIBBLE)
    return (per_nibble + (4 - at_least) * _ONE_IN_EACH_NIBBLE) & _BIT_2_OF_EACH_NIBBLE  # reaches 4


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
        #: Engine id of a real card → its bit, and its bit in a suit-major bitmask (see :func:`suit_major`).
        self.id_bit = [1 << i for i in range(deck.size)]
        self.suit_major_bit = [suit_major([i]) for i in range(deck.size)]
        self.wild_mask = sum(1 << i for i in self.wild_ids)
        self.meld_info = lru_cache(maxsize=1 << 16)(self._meld_info)
        #: Per rank position and nibble of suits held: the natural parts of
        #: sets, as :meth:`natural_cores` gives them.
        self._set_cores_at = [
            [
                [
                    (
                        tuple(4 * p + s for s in range(4) if sub >> s & 1),
                        max(0, 3 - sub.bit_count()),
                        4 - sub.bit_count(),
                    )
                    for sub in range(16)
                    if sub & suits == sub and sub.bit_count() >= self.min_real
                ]
                for suits in range(16)
            ]
            for p in range(self.nranks)
        ]
        self._run_cores: dict[int, list[tuple[tuple[int, ...], int, int]]] = {}
        #: Per rank position and nibble of suits held: the sets, as bitmasks of engine ids.
        self._sets_at = [[[sub << 4 * p for sub in _SET_SUBSETS[m]] for m in range(16)] for p in range(self.nranks)]
        self._runs: dict[int, list[int]] = {}

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
        """Every valid meld among the hand's cards: ``{hand bitmask: fewest wilds}``.

        The invariant exactness rests on (see the module docstring): every
        subset of ``ids`` that is a meld is listed, and nothing else.  A meld
        is a natural part (cards standing for themselves, from
        :meth:`natural_cores`) plus free wild cards; with two copies of a
        card, each copy is tried, since the other one may be busy in another
        meld.
        """
        return self.melds_in(ids, [0] * len(self.by_id))[0]

    def melds_in(self, ids: Sequence[int], points_of_id: Sequence[int]) -> tuple[dict[int, int], dict[int, int]]:
        """:meth:`candidates`, and each meld's points (``points_of_id``:
        engine id → points)."""
        found: dict[int, int] = {}
        wild_ids = self.wild_ids
        if wild_ids.isdisjoint(ids):
            self._plain_candidates(ids, found)
            return found, _points_of_melds(found, ids, points_of_id)
        joker = self.joker
        wild_bits = 0
        copies: dict[int, list[int]] = {}  # real card's id → bits of its copies
        for i, c in enumerate(ids):
            if c in wild_ids:
                wild_bits |= 1 << i
            if c != joker:
                copies.setdefault(c, []).append(1 << i)
        wilds = tuple(low_bits(wild_bits))
        by_count = _subsets_by_count(wilds)
        held = sum(map(self.id_bit.__getitem__, copies))
        cores = self.natural_cores(held, sum(map(self.suit_major_bit.__getitem__, copies)), len(wilds))
        max_wilds = self.max_wilds
        if wild_ids.isdisjoint(copies) and len(copies) + len(wilds) == len(ids):
            # The common case (jokers, no duplicates): one mask per natural
            # part, and every wild card, a joker, is free to join it.
            points: dict[int, int] = {}
            bit_of = {c: bits[0] for c, bits in copies.items()}
            joker_points = points_of_id[joker]
            most = min(len(wilds), max_wilds)
            for core_ids, fewest, room in cores:
                core = sum(map(bit_of.__getitem__, core_ids))
                core_points = sum(map(points_of_id.__getitem__, core_ids))
                for k in range(fewest, min(room, most) + 1):
                    for extra in by_count[k]:
                        mask = core | extra
                        if k < found.get(mask, 99):  # a lone card's set and run coincide
                            found[mask] = k
                            points[mask] = core_points + k * joker_points
            return found, points
        for core_ids, fewest, room in cores:
            for core in _one_of_each([copies[c] for c in core_ids]):
                free, subsets = wilds, by_count
                if core & wild_bits:  # a wild real card stands for itself here, so it is not free
                    free = tuple(w for w in wilds if not w & core)
                    subsets = _subsets_by_count(free)
                for k in range(fewest, min(room, len(free), max_wilds) + 1):
                    for extra in subsets[k]:
                        mask = core | extra
                        # Ties between different assignments keep the fewest wilds;
                        # a wild real card standing for itself counts as natural.
                        if k < found.get(mask, 99):
                            found[mask] = k
        return found, _points_of_melds(found, ids, points_of_id)

    def natural_cores(self, held: int, by_suit: int, wilds: int) -> list[tuple[tuple[int, ...], int, int]]:
        """The natural parts of melds among distinct real cards (``held`` and
        ``by_suit``, as for :meth:`plain_melds`) when ``wilds`` wild cards are
        at hand: ``(engine ids, fewest wilds, most wilds)``, the numbers of
        wild cards the meld needs (to fill gaps and reach three cards) and
        can take (up to four cards for a set, the deck's ranks for a run).

        A set's natural part is ``min_real`` to four suits of one rank; a
        run's is ``min_real`` or more positions of one suit whose gaps the
        wilds can fill.  Both come from tables built once per pattern.
        """
        cores: list[tuple[tuple[int, ...], int, int]] = []
        for bit in low_bits(ranks_with_suits(held, self.min_real)):
            base = bit.bit_length() - 3  # bit 2 of the nibble → the rank's first id
            cores += self._set_cores_at[base >> 2][(held >> base) & 15]
        for suit, shift in enumerate(_SUIT_SHIFTS):
            positions = by_suit >> shift & _ONE_SUIT
            if positions:
                cores += self.run_cores(suit, positions, wilds)
        return cores

    def run_cores(self, suit: int, positions: int, wilds: int) -> list[tuple[tuple[int, ...], int, int]]:
        """:meth:`natural_cores` of runs among the ``positions`` (a bitmask)
        held in ``suit``; built once per pattern."""
        key = positions << 6 | wilds << 2 | suit
        cores = self._run_cores.get(key)
        if cores is None:
            held = [p for p in range(self.nranks) if positions >> p & 1]
            cores = [
                (tuple(4 * p + suit for p in core), max(gaps, 3 - size), self.nranks - size)
                for size in range(self.min_real, len(held) + 1)
                for core in combinations(held, size)
                if (gaps := core[-1] - core[0] + 1 - size) <= wilds
            ]
            self._run_cores[key] = cores
        return cores

    def plain_melds(self, held: int, by_suit: int) -> list[int]:
        """Every meld among distinct real cards without wilds, as bitmasks of
        engine ids.  The cards come twice: ``held``, their bitmask of engine
        ids, and ``by_suit``, the same cards with suit ``s`` at position ``p``
        on bit ``16 * s + p`` (see :func:`suit_major`).

        A set needs three bits in one rank's nibble of ``held``; a run of
        three starts wherever one suit has three positions in a row in
        ``by_suit``.  Most hands have neither and return at once; the others
        read their melds from tables built once per suit pattern.
        """
        threes = ranks_with_suits(held, 3)
        runs = by_suit & (by_suit >> 1) & (by_suit >> 2)
        if not threes and not runs:
            return []
        melds: list[int] = []
        for bit in low_bits(threes):
            base = bit.bit_length() - 3  # bit 2 of the nibble → the rank's first id
            melds += self._sets_at[base >> 2][(held >> base) & 15]
        if runs:
            for suit, shift in enumerate(_SUIT_SHIFTS):
                if runs >> shift & _ONE_SUIT:
                    melds += self.runs_in_suit(suit, by_suit >> shift & _ONE_SUIT)
        return melds

    def runs_in_suit(self, suit: int, positions: int) -> list[int]:
        """Every run among the ``positions`` held in ``suit`` (a bitmask), as
        bitmasks of engine ids; built once per pattern."""
        key = positions << 2 | suit
        runs = self._runs.get(key)
        if runs is None:
            runs = []
            for first in range(self.nranks):
                run = 0
                for p in range(first, self.nranks):
                    if not positions >> p & 1:
                        break
                    run |= 1 << (4 * p + suit)
                    if p - first >= 2:
                        runs.append(run)
            self._runs[key] = runs
        return runs

    def _plain_candidates(self, ids: Sequence[int], found: dict[int, int]) -> None:
        """Melds of a hand without wilds that may hold two copies of a card:
        the melds of its distinct cards, once for every choice of copies."""
        where: dict[int, list[int]] = {}
        for i, c in enumerate(ids):
            where.setdefault(c, []).append(1 << i)
        held = sum(1 << c for c in where)
        for meld in self.plain_melds(held, suit_major(where)):
            for mask in _one_of_each([where[bit.bit_length() - 1] for bit in low_bits(meld)]):
                found[mask] = 0

    # -- combinations ------------------------------------------------------
    def combos(self, candidates: dict[int, int]) -> list[tuple[int, ...]]:
        """Every set of pairwise disjoint candidate melds (the empty set
        first), depth first: the order in which lay-off ties are shown."""
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


def disjoint_combos(melds: Iterable[int], value: Mapping[int, int]) -> list[tuple[tuple[int, ...], int, int]]:
    """Every set of pairwise disjoint ``melds`` as ``(melds, covered,
    points)``: the melds in increasing order, the bits they cover and the
    points they take off the hand (``value`` of each meld); the empty set
    first.  Same sets as :meth:`MeldContext.combos`, built breadth first
    without recursion."""
    out: list[tuple[tuple[int, ...], int, int]] = [((), 0, 0)]
    for m in sorted(melds):
        v = value[m]
        out += [((*combo, m), covered | m, points + v) for combo, covered, points in out if not covered & m]
    return out


def maximal_combos(melds: Iterable[int], value: Mapping[int, int]) -> list[tuple[tuple[int, ...], int, int]]:
    """Like :func:`disjoint_combos`, but only the sets of disjoint ``melds``
    that no other of them can join, for a hand of at most eight cards (where
    no three melds fit): every disjoint pair, every meld in no such pair, and
    the empty set when there is no meld.  Every other set of disjoint melds is
    a strict subset of one of these.  Pairs are in increasing order, as there;
    the list itself is in no particular order."""
    melds = list(melds)
    out: list[tuple[tuple[int, ...], int, int]] = []
    for m in melds:
        v = value[m]
        alone = True
        for n in melds:
            if not m & n:
                alone = False
                if n > m:
                    out.append(((m, n), m | n, v + value[n]))
        if alone:
            out.append(((m,), m, v))
    return out or [((), 0, 0)]


def _one_of_each(choices: list[list[int]]) -> list[int]:
    """Every mask taking one bit from each list (one copy of each card)."""
    masks = [0]
    for bits in choices:
        masks = [m | b for m in masks for b in bits]
    return masks


def _points_of_melds(melds: Iterable[int], ids: Sequence[int], points_of_id: Sequence[int]) -> dict[int, int]:
    """Each meld (a bitmask over the hand ``ids``) → its points."""
    points = [points_of_id[c] for c in ids]
    return {m: sum(map(points.__getitem__, BITS[m])) for m in melds}


@lru_cache(maxsize=256)
def _subsets_by_count(bits: tuple[int, ...]) -> list[list[int]]:
    """``[k]``: the masks of every ``k`` of ``bits``."""
    return [[sum(c) for c in combinations(bits, k)] for k in range(len(bits) + 1)]


@lru_cache(maxsize=64)
def _context(deck: Deck, wild_ids: frozenset[int], min_real: int, max_wilds: int | None) -> MeldContext:
    return MeldContext(deck, wild_ids, min_real, max_wilds)


class Tables:
    """What the solver needs about one rules value, built once: get it with
    :func:`tables_for`."""

    __slots__ = (
        "_count_of",
        "_room",
        "code_of",
        "ctx",
        "joker_order_bits",
        "order_bit",
        "order_value",
        "plain_meld_value",
        "plain_shown",
        "value_of_id",
        "wild_mask",
    )

    def __init__(self, rules: Rules) -> None:
        deck = rules.pack
        wild_ids = frozenset(deck.card_id(c) for c in rules.wild_cards)
        self.ctx = ctx = _context(deck, wild_ids, rules.min_real_cards, rules.max_wilds_per_meld)
        #: Engine id → penalty points.
        self.value_of_id = values = [rules.card_values[c] for c in ctx.by_id]
        # The value order: every real card and each of the rules' jokers,
        # highest value first, ties by engine id (the order IndexedHand gives
        # a hand's cards, whatever the hand).
        joker = ctx.joker
        order = sorted([(-values[i], i) for i in range(deck.size)] + [(-values[joker], joker)] * rules.jokers)
        #: Engine id of a real card → its bit in a value-ordered mask; the
        #: jokers' bits, in the order a hand's jokers take them.
        self.order_bit = [0] * deck.size
        self.joker_order_bits: list[int] = []
        #: Place in the value order → the card's points.
        self.order_value = [-v for v, _ in order]
        for place, (_, i) in enumerate(order):
            if i == joker:
                self.joker_order_bits.append(1 << place)
            else:
                self.order_bit[i] = 1 << place
        #: Card → its code: its points << 192, its bit in the value order
        #: (none for a joker) << 128, its suit-major bit (see
        #: :func:`suit_major`) << 64, and its bit.  One sum over a hand gives
        #: its points and its bitmasks (with fewer bits than cards when two
        #: cards are equal): ``code & ID_BITS``, ``code >> 64 & ID_BITS``,
        #: ``code >> 128 & ID_BITS`` and ``code >> 192``.
        self.code_of = {
            c: v << 192 | (self.order_bit[i] << 128 | suit_major([i]) << 64 if i != joker else 0) | 1 << i
            for i, (c, v) in enumerate(zip(ctx.by_id, values, strict=True))
        }
        self.wild_mask = ctx.wild_mask
        #: Shows the cards of every plain hand's verdict (see :class:`PlainShown`).
        self.plain_shown = PlainShown(ctx)
        # For pack_holds: each card counted in a nibble of its own, and per
        # number of copies the room below 8 that each nibble may fill.
        self._count_of = {c: 1 << 4 * i for i, c in enumerate(ctx.by_id)}
        self._room = {
            copies: sum((7 - copies) << 4 * i for i in range(deck.size)) + ((7 - rules.jokers) << 4 * ctx.joker)
            for copies in (1, 2)
        }
        #: Every meld of the deck without wilds (engine-id bitmask) → its points.
        every = range(deck.size)
        self.plain_meld_value = {
            m: sum(self.value_of_id[b.bit_length() - 1] for b in low_bits(m))
            for m in ctx.plain_melds(sum(1 << i for i in every), suit_major(every))
        }

    def pack_holds(self, cards: Sequence[Card], copies: int) -> bool:
        """Whether a pack with ``copies`` of each card (and the rules' jokers)
        holds all these cards: a quick yes for up to eight cards;
        :func:`~companion.rules.validate.check_cards` says what is wrong
        otherwise.  A nibble that reaches 8 counts one card too many."""
        try:
            counts = sum(map(self._count_of.__getitem__, cards))
        except KeyError:
            return False
        return len(cards) <= 8 and not (counts + self._room[copies]) & _EIGHT_IN_EACH_NIBBLE


class NumberedMelds:
    """Every meld of the deck without wilds, numbered, so that the melds of a
    plain hand (distinct real cards, none wild) are one bitmask of numbers and
    the melds that share no card with a given one are a table lookup.

    Numbers follow the melds' engine-id bitmasks in increasing order, so
    walking a bitmask of numbers from its lowest bit lists the melds in
    increasing order, as :func:`disjoint_combos` and :func:`maximal_combos`
    order them.  Built once per rules value (``close_facts``).
    """

    __slots__ = ("_ctx", "_number", "alone", "disjoint", "larger", "melds", "runs_at", "sets_at", "values")

    def __init__(self, ctx: MeldContext, value: Mapping[int, int]) -> None:
        self._ctx = ctx
        #: Number → the meld (engine-id bitmask), and its points.
        self.melds = melds = sorted(value)
        self.values = [value[m] for m in melds]
        self._number = number = {m: i for i, m in enumerate(melds)}
        # Engine id → the numbers of the melds holding that card.
        holding = [0] * (ctx.deck.size + 1)
        for i, m in enumerate(melds):
            for bit in low_bits(m):
                holding[bit.bit_length() - 1] |= 1 << i
        #: Number → the meld as a combination on its own: ``((meld,), meld, points, cards left out of eight)``.
        self.alone = [((m,), m, v, 8 - m.bit_count()) for m, v in zip(melds, self.values, strict=True)]
        #: Number → bitmask of the numbers of the melds sharing no card with it.
        self.disjoint = []
        every = (1 << len(melds)) - 1
        for m in melds:
            meeting = 0
            for bit in low_bits(m):
                meeting |= holding[bit.bit_length() - 1]
            self.disjoint.append(every & ~meeting)
        #: Number → bitmask of the numbers of the melds of seven cards or fewer
        #: holding it and more: a close need not try the meld alone when one
        #: of these is in the hand (see :func:`_larger_melds`).
        self.larger = _larger_melds(melds, lambda bit: holding[bit.bit_length() - 1])
        #: ``[rank position][nibble of suits held]`` → the numbers of the sets among those suits.
        self.sets_at = [[sum(1 << number[m] for m in subs) for subs in at] for at in ctx._sets_at]
        #: ``[suit][positions]`` → the numbers of the runs among the positions
        #: (a bitmask) held in that suit: every pattern, built at once.
        self.runs_at = [self._number_runs(suit, ctx.nranks) for suit in range(4)]

    def _number_runs(self, suit: int, nranks: int) -> list[int]:
        """:attr:`runs_at` for one suit.  A pattern's runs are those of the
        pattern without its highest position, and those ending there: one
        step per pattern, each reading the table of a smaller one."""
        number = self._number
        table = [0] * (1 << nranks)
        for positions in range(1, 1 << nranks):
            top = positions.bit_length() - 1
            found = table[positions ^ 1 << top]
            run = 1 << 4 * top + suit
            low = top - 1
            while low >= 0 and positions >> low & 1:
                run |= 1 << 4 * low + suit
                if top - low >= 2:
                    found |= 1 << number[run]
                low -= 1
            table[positions] = found
        return table

    def of_hand(self, held: int, by_suit: int) -> int:
        """The numbers of every meld among distinct real cards without wilds
        (``held`` and ``by_suit`` as for :meth:`MeldContext.plain_melds`, which
        lists the same melds, and reads them the same way)."""
        found = 0
        # Where a rank holds three suits or more (ranks_with_suits(held, 3)), sets.
        per_pair = (held & _LOW_BIT_OF_EACH_PAIR) + (held >> 1 & _LOW_BIT_OF_EACH_PAIR)
        per_nibble = (per_pair & _LOW_PAIR_OF_EACH_NIBBLE) + (per_pair >> 2 & _LOW_PAIR_OF_EACH_NIBBLE)
        threes = (per_nibble + _ONE_IN_EACH_NIBBLE) & _BIT_2_OF_EACH_NIBBLE
        while threes:
            bit = threes & -threes
            threes ^= bit
            base = bit.bit_length() - 3  # bit 2 of the nibble → the rank's first id
            found |= self.sets_at[base >> 2][held >> base & 15]
        # Where one suit holds three positions in a row, runs.
        runs = by_suit & by_suit >> 1 & by_suit >> 2
        if runs:
            runs_at = self.runs_at
            if runs & _ONE_SUIT:
                found |= runs_at[0][by_suit & _ONE_SUIT]
            if runs >> 16 & _ONE_SUIT:
                found |= runs_at[1][by_suit >> 16 & _ONE_SUIT]
            if runs >> 32 & _ONE_SUIT:
                found |= runs_at[2][by_suit >> 32 & _ONE_SUIT]
            if runs >> 48:
                found |= runs_at[3][by_suit >> 48]
        return found


class _RunsBySuit(dict[int, int]):
    """``[positions]`` → the numbers of the melds whose real cards lie among
    those positions of one suit (see :class:`JokerMelds`), filled as
    patterns come from the numbers of each exact pattern of real cards."""

    __slots__ = ("exact",)

    def __init__(self, exact: dict[int, int]) -> None:
        super().__init__()
        self.exact = exact

    def __missing__(self, positions: int) -> int:
        exact = self.exact
        found = 0
        sub = positions
        while sub:
            found |= exact.get(sub, 0)
            sub = (sub - 1) & positions
        self[positions] = found
        return found


class JokerMelds:
    """Every meld that distinct real cards, none wild, make with the jokers
    of a hand (their bits: ``joker_bits``), numbered, so that the melds of
    such a hand are one bitmask of numbers (:meth:`of_hand`), as
    :class:`NumberedMelds` has them without jokers.

    Each meld is a mask of the value order (:attr:`Tables.order_bit`), the
    hand's jokers taking the first of the jokers' bits there.  The value
    order restricted to a hand is :class:`IndexedHand`'s order of its cards,
    so two melds' masks compare as their IndexedHand masks do, and a mask's
    lowest bit is its most valuable card.  Numbers follow the masks in
    increasing order.  The melds are those :meth:`MeldContext.melds_in` lists
    for such a hand: a natural part (:meth:`MeldContext.natural_cores`) with
    as many jokers as it needs and can take, each choice of jokers a meld.
    """

    __slots__ = ("disjoint", "larger", "masks", "min_real", "runs_at", "sets_at", "values", "wilds")

    def __init__(
        self, ctx: MeldContext, order_bit: Sequence[int], points_of_id: Sequence[int], joker_bits: Sequence[int]
    ) -> None:
        most = min(len(joker_bits), ctx.max_wilds)
        self.min_real = min_real = ctx.min_real
        nranks = ctx.nranks
        by_count = [[sum(c) for c in combinations(joker_bits, k)] for k in range(most + 1)]
        joker_points = points_of_id[ctx.joker]
        found: dict[int, tuple[int, int]] = {}  # mask → (points, jokers in it)

        def with_jokers(ids: list[int], fewest: int, room: int) -> list[int]:
            real = sum(order_bit[i] for i in ids)
            points = sum(points_of_id[i] for i in ids)
            masks = []
            for k in range(fewest, min(room, most) + 1):
                for extra in by_count[k]:
                    found[real | extra] = (points + k * joker_points, k)
                    masks.append(real | extra)
            return masks

        set_parts = [
            (p, suits, with_jokers([4 * p + s for s in range(4) if suits >> s & 1], max(0, 3 - size), 4 - size))
            for p in range(nranks)
            for suits in range(1, 16)
            if (size := suits.bit_count()) >= min_real
        ]
        run_parts = []
        for low in range(nranks):
            for high in range(low, nranks):
                inside = range(low + 1, high)
                for gaps in range(min(most, len(inside)) + 1):
                    for missing in combinations(inside, gaps):
                        positions = (1 << high + 1) - (1 << low) - sum(1 << p for p in missing)
                        size = positions.bit_count()
                        if size < min_real:
                            continue
                        for suit in range(4):
                            ids = [4 * p + suit for p in range(low, high + 1) if positions >> p & 1]
                            run_parts.append((suit, positions, with_jokers(ids, max(gaps, 3 - size), nranks - size)))
        #: Number → the meld's mask, its points and how many jokers it holds.
        self.masks = masks = sorted(found)
        self.values = [found[m][0] for m in masks]
        self.wilds = [found[m][1] for m in masks]
        number = {m: i for i, m in enumerate(masks)}
        #: ``[rank position][nibble of suits held]`` → the numbers of the melds
        #: whose real cards are among those suits of that rank.
        self.sets_at = [[0] * 16 for _ in range(nranks)]
        for p, suits, found_masks in set_parts:
            self.sets_at[p][suits] |= sum(1 << number[m] for m in found_masks)
        for at in self.sets_at:
            for bit in (1, 2, 4, 8):
                for suits in range(16):
                    if suits & bit:
                        at[suits] |= at[suits ^ bit]
        #: ``[suit][positions]`` → the same for runs among those positions (a bitmask) of a suit.
        exact: list[dict[int, int]] = [{} for _ in range(4)]
        for suit, positions, found_masks in run_parts:
            exact[suit][positions] = exact[suit].get(positions, 0) | sum(1 << number[m] for m in found_masks)
        self.runs_at = [_RunsBySuit(e) for e in exact]
        #: Number → bitmask of the numbers of the melds sharing no card (nor joker) with it.
        holding: dict[int, int] = {}
        for i, m in enumerate(masks):
            for bit in low_bits(m):
                holding[bit] = holding.get(bit, 0) | 1 << i
        every = (1 << len(masks)) - 1
        self.disjoint = []
        for m in masks:
            meeting = 0
            for bit in low_bits(m):
                meeting |= holding[bit]
            self.disjoint.append(every & ~meeting)
        #: Number → the numbers of the larger melds holding it (as :attr:`NumberedMelds.larger`).
        self.larger = _larger_melds(masks, holding.__getitem__)

    def of_hand(self, held: int, by_suit: int) -> int:
        """The numbers of every meld of a hand whose real cards are ``held``
        and ``by_suit`` (as for :meth:`MeldContext.plain_melds`)."""
        found = 0
        for bit in low_bits(ranks_with_suits(held, self.min_real)):
            base = bit.bit_length() - 3  # bit 2 of the nibble → the rank's first id
            found |= self.sets_at[base >> 2][held >> base & 15]
        runs_at = self.runs_at
        if by_suit & _ONE_SUIT:
            found |= runs_at[0][by_suit & _ONE_SUIT]
        if by_suit >> 16 & _ONE_SUIT:
            found |= runs_at[1][by_suit >> 16 & _ONE_SUIT]
        if by_suit >> 32 & _ONE_SUIT:
            found |= runs_at[2][by_suit >> 32 & _ONE_SUIT]
        if by_suit >> 48:
            found |= runs_at[3][by_suit >> 48]
        return found


def _larger_melds(masks: Sequence[int], holding: Callable[[int], int]) -> list[int]:
    """For each of the numbered ``masks``, the numbers of the other masks of
    at most seven bits that hold all of its bits (``holding``: a bit → the
    numbers of the masks holding it).

    In a close of eight cards without a discard named, a meld that no other
    meld of the hand can join is beaten by any larger one of the hand (which
    no other meld can join either) that leaves a card to put face down: it
    leaves fewer loose cards, none of them new, so the loose points (all but
    the card face down, the highest) never rise.  So the close searches skip
    such a meld when ``larger[number] & found``.
    """
    small = 0
    for i, m in enumerate(masks):
        if m.bit_count() <= 7:
            small |= 1 << i
    larger = []
    for i, m in enumerate(masks):
        holders = small & ~(1 << i)
        for bit in low_bits(m):
            holders &= holding(bit)
        larger.append(holders)
    return larger


def joker_melds(tables: Tables, jokers: int) -> JokerMelds:
    """The :class:`JokerMelds` of a hand holding ``jokers`` jokers under
    these tables' rules: built once, and shared by the rules that give the
    same melds the same points and order."""
    return _joker_melds(
        tables.ctx, tuple(tables.order_bit), tuple(tables.value_of_id), tuple(tables.joker_order_bits[:jokers])
    )


@lru_cache(maxsize=8)  # two jokers: about 3 MB for 40 cards, 13 MB for 52
def _joker_melds(
    ctx: MeldContext, order_bit: tuple[int, ...], points_of_id: tuple[int, ...], joker_bits: tuple[int, ...]
) -> JokerMelds:
    return JokerMelds(ctx, order_bit, points_of_id, joker_bits)


def per_rules(build: Callable[[Rules], T]) -> Callable[[Rules], T]:
    """Decorate a pure function of a rules value so that it runs once per
    value: equal rules share the result.  The lookup goes by the object's
    identity first, because hashing a whole rules value costs more than a
    close check's arithmetic; each entry holds its rules object, so an id is
    never reused while it is cached."""
    by_value = lru_cache(maxsize=64)(build)
    by_id: dict[int, tuple[Rules, T]] = {}

    @wraps(build)
    def cached(rules: Rules) -> T:
        entry = by_id.get(id(rules))
        if entry is not None and entry[0] is rules:
            return entry[1]
        result = by_value(rules)
        if len(by_id) >= 256:
            by_id.clear()
        by_id[id(rules)] = (rules, result)
        return result

    return cached


@per_rules
def tables_for(rules: Rules) -> Tables:
    """The solver's tables for these rules, built on first use."""
    return Tables(rules)


def meld_context(rules: Rules) -> MeldContext:
    """The shared meld tables for these rules."""
    return tables_for(rules).ctx


BITS: list[tuple[int, ...]] = [tuple(i for i in range(8) if m >> i & 1) for m in range(256)]


class IndexedHand:
    """A hand of up to eight cards, indexed highest value first.

    ``melds`` maps each valid meld (a bitmask over the hand) to the fewest
    wild cards it needs; ``meld_value`` to the points it takes off the hand;
    ``values[i]`` is the points of card ``i``.  The highest-valued card of a
    group of bits is its lowest bit (``high_first`` is False).
    """

    __slots__ = ("_cards", "_covers", "_maximal", "ctx", "full", "ids", "meld_value", "melds", "total", "values")
    high_first = False

    def __init__(self, cards: Sequence[Card], rules: Rules, ctx: MeldContext | None = None) -> None:
        tables = tables_for(rules)
        keyed = sorted(map(rules.card_keys.__getitem__, cards))
        self.ctx = ctx = ctx or tables.ctx
        self.ids = ids = [k & 255 for k in keyed]
        self._cards: tuple[Card, ...] | None = None
        self._covers: list[tuple[tuple[int, ...], int, int]] | None = None
        self._maximal: list[tuple[tuple[int, ...], int, int]] | None = None
        self.values = vals = [-(k >> 8) for k in keyed]
        self.total = sum(vals)
        self.full = (1 << len(keyed)) - 1
        self.melds, self.meld_value = ctx.melds_in(ids, tables.value_of_id)

    @property
    def cards(self) -> tuple[Card, ...]:
        if self._cards is None:
            by_id = self.ctx.by_id
            self._cards = tuple([by_id[i] for i in self.ids])
        return self._cards

    @property
    def n(self) -> int:
        return len(self.ids)

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

    def covers(self) -> list[tuple[tuple[int, ...], int, int]]:
        """:func:`disjoint_combos` of the hand's melds (computed once)."""
        if self._covers is None:
            self._covers = disjoint_combos(self.melds, self.meld_value)
        return self._covers

    def maximal_covers(self) -> list[tuple[tuple[int, ...], int, int]]:
        """:func:`maximal_combos` of the hand's melds (computed once; at most eight cards)."""
        if self._maximal is None:
            self._maximal = maximal_combos(self.melds, self.meld_value)
        return self._maximal

    def meld_cards(self, mask: int) -> tuple[Card, ...]:
        """A meld's cards in reading order (see :func:`display_order`)."""
        return display_ids(self.ids_of(mask), self.ctx)


class PlainHand:
    """A hand of distinct real cards, none of them wild: one bitmask of engine
    ids, so melds come straight from :meth:`MeldContext.plain_melds` and
    values from the rules' tables.  Same interface as :class:`IndexedHand`,
    except that bits are engine ids, so the highest-valued card of a group is
    its highest bit (``high_first``: values never fall as ids rise).  Most
    hands in play are plain, and this is what makes close checks fast.
    """

    __slots__ = ("_covers", "_maximal", "_tables", "by_suit", "full", "total")
    high_first = True

    def __init__(self, held: int, by_suit: int, total: int, tables: Tables) -> None:
        self.full = held
        self.by_suit = by_suit
        self.total = total
        self._tables = tables
        self._covers: list[tuple[tuple[int, ...], int, int]] | None = None
        self._maximal: list[tuple[tuple[int, ...], int, int]] | None = None

    @property
    def ctx(self) -> MeldContext:
        return self._tables.ctx

    @property
    def values(self) -> list[int]:
        """Engine id → points."""
        return self._tables.value_of_id

    @property
    def melds(self) -> dict[int, int]:
        return dict.fromkeys(self.ctx.plain_melds(self.full, self.by_suit), 0)

    @property
    def meld_value(self) -> dict[int, int]:
        value = self._tables.plain_meld_value
        return {m: value[m] for m in self.ctx.plain_melds(self.full, self.by_suit)}

    @property
    def n(self) -> int:
        return self.full.bit_count()

    def card_of_bit(self, bit: int) -> Card:
        return self.ctx.by_id[bit.bit_length() - 1]

    def card_bits(self, card: Card) -> int:
        return self.ctx.bit_of.get(card, 0) & self.full

    def combos(self) -> list[tuple[int, ...]]:
        return self.ctx.combos(self.melds)

    def covers(self) -> list[tuple[tuple[int, ...], int, int]]:
        """:func:`disjoint_combos` of the hand's melds (computed once)."""
        if self._covers is None:
            self._covers = disjoint_combos(self.ctx.plain_melds(self.full, self.by_suit), self._tables.plain_meld_value)
        return self._covers

    def maximal_covers(self) -> list[tuple[tuple[int, ...], int, int]]:
        """:func:`maximal_combos` of the hand's melds (computed once; at most eight cards)."""
        if self._maximal is None:
            tables = self._tables
            self._maximal = maximal_combos(tables.ctx.plain_melds(self.full, self.by_suit), tables.plain_meld_value)
        return self._maximal

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        by_id = self.ctx.by_id
        return tuple([by_id[bit.bit_length() - 1] for bit in low_bits(mask)])

    def points_of(self, mask: int) -> int:
        values = self.values
        return sum([values[bit.bit_length() - 1] for bit in low_bits(mask)])

    meld_cards = cards_of  # ids ascending read well without wilds


class PlainShown:
    """Shows masks of engine ids as cards: the bits of every
    :class:`PlainHand`, so that one of these per rules value shows the
    verdict of any plain hand (see :attr:`Tables.plain_shown`)."""

    __slots__ = ("by_id", "ctx")

    def __init__(self, ctx: MeldContext) -> None:
        self.ctx = ctx
        self.by_id = ctx.by_id

    def card_of_bit(self, bit: int) -> Card:
        return self.by_id[bit.bit_length() - 1]

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        by_id = self.by_id
        return tuple([by_id[bit.bit_length() - 1] for bit in low_bits(mask)])

    meld_cards = cards_of  # ids ascending read well without wilds


class ShownHand:
    """A hand's cards indexed as :class:`IndexedHand` indexes them (highest
    value first, ties by engine id), without its melds: what a verdict found
    by :class:`JokerMelds` needs to show its cards.  The order is worked out
    the first time a card is read."""

    __slots__ = ("_cards", "_ids", "_keys", "ctx")

    def __init__(self, cards: Sequence[Card], keys: Mapping[Card, int], ctx: MeldContext) -> None:
        self._cards = tuple(cards)
        self._keys = keys
        self._ids: list[int] | None = None
        self.ctx = ctx

    @property
    def ids(self) -> list[int]:
        if self._ids is None:
            self._ids = [k & 255 for k in sorted(map(self._keys.__getitem__, self._cards))]
        return self._ids

    @property
    def n(self) -> int:
        return len(self._cards)

    def card_of_bit(self, bit: int) -> Card:
        return self.ctx.by_id[self.ids[bit.bit_length() - 1]]

    def cards_of(self, mask: int) -> tuple[Card, ...]:
        by_id = self.ctx.by_id
        ids = self.ids
        return tuple([by_id[ids[i]] for i in BITS[mask]])

    def meld_cards(self, mask: int) -> tuple[Card, ...]:
        """A meld's cards in reading order (see :func:`display_order`)."""
        ids = self.ids
        return display_ids(sorted(ids[i] for i in BITS[mask]), self.ctx)


def display_order(cards: Sequence[Card], ctx: MeldContext) -> tuple[Card, ...]:
    """Cards of a meld as a player lays them out: runs low to high with each
    wild in the gap it fills (spare wilds at the high end, or the low end when
    the run already reaches the top), sets by suit with wilds last."""
    return display_ids(sorted(ctx.deck.card_id(c) for c in cards), ctx)


def display_ids(ids: Sequence[int], ctx: MeldContext) -> tuple[Card, ...]:
    """:func:`display_order` for sorted engine ids."""
    by_id = ctx.by_id
    wild_ids = ctx.wild_ids
    if wild_ids.isdisjoint(ids):
        return tuple([by_id[i] for i in ids])  # sorted ids already read well
    info = ctx.meld_info(tuple(ids))
    if info is None or not info[0] & RUN or (info[0] & SET and len({i & 3 for i in ids if i != ctx.joker}) > 1):
        plain = [by_id[i] for i in ids if i not in wild_ids]
        wild = [by_id[i] for i in ids if i in wild_ids]
        return (*plain, *wild)
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


def _run_splits(ids: Sequence[int], ctx: MeldContext, wilds_needed: int) -> Iterator[tuple[list[int], list[int]]]:
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
    return min((-points, -covered.bit_count(), len(combo), combo) for combo, covered, points in hand.covers())[3]


def sort_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Cards in deck order (rank, then suit; jokers last)."""
    ordered = sorted(cards)  # cards compare as rank * 4 + suit, the joker 0
    jokers = ordered.count(JOKER)
    return (*ordered[jokers:], *ordered[:jokers])
