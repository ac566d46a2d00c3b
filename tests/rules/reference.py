"""A small brute-force reference for the rules, written independently of the
engine: plain lists of (rank, suit) tuples, every partition tried.  Slow and
obvious on purpose; the property tests compare the fast solver with it."""

from __future__ import annotations

from itertools import combinations, permutations

RANKS = {
    "spanish40": [1, 2, 3, 4, 5, 6, 7, 10, 11, 12],
    "spanish48": list(range(1, 13)),
    "french52": list(range(1, 14)),
}
JOKER = (0, "*")


class Ref:
    def __init__(self, rules):
        self.r = rules
        self.ranks = RANKS[rules.deck]
        self.wild = {(c.rank, c.suit.value) for c in rules.wild_cards}

    def value(self, card):
        rank, suit = card
        if suit == "*":
            return self.r.joker_points
        courts = {"spanish40": (10, 11, 12), "spanish48": (10, 11, 12), "french52": (11, 12, 13)}[self.r.deck]
        if rank not in courts:
            return rank
        if self.r.court_values == "ten":
            return 10
        return {10: 8, 11: 9, 12: 10}[rank] if self.r.deck == "spanish40" else rank

    def points(self, cards):
        return sum(self.value(c) for c in cards)

    def meld_wilds(self, cards):
        """Fewest cards acting as wild over the assignments that make a meld, or None."""
        if len(cards) < 3:
            return None
        best = None
        flexible = [i for i, c in enumerate(cards) if c in self.wild]
        for k in range(len(flexible) + 1):
            for acting in combinations(flexible, k):
                natural = [c for i, c in enumerate(cards) if c != JOKER and i not in acting]
                wilds = len(cards) - len(natural)
                if len(natural) < max(1, self.r.min_real_cards):
                    continue
                if self.r.max_wilds_per_meld is not None and wilds > self.r.max_wilds_per_meld:
                    continue
                ranks = {c[0] for c in natural}
                suits = [c[1] for c in natural]
                is_set = len(cards) <= 4 and len(ranks) == 1 and len(set(suits)) == len(suits)
                is_run = False
                if len(set(suits)) == 1 and len(cards) <= len(self.ranks):
                    pos = sorted(self.ranks.index(c[0]) for c in natural)
                    is_run = len(set(pos)) == len(pos) and pos[-1] - pos[0] + 1 - len(pos) <= wilds
                if (is_set or is_run) and (best is None or wilds < best):
                    best = wilds
        return best

    def partitions(self, cards):
        """Every way to pick disjoint melds: yields (melds, deadwood)."""
        cards = list(cards)

        def rec(rest, melds):
            if not rest:
                yield melds, []
                return
            first, others = rest[0], rest[1:]
            for melds2, dead in rec(others, melds):  # the first card left loose
                yield melds2, [first, *dead]
            for size in range(2, len(others) + 1):  # or in a meld with others
                for combo in combinations(range(len(others)), size):
                    group = [first] + [others[i] for i in combo]
                    if self.meld_wilds(group) is not None:
                        left = [c for i, c in enumerate(others) if i not in combo]
                        yield from rec(left, [*melds, group])

        seen = set()
        for melds, dead in rec(cards, []):
            key = (tuple(sorted(tuple(sorted(m)) for m in melds)), tuple(sorted(dead)))
            if key not in seen:
                seen.add(key)
                yield melds, dead

    def best_points(self, cards):
        return min(self.points(dead) for _, dead in self.partitions(cards))

    def close(self, cards, first_round=False):
        """(legal, score, wins_match) of the best close, by brute force."""
        keeps = [cards] if len(cards) == 7 else [cards[:i] + cards[i + 1 :] for i in range(len(cards))]
        best = None
        for kept in keeps:
            for melds, dead in self.partitions(kept):
                pts = self.points(dead)
                if self.r.close_rule == "one_card":
                    ok = len(dead) == 0 or (len(dead) == 1 and pts <= self.r.close_max)
                else:
                    ok = pts <= self.r.close_max
                ok = ok and not (first_round and not self.r.first_round_close)
                if not ok:
                    key = (1, 1, pts)
                else:
                    wins = False
                    if dead:
                        score = pts
                    else:
                        seven = len(melds) == 1 and len(melds[0]) == 7
                        w = self.meld_wilds(melds[0]) if seven else None
                        if seven and w == 0:
                            chin = self.r.chinchon
                            wins = chin == "wins_match"
                            score = chin if isinstance(chin, int) else self.r.all_combined_bonus
                        elif seven and self.r.joker_run_bonus and w <= len(self.r.joker_run_bonus):
                            score = self.r.joker_run_bonus[w - 1]
                        else:
                            score = self.r.all_combined_bonus
                    key = (0, 0 if wins else 1, score)
                if best is None or key < best:
                    best = key
        legal = best[0] == 0
        return legal, (best[2] if legal else None), legal and best[1] == 0

    def lowest_after_layoffs(self, hand, targets, run_limit=None):
        """A player's lowest points: own melds, then lay-offs one card at a
        time (any order) onto ``targets`` (lists of cards), each staying valid."""
        best = None
        for _melds, dead in self.partitions(hand):
            best_here = self._layoff_best(dead, [list(t) for t in targets], [len(t) for t in targets], run_limit)
            if best is None or best_here < best:
                best = best_here
        return best

    def _layoff_best(self, dead, targets, sizes, run_limit):
        best = self.points(dead)
        for i, card in enumerate(dead):
            for t, meld in enumerate(targets):
                grown = [*meld, card]
                if self.meld_wilds(grown) is None:
                    continue
                if run_limit is not None and len(grown) - sizes[t] > run_limit and not self._is_set(grown):
                    continue
                new_targets = [*targets[:t], grown, *targets[t + 1 :]]
                rest = dead[:i] + dead[i + 1 :]
                best = min(best, self._layoff_best(rest, new_targets, sizes, run_limit))
        return best

    def _is_set(self, cards):
        natural = [c for c in cards if c != JOKER and c not in self.wild]
        return len(cards) <= 4 and len({c[0] for c in natural}) <= 1 and len({c[1] for c in natural}) == len(natural)


def as_tuples(cards):
    return [(0, "*") if c.suit is None else (c.rank, c.suit.value) for c in cards]


__all__ = ["Ref", "as_tuples", "permutations"]
