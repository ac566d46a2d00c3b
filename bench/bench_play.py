"""Computer players against each other, for every preset.

    python bench/bench_play.py [--hands 1000]

Prints hands per second, the share of hands ended by a close (the rest ran
out of cards), the average hand length in turns, match winners by bot
strength, and whether every match's totals agree with replay_match.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from companion.bots import GoodBot, SimpleBot, play_match
from companion.rules import get_rules, replay_match


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1000, help="hands per preset (whole matches until reached)")
    args = parser.parse_args()
    rng = random.Random(2026)
    names = ["good-1", "simple-1", "good-2", "simple-2"]
    print(
        f"{'preset':<10} {'hands':>6} {'hands/s':>8} {'closed':>7} {'turns/hand':>11} {'matches':>8} {'won by good':>12} {'replay ok':>10}"
    )
    for preset in ("classic", "fournier", "sweden", "italy"):
        rules = get_rules(preset)
        hands = closed = turns = matches = agree = 0
        wins: Counter = Counter()
        t0 = time.perf_counter()
        while hands < args.hands:
            bots = {n: GoodBot() if n.startswith("good") else SimpleBot() for n in names}
            log = play_match(rules, names, bots, rng)
            hands += log.hands
            closed += log.closed
            turns += log.turns
            matches += 1
            agree += replay_match(names, log.events, rules).totals == log.state.totals
            for w in log.state.winners:
                wins[w.split("-")[0]] += 1 / len(log.state.winners)
        elapsed = time.perf_counter() - t0
        good = wins["good"] / matches
        print(
            f"{preset:<10} {hands:>6} {hands / elapsed:>8.1f} {closed / hands:>7.0%} {turns / hands:>11.1f} "
            f"{matches:>8} {good:>12.0%} {agree}/{matches:>6}"
        )


if __name__ == "__main__":
    main()
