"""The points of a closed hand, for the heads-up match equity (companion/bots/equity.py).

    python bench/bench_equity.py [--hands 3000] [--a good] [--b good] [--preset classic]

Plays heads-up hands between two bots and prints, per closed hand, the
share of the non-closer's points, 0 alone and in buckets of five (the
table ``LOSER_POINTS`` holds), and the closer's mean score.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from companion.bots import BOTS, play_hand
from companion.rules import get_rules
from companion.rules.game import HandGame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--a", default="good")
    parser.add_argument("--b", default="good")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = get_rules(args.preset)
    rng = random.Random(args.seed)
    bots = [BOTS[args.a](), BOTS[args.b]()]
    losers: Counter[int] = Counter()
    closers = []
    for h in range(args.hands):
        game = HandGame.deal(rules, 2, h % 2, rng)
        result = play_hand(game, bots, rng)
        if result is None:
            continue
        for seat, r in enumerate(result.results):
            if seat == game.closer:
                closers.append(r.points)
            else:
                losers[-1 if r.points == 0 else min(50, 5 * (r.points // 5))] += 1
    n = sum(losers.values())
    print(f"{args.preset}, {args.a} and {args.b}, {args.hands} hands, {n} closed")
    print("non-closer's points (fewest, most, share):")
    rows = [(0, 0) if k < 0 else (max(1, k), k + 4 if k < 50 else 999) for k in sorted(losers)]
    print(
        "    "
        + ", ".join(f"({lo}, {hi}, {losers[k] / n:.3f})" for (lo, hi), k in zip(rows, sorted(losers), strict=True))
    )
    print(f"closer's mean score {sum(closers) / len(closers):.2f}")


if __name__ == "__main__":
    main()
