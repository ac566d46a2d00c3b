"""Fast, memoised hand evaluation for computer players and the advisor.

The bots ask the same few questions thousands of times per decision: how
many points does this hand leave loose, could these eight cards close.  For
hands of distinct real cards without wild cards (every preset with one deck)
a :class:`HandEval` answers from the engine's own table of every meld of the
pack (:class:`~companion.rules.melds.NumberedMelds`, in the engine's card
ids) and the engine's close rule and scores (:func:`~companion.rules.close.close_facts`),
so the meld and close rules stay in ``companion.rules``, with a search over
bitmasks memoised across calls.  Any other hand (jokers, wild cards, two copies of a
card) goes to the engine itself, memoised too.  Tests check both paths
against the engine.

>>> from companion.rules import get_rules, parse_cards
>>> ev = evaluator(get_rules("classic"))
>>> ev.loose(parse_cards("5b 5c 5e 4o 12o 2c 1c"))
17
>>> ev.close_score(parse_cards("11c 11e 11b 5o 6o 7o 3c"))  # the 3c left loose (None: no legal close)
3
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Card, Rules, best_melds, check_close
from ..rules.close import close_facts

_CACHE_LIMIT = 1 << 19
#: What one loose card weighs in the (loose cards, loose points) order: more than any points.
LOOSE_CARD = 4096


class HandEval:
    """Loose points and close legality of hands under one set of rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        facts = close_facts(rules)
        self.cards: list[Card] = rules.pack.cards()  # in engine-id order: a card's bit is its engine id
        self.bit = {c: 1 << i for i, c in enumerate(self.cards)}
        self.values = facts.tables.value_of_id
        self.plain = not rules.jokers and not rules.wild_cards
        # The close rule, read from the engine's limits (Rules.can_close): it
        # either counts loose cards (two never close: the one-card rule) or
        # caps their points whatever their number (seven kept at most).
        limit = facts.loose_limit
        self.one_card = limit[2] < 0
        self.close_max = limit[1] if self.one_card else limit[7]
        #: The most loose points any legal close keeps (None: no such bound, the
        #: rule allows any points): a hand whose fewest loose points are more never closes.
        most = max(rules.card_values.values())
        self.close_bound = None if any(limit[n] >= n * most for n in range(1, 9)) else max(limit)
        self.bonus = facts.combined_score
        #: A genuine Chinchón's score: ``-1000`` marks one that wins the match.
        self.chinchon = facts.chinchon_score if facts.chinchon_loses else -1000
        #: Per card id, the melds (engine-id bitmasks) whose lowest card it is;
        #: and the seven-card runs (the genuine Chinchóns).
        self.melds_low: list[list[int]] = [[] for _ in self.cards]
        self.runs7: set[int] = set()
        #: Per card id, the three-card melds holding it, that card taken out: a
        #: card joins a meld with some cards if and only if it joins one of
        #: three (a longer meld holding it holds a shorter one that does: three
        #: of a set's suits, a run's three in a row).
        self.meld_rests: list[list[int]] = [[] for _ in self.cards]
        if self.plain:
            for m in facts.numbered.melds:
                if m.bit_count() > 8:
                    continue  # a hand holds at most eight
                self.melds_low[(m & -m).bit_length() - 1].append(m)
                if m.bit_count() == 3:
                    for i in range(len(self.cards)):
                        if m >> i & 1:
                            self.meld_rests[i].append(m ^ 1 << i)
                if m.bit_count() == 7:  # sets hold four at most
                    self.runs7.add(m)
        self._points: dict[int, int] = {0: 0}
        self._count: dict[int, int] = {0: 0}
        self._slow: dict[tuple, int] = {}
        self._fp: dict[int, int] = {}
        self._fc: dict[int, int] = {}
        #: Room for callers' own memos over these rules (e.g. the expert's lookahead).
        self.memo: dict[str, dict] = {}

    def mask(self, cards: Sequence[Card]) -> int:
        m = 0
        for c in cards:
            m |= self.bit[c]
        return m

    def is_plain(self, cards: Sequence[Card]) -> bool:
        """True when the fast path applies: distinct real cards, no wilds."""
        return self.plain and 0 not in cards and len(set(cards)) == len(cards)

    # -- loose points -----------------------------------------------------------
    def points_of_mask(self, mask: int) -> int:
        """Fewest loose points of the cards in ``mask`` (distinct, no wilds)."""
        return self._cover(mask, 0, self._points)

    def _count_points(self, mask: int) -> int:
        """Lexicographic (loose cards, loose points) minimum, as ``count * LOOSE_CARD + points``."""
        return self._cover(mask, LOOSE_CARD, self._count)

    def _cover(self, mask: int, unit: int, memo: dict[int, int]) -> int:
        """The fewest of ``unit`` per loose card plus the loose points, over
        every way to meld the cards of ``mask``: the lowest card is either
        loose or in one of the melds it starts (memoised in ``memo``)."""
        got = memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        i = low.bit_length() - 1
        best = unit + self.values[i] + self._cover(mask ^ low, unit, memo)
        for m in self.melds_low[i]:
            if m & mask == m:
                v = self._cover(mask ^ m, unit, memo)
                if v < best:
                    best = v
        if len(memo) > _CACHE_LIMIT:
            memo.clear()
            memo[0] = 0
        memo[mask] = best
        return best

    def loose(self, cards: Sequence[Card]) -> int:
        """Fewest loose points of 1–8 cards (what :func:`best_melds` gives)."""
        if self.is_plain(cards):
            return self.points_of_mask(self.mask(cards))
        key = tuple(sorted(cards))
        got = self._slow.get(key)
        if got is None:
            got = self._slow[key] = best_melds(list(cards), self.rules, copies=2).points
        return got

    def loose_count(self, cards: Sequence[Card]) -> int:
        """Fewest cards left out of melds (ignoring their points)."""
        if self.is_plain(cards):
            return self._count_points(self.mask(cards)) // LOOSE_CARD
        key = ("count", *sorted(cards))
        got = self._slow.get(key)
        if got is None:
            got = self._slow[key] = len(best_melds(list(cards), self.rules, copies=2).deadwood)
        return got

    # -- eight cards: the best discard without trying each ---------------------------
    def _free_points(self, mask: int) -> int:
        """Fewest loose points of ``mask`` once one card may be dropped for free
        (the discard): ``min(loose(mask - e))`` over the cards ``e``."""
        return self._free(mask, 0, self._fp, self._points)

    def _free_count(self, mask: int) -> int:
        """Like :meth:`_free_points` for the (loose cards, loose points) minimum."""
        return self._free(mask, LOOSE_CARD, self._fc, self._count)

    def _free(self, mask: int, unit: int, memo: dict[int, int], covers: dict[int, int]) -> int:
        """:meth:`_cover` with one card dropped for free: the lowest card is
        dropped, loose, or in one of the melds it starts."""
        got = memo.get(mask)
        if got is not None:
            return got
        low = mask & -mask
        i = low.bit_length() - 1
        rest = mask ^ low
        best = self._cover(rest, unit, covers)  # drop this card
        v = unit + self.values[i] + (self._free(rest, unit, memo, covers) if rest else 0)
        if v < best:
            best = v
        for m in self.melds_low[i]:
            if m & mask == m:
                v = self._free(mask ^ m, unit, memo, covers) if m != mask else 0
                if v < best:
                    best = v
        memo[mask] = best
        return best

    def eight_mask(self, mask: int) -> tuple[int, bool, int | None]:
        """For eight distinct plain cards: the fewest loose points after the
        best discard, whether some discard leaves a legal close, and the best
        closing score (exact, without trying each discard)."""
        if len(self._fp) > _CACHE_LIMIT:
            self._fp.clear()
            self._fc.clear()
        loose = self._free_points(mask)
        if self.one_card:
            fc = self._free_count(mask)
            if fc >= 2 * LOOSE_CARD or (fc >= LOOSE_CARD and fc - LOOSE_CARD > self.close_max):
                return loose, False, None
            if fc >= LOOSE_CARD:
                return loose, True, fc - LOOSE_CARD
        elif loose > self.close_max:
            return loose, False, None
        elif loose:
            return loose, True, loose
        if self.chinchon != self.bonus:
            m = mask
            while m:
                low = m & -m
                m ^= low
                if mask ^ low in self.runs7:
                    return loose, True, self.chinchon
        return loose, True, self.bonus

    def keep_mask(self, mask: int) -> int:
        """The seven of eight plain cards with the fewest loose points."""
        target = self._free_points(mask)
        m = mask
        while m:
            low = m & -m
            i = low.bit_length() - 1
            rest = m ^ low
            if self.points_of_mask(rest) == target:
                return mask ^ low  # the card dropped is the discard
            if rest and self.values[i] + self._free_points(rest) == target:
                target -= self.values[i]
                m = rest
                continue
            for meld in self.melds_low[i]:
                if meld & m == meld and meld != m and self._free_points(m ^ meld) == target:
                    m ^= meld
                    break
            else:
                break
        # Everything melded: drop a card that leaves seven melded.
        b = mask
        while b:
            low = b & -b
            b ^= low
            if self.points_of_mask(mask ^ low) == 0:
                return mask ^ low
        return mask ^ (mask & -mask)

    def joins(self, mask: int, card: Card) -> bool:
        """Whether ``card`` makes a meld with some of the cards of ``mask``."""
        rests = self.meld_rests[self.bit[card].bit_length() - 1]
        return any(m & mask == m for m in rests)

    def with_card(self, mask: int, card: Card) -> tuple[int, bool]:
        """(loose points after the best discard, closes?) of the seven cards of
        ``mask`` and ``card`` (plain, not among them): :meth:`eight_mask`,
        without the search when the card joins no meld (it stays loose unless thrown)."""
        if self.joins(mask, card):
            loose, closes, _ = self.eight_mask(mask | self.bit[card])
            return loose, closes
        value = self.values[self.bit[card].bit_length() - 1]
        loose = min(self.points_of_mask(mask), self._free_points(mask) + value)
        return loose, self.mask_can_close(mask) or value <= self._room(mask)

    def _room(self, mask: int) -> int:
        """The most a loose card added to the seven of ``mask`` (one of them
        thrown) may count for a legal close (-1: none may)."""
        if self.one_card:  # only if six of them meld
            return self.close_max if self._free_count(mask) == 0 else -1
        return self.close_max - self._free_points(mask)

    def closing_draws(self, mask: int, cards: Sequence[Card]) -> int:
        """How many of ``cards`` (plain, none in ``mask``) would let the seven
        cards of ``mask`` close once drawn.  A card that makes a meld with
        none of them stays loose whichever card goes down, so only the
        others need the search: the rest is a sum."""
        if self.mask_can_close(mask):
            return len(cards)  # throw the card drawn
        bit, rests, values = self.bit, self.meld_rests, self.values
        room = self._room(mask)
        n = 0
        for c in cards:
            b = bit[c]
            i = b.bit_length() - 1
            for m in rests[i]:
                if m & mask == m:
                    n += self.eight_mask(mask | b)[1]
                    break
            else:
                n += values[i] <= room
        return n

    def solve_eight(
        self, eight: list[Card], players: int | None = None
    ) -> tuple[tuple[Card, ...], int, bool, int | None]:
        """(the seven kept, their loose points, closes?, best close score) of eight
        cards, through the engine (wild cards, copies).  Each discard ``e`` leaves
        at least ``loose(eight) - value(e)`` loose points (add ``e`` back, loose,
        to the seven), so the discards are tried from the lowest of that bound and
        a discard is skipped when its bound can neither beat the best seven found
        nor leave a legal close: the answer is the one trying all eight gives.
        The seven kept leaves the fewest loose points; ties throw the higher
        card, then the later one (the discards come in that order)."""
        value = self.rules.value
        floor = self.loose(eight)
        bound = self.close_bound
        options = sorted((floor - value(e), -value(e), e) for e in set(eight))
        best_key: tuple | None = None
        keep: list[Card] = eight[:7]
        loose = 0
        closes = False
        score: int | None = None
        for low, minus, e in options:
            worth_seven = best_key is None or low < best_key[0]
            worth_close = bound is None or low <= bound
            if not (worth_seven or worth_close):
                continue
            rest = list(eight)
            rest.remove(e)
            points = self.loose(rest)
            key = (points, minus, e)
            if best_key is None or key < best_key:
                best_key, keep, loose = key, rest, points
            if bound is None or points <= bound:
                s = self.close_score(rest, players)
                if s is not None:
                    closes = True
                    if score is None or s < score:
                        score = s
        return (tuple(sorted(keep)), loose, closes, score)

    # -- closing ------------------------------------------------------------------
    def mask_can_close(self, mask: int) -> bool:
        """Whether the seven cards of ``mask`` may be shown in a close."""
        if self.one_card:
            v = self._count_points(mask)
            return v < LOOSE_CARD or (v < 2 * LOOSE_CARD and v - LOOSE_CARD <= self.close_max)
        return self.points_of_mask(mask) <= self.close_max

    def mask_close_score(self, mask: int) -> int | None:
        """The closer's score for these seven kept cards (None: not legal).

        A genuine Chinchón scores ``-1000`` when it wins the match (a marker,
        not points), else what the rules give."""
        if not self.mask_can_close(mask):
            return None
        points = self.points_of_mask(mask)
        if points:
            return points
        return self.chinchon if mask in self.runs7 else self.bonus

    def close_score(self, kept: Sequence[Card], players: int | None = None) -> int | None:
        """What showing these seven kept cards in a close scores (-1000: a
        Chinchón that wins the match); None when they may not close (the
        first-round rule aside)."""
        if self.is_plain(kept):
            return self.mask_close_score(self.mask(kept))
        verdict = check_close(list(kept), self.rules, players=players)
        if not verdict.legal:
            return None
        return -1000 if verdict.wins_match else verdict.score


_EVALS: dict[Rules, HandEval] = {}


def evaluator(rules: Rules) -> HandEval:
    """The shared evaluator for these rules (built once per rules value)."""
    ev = _EVALS.get(rules)
    if ev is None:
        if len(_EVALS) > 32:
            _EVALS.clear()
        ev = _EVALS[rules] = HandEval(rules)
    return ev
