"""Heads-up match equity: the chance to win the match from the two totals.

Each hand somebody closes, scoring about nothing, and the other player adds
points drawn from :data:`LOSER_POINTS` (measured).  A player goes out once
their total passes the target (or reaches it, with ``eliminate: "reach"``),
so from a total each player can lose a number of hands before going out;
with either player as likely to close any hand, whoever runs out of hands
first loses the match.  The expert plays heads-up matches by this chance:
points that bring the opponent near the target are worth more than points
early on, points that bring itself there cost more.

>>> eq = equity(100, reach=False)
>>> round(eq(0, 0), 3)
0.5
>>> eq(101, 50), eq(50, 101), eq(20, 90) > 0.75
(0.0, 1.0, True)
>>> 100 < eq.points < 200
True
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

#: The points of the player who did not close, per closed hand: (fewest,
#: most, share) for 0 alone and buckets of five, each spread evenly over its
#: points; bench/bench_equity.py, good against good, classic, 2000 hands
#: (mean 11.5 points; the closer's -0.24).
LOSER_POINTS: tuple[tuple[int, int, float], ...] = (
    (0, 0, 0.002),
    (1, 4, 0.162),
    (5, 9, 0.388),
    (10, 14, 0.193),
    (15, 19, 0.092),
    (20, 24, 0.075),
    (25, 29, 0.044),
    (30, 34, 0.028),
    (35, 39, 0.012),
    (40, 44, 0.005),
    (45, 49, 0.001),
)
#: Hands lost counted at most (24 losses adding up to less than 140 points
#: happen far less than once in 10**6).
MOST_LOSSES = 24
#: The lowest total tracked (totals fall with every −10).
LOWEST = -40


class Equity:
    """``equity(mine, theirs)``: the chance that the player at ``mine`` wins."""

    def __init__(self, target: int, reach: bool) -> None:
        self.last_in = target - 1 if reach else target  # the highest total still in
        span = self.last_in - LOWEST
        # at_most[k][r]: the chance that k lost hands add at most r points.
        loss = [
            (x, share / (most - fewest + 1)) for fewest, most, share in LOSER_POINTS for x in range(fewest, most + 1)
        ]
        pmf = [1.0] + [0.0] * span
        self.at_most = [[1.0] * (span + 1)]
        for _ in range(MOST_LOSSES):
            nxt = [0.0] * (span + 1)
            for r, p in enumerate(pmf):
                if p:
                    for x, share in loss:
                        if r + x <= span:
                            nxt[r + x] += p * share
            pmf = nxt
            running = 0.0
            row = []
            for p in pmf:
                running += p
                row.append(running)
            self.at_most.append(row)
        # race[i][j]: the chance that the opponent loses j hands before the player loses i.
        self.race = [
            [
                sum(comb(i + j - 1, m) for m in range(j, i + j)) / 2 ** (i + j - 1) if i and j else 0.0
                for j in range(MOST_LOSSES + 1)
            ]
            for i in range(MOST_LOSSES + 1)
        ]
        self._memo: dict[tuple[int, int], float] = {}
        #: What the match is worth in points: a point at the start of a match
        #: then weighs one (the expert's values stay roughly points).
        self.points = 20 / (self(0, 10) - self(10, 0))

    def lives(self, total: int) -> list[float]:
        """``[i]``: the chance that the i-th hand lost from ``total`` puts the player out."""
        room = min(self.last_in - max(total, LOWEST), self.last_in - LOWEST)
        at_most = self.at_most
        out = [0.0] + [at_most[i - 1][room] - at_most[i][room] for i in range(1, MOST_LOSSES + 1)]
        out[MOST_LOSSES] += at_most[MOST_LOSSES][room]
        return out

    def __call__(self, mine: int, theirs: int) -> float:
        last = self.last_in
        if mine > last or theirs > last:
            if mine > last and theirs > last:
                return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
            return 0.0 if mine > last else 1.0
        key = (mine, theirs)
        got = self._memo.get(key)
        if got is None:
            a, b, race = self.lives(mine), self.lives(theirs), self.race
            got = sum(pa * sum(pb * r for pb, r in zip(b, race[i], strict=True)) for i, pa in enumerate(a) if pa)
            self._memo[key] = got
        return got


@lru_cache(maxsize=8)
def equity(target: int, reach: bool) -> Equity:
    """The shared table for one target and elimination rule."""
    return Equity(target, reach)
