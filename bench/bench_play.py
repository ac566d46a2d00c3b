"""Computer players against each other, for every preset.

    python bench/bench_play.py [--hands 1000] [--deadlock-hands 1000] [--skip-matches]

Prints hands per second, the share of hands ended by a close (the rest ran
out of cards), the average hand length in turns, match winners by bot
strength, and whether every match's totals agree with replay_match.

Then the deadlock check (issue #13): bot-only hands with 3 and 4 players
(good and simple players in turn, default rules of each preset), and the
share never closed within 400 turns — before (bots that keep only low cards
even once the stock has been reshuffled) and after (bots that then build
melds whatever the cards' points).  Target: at most 0.5 %.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from collections import Counter

from companion.bots import GoodBot, SimpleBot, play_hand, play_match
from companion.bots.auto import MAX_TURNS
from companion.rules import get_rules, replay_match
from companion.rules.game import HandGame

PRESETS = ("classic", "fournier", "sweden", "italy")


def never_closed(job: tuple[str, int, int, bool]) -> tuple[int, int, int]:
    """Hands never closed within MAX_TURNS, hands played, reshuffles seen."""
    preset, players, hands, break_deadlocks = job
    rules = get_rules(preset)
    rng = random.Random(f"deadlock:{preset}:{players}")
    open_hands = reshuffles = 0
    for k in range(hands):
        bots = [GoodBot() if i % 2 == 0 else SimpleBot() for i in range(players)]
        for bot in bots:
            bot.break_deadlocks = break_deadlocks
        game = HandGame.deal(rules, players, k % players, rng)
        if play_hand(game, bots, rng) is None:
            open_hands += 1
        reshuffles += game.reshuffles
    return open_hands, hands, reshuffles


def deadlocks(hands: int, before: bool = True) -> None:
    print(f"\nnever closed within {MAX_TURNS} turns, {hands} bot-only hands each (target <= 0.5 %)")
    print(f"{'preset':<10} {'players':>7} {'before':>8} {'after':>8} {'reshuffles/hand after':>22}")
    jobs = [(p, n, hands, flag) for p in PRESETS for n in (3, 4) for flag in ((False, True) if before else (True,))]
    jobs.sort(key=lambda j: -j[1])  # the long ones first
    with multiprocessing.get_context("fork").Pool(2) as pool:
        results = pool.map(never_closed, jobs, chunksize=1)
    table = dict(zip(jobs, results, strict=True))
    for preset in PRESETS:
        for n in (3, 4):
            old = table.get((preset, n, hands, False))
            after = table[(preset, n, hands, True)]
            shown = f"{old[0] / old[1]:>8.2%}" if old else f"{'-':>8}"
            print(f"{preset:<10} {n:>7} {shown} {after[0] / after[1]:>8.2%} {after[2] / after[1]:>22.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=1000, help="hands per preset (whole matches until reached)")
    parser.add_argument("--deadlock-hands", type=int, default=1000, help="bot-only hands per preset and table size")
    parser.add_argument("--skip-matches", action="store_true", help="only the deadlock check")
    parser.add_argument("--skip-before", action="store_true", help="only the bots as they play now")
    args = parser.parse_args()
    if not args.skip_matches:
        matches(args)
    deadlocks(args.deadlock_hands, before=not args.skip_before)


def matches(args: argparse.Namespace) -> None:
    rng = random.Random(2026)
    names = ["good-1", "simple-1", "good-2", "simple-2"]
    print(
        f"{'preset':<10} {'hands':>6} {'hands/s':>8} {'closed':>7} {'turns/hand':>11} {'matches':>8} {'won by good':>12} {'replay ok':>10}"
    )
    for preset in PRESETS:
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
