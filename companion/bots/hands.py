"""Fast, memoised hand evaluation for computer players and the advisor.

The bots ask the same few questions thousands of times per decision: how
many points does this hand leave loose, could these eight cards close.  For
hands of distinct real cards without wild cards (every preset with one deck)
a :class:`HandEval` answers from a table of every meld of the pack — each
meld confirmed once by the engine's own :func:`~companion.rules.best_melds`,
so the meld rules stay in ``companion.rules`` — and a search over bitmasks
memoised across calls.  Any other hand (jokers, wild cards, two copies of a
card) goes to the engine itself, memoised too.  Tests check both paths
against the engine.

>>> from companion.rules import get_rules, parse_cards
>>> ev = evaluator(get_rules("classic"))
>>> ev.loose(parse_cards("5b 5c 5e 4o 12o 2c 1c"))
17
>>> ev.can_close(parse_cards("11c 11e 11b 5o 6o 7o 3c"))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..rules import SUITS, Card, Rules, best_melds, check_close
from ..rules.variants import CloseRule

_CACHE_LIMIT = 1 << 19
#: What one loose card weighs in the (loose cards, loose points) order: more than any points.
LOOSE_CARD = 4096


class HandEval:
    """Loose points and close legality of hands under one set of rules."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        deck = rules.pack
        self.cards: list[Card] = deck.cards()
        self.bit = {c: 1 << i for i, c in enumerate(self.cards)}
        self.values = [rules.value(c) for c in self.cards]
        self.plain = not rules.jokers and not rules.wild_cards
        self.one_card = rules.close_rule == CloseRule.ONE_CARD
        self.close_max = rules.close_max
        self.bonus = rules.all_combined_bonus
        self.melds_low: list[list[int]] = [[] for _ in self.cards]
        self.runs7: set[int] = set()
        if self.plain:
            self._build_melds()
        self._points: dict[int, int] = {0: 0}
        self._count: dict[int, int] = {0: 0}
        self._slow: dict[tuple, int] = {}
        self._fp: dict[int, int] = {}
        self._fc: dict[int, int] = {}
        #: Room for callers' own memos over these rules (e.g. the expert's lookahead).
        self.memo: dict[str, dict] = {}

    # -- the meld table ------------------------------------------------------
    def _build_melds(self) -> None:
        rules = self.rules
        ranks = rules.pack.ranks
        groups: list[tuple[Card, ...]] = []
        for rank in ranks:
            same = [Card(rank, s) for s in SUITS]
            groups += [g for k in (3, 4) for g in combinations(same, k)]
        for suit in SUITS:
            line = [Card(r, suit) for r in ranks]
            groups += [tuple(line[a : a + k]) for k in range(3, 9) for a in range(len(line) - k + 1)]
        for group in groups:
            arrangement = best_melds(group, rules, copies=1)
            if arrangement.points or len(arrangement.melds) != 1:
                continue  # not one meld under these rules
            mask = self.mask(group)
            low = (mask & -mask).bit_length() - 1
            self.melds_low[low].append(mask)
            if len(group) == 7 and len({c.suit for c in group}) == 1:
                self.runs7.add(mask)

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
        got = self._slow.get(key)  # type: ignore[arg-type]
        if got is None:
            got = self._slow[key] = len(best_melds(list(cards), self.rules, copies=2).deadwood)  # type: ignore[index]
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
        score = self.bonus
        chinchon = self.rules.chinchon
        if self.runs7 and chinchon != "none":
            m = mask
            while m:
                low = m & -m
                m ^= low
                if mask ^ low in self.runs7:
                    score = -1000 if chinchon == "wins_match" else chinchon  # type: ignore[assignment]
                    break
        return loose, True, score

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
        if mask in self.runs7:
            chinchon = self.rules.chinchon
            if chinchon == "wins_match":
                return -1000
            if isinstance(chinchon, int):
                return chinchon
        return self.bonus

    def can_close(self, kept: Sequence[Card], players: int | None = None) -> bool:
        """Whether these seven kept cards may be shown in a close (not the first-round rule)."""
        if self.is_plain(kept):
            return self.mask_can_close(self.mask(kept))
        return check_close(list(kept), self.rules, players=players).legal

    def close_score(self, kept: Sequence[Card], players: int | None = None) -> int | None:
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
