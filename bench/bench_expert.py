"""The expert's decision time at its real thinking budget, and the hint's and the review's.

    python bench/bench_expert.py [--hands 12] [--think-ms 250]

Plays seeded hands of the expert (``--think-ms``, the app's
``PLAY_BOT_THINK_MS``) against the good player and times every decision
(``choose_draw`` and ``choose_end``): classic heads-up, classic at four
players, and two decks with four jokers at four players.  Prints p50, p95
and max per case (target: p95 ≤ the budget).  Then, on the classic hands
played, the hint of every position (:func:`companion.bots.advice.hint`) and
the review of every hand (:func:`companion.bots.review.review_hand`, which
judges with the expert's table model).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.bots import ExpertBot, GoodBot, bot_turn, seat_view  # noqa: E402
from companion.bots.advice import hint  # noqa: E402
from companion.bots.arena import percentile  # noqa: E402
from companion.bots.review import review_hand  # noqa: E402
from companion.rules import get_rules  # noqa: E402
from companion.rules.game import HandGame, Phase  # noqa: E402

CASES = [
    ("classic, 2 players", get_rules("classic"), 2),
    ("classic, 4 players", get_rules("classic"), 4),
    ("2 decks + 4 jokers, 4 players", get_rules("classic", decks=2, jokers=4), 4),
]


class Timed:
    """A bot whose decisions are timed: wall clock and this process's CPU time
    (on a shared machine the CPU time is what the decision costs)."""

    def __init__(self, bot) -> None:
        self.bot = bot
        self.times: list[float] = []
        self.cpu: list[float] = []

    def _timed(self, ask, view):
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            return ask(view)
        finally:
            self.times.append(time.perf_counter() - t0)
            self.cpu.append(time.process_time() - c0)

    def choose_draw(self, view):
        return self._timed(self.bot.choose_draw, view)

    def choose_end(self, view):
        return self._timed(self.bot.choose_end, view)


def play(rules, players: int, seed: int, think_ms: float) -> tuple[HandGame, Timed, list[float]]:
    """One hand, the expert in the last seat; the expert's decision times and the hints' times."""
    game = HandGame.deal(rules, players, dealer=players - 1, rng=random.Random(seed))
    try:
        expert = Timed(ExpertBot(seed=seed, think_ms=think_ms))
    except TypeError:  # an expert without a budget (measuring the one before it)
        expert = Timed(ExpertBot(seed=seed))
    bots = [GoodBot() if s < players - 1 else expert for s in range(players)]
    rng = random.Random(seed + 1)
    hints = []
    for _ in range(400):
        if game.phase == Phase.OVER:
            break
        if game.turn == players - 1:
            start = time.perf_counter()
            hint(seat_view(game, game.turn), seed=seed)
            hints.append(time.perf_counter() - start)
        bot_turn(game, bots[game.turn], rng)
    return game, expert, hints


def ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--think-ms", type=float, default=250.0)
    args = parser.parse_args()
    print(f"expert decisions, budget {args.think_ms:.0f} ms, {args.hands} hands per case:")
    classic: list[HandGame] = []
    hints: list[float] = []
    for label, rules, players in CASES:
        times: list[float] = []
        cpu: list[float] = []
        for seed in range(args.hands):
            game, took, asked = play(rules, players, seed, args.think_ms)
            times += took.times
            cpu += took.cpu
            if players == 2:
                classic.append(game)
                hints += asked
        print(
            f"  {label:32} {len(times):4} decisions: p50 {ms(times, 0.5):6.1f} ms  p95 {ms(times, 0.95):6.1f} ms"
            f"  max {ms(times, 1.0):6.1f} ms"
        )
        print(
            f"  {'  (CPU time)':32} {'':4}            p50 {ms(cpu, 0.5):6.1f} ms  p95 {ms(cpu, 0.95):6.1f} ms  max {ms(cpu, 1.0):6.1f} ms"
        )
    print(
        f"hint (classic, 2 players), {len(hints)} positions: p50 {ms(hints, 0.5):.1f} ms  "
        f"p95 {ms(hints, 0.95):.1f} ms  max {ms(hints, 1.0):.1f} ms"
    )
    reviews, review_cpu = [], []
    for game in classic:
        start, cpu0 = time.perf_counter(), time.process_time()
        review_hand(game)
        reviews.append(time.perf_counter() - start)
        review_cpu.append(time.process_time() - cpu0)
    print(
        f"review (classic, 2 players, every seat), {len(reviews)} hands: p50 {statistics.median(reviews) * 1000:.0f} ms"
        f"  max {max(reviews) * 1000:.0f} ms  (CPU p50 {statistics.median(review_cpu) * 1000:.0f} ms"
        f"  max {max(review_cpu) * 1000:.0f} ms)"
    )


if __name__ == "__main__":
    main()
