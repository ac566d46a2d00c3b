"""Seeded matches between two computer players.

    python -m companion.bots.arena expert simple --matches 400 --preset classic --seed 1
    python -m companion.bots.arena mybot good --bot mypackage.players:MyBot --players 3
    python -m companion.bots.arena expert good --players 4 --decks 2 --jokers 4 --think-ms 100

``A`` and ``B`` are names from :data:`companion.bots.BOTS`, names given by
``--bot module:Class`` (the class's ``name``), or ``module:Class`` directly.
Heads-up, A and B swap seats every match (A deals first in even matches).
With ``--players K`` one A plays K-1 copies of B, A's seat moving round the
table; a fair share is then 1/K.  Prints A's match-win share with a 95 %
Wilson interval (a shared win counts as a share) and each bot's decision
time (p50/p95 over every ``choose_draw``/``choose_end`` call), using at
most two processes; also the points per closed hand of A and of each B (a
finer measure than match wins: lower is better).  ``--decks`` and
``--jokers`` change the preset's rules; ``--think-ms`` sets the thinking
budget of the bots that take one (the expert; its default otherwise).
"""

from __future__ import annotations

import argparse
import inspect
import math
import multiprocessing
import random
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass

from ..rules import Card, get_rules
from . import BOTS
from .auto import play_match
from .protocol import Bot, Source, load_bot
from .view import SeatView


class Timed:
    """A bot that records how long each decision takes."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)
        self.times: list[float] = []

    def choose_draw(self, view: SeatView) -> Source:
        t0 = time.perf_counter()
        try:
            return self.bot.choose_draw(view)
        finally:
            self.times.append(time.perf_counter() - t0)

    def choose_end(self, view: SeatView) -> tuple[Card, bool]:
        t0 = time.perf_counter()
        try:
            return self.bot.choose_end(view)
        finally:
            self.times.append(time.perf_counter() - t0)


@dataclass
class MatchOutcome:
    share: float  # A's share of the win (0, 1, or a split)
    hands: int
    closed: int
    times_a: list[float]
    times_b: list[float]
    points_a: int = 0  # A's points over the closed hands
    points_b: float = 0.0  # the Bs' points over the closed hands, per B


def resolve(name: str, extra: dict[str, type]) -> type:
    if name in extra:
        return extra[name]
    if name in BOTS:
        return BOTS[name]
    if ":" in name:
        return load_bot(name)
    raise SystemExit(f"Unknown bot {name!r}: choose from {', '.join([*BOTS, *extra])} or give module:Class.")


def build(cls: type, think_ms: float | None) -> Bot:
    """A bot of class ``cls``, with the thinking budget ``think_ms`` if it takes one."""
    if think_ms is not None and "think_ms" in inspect.signature(cls).parameters:
        return cls(think_ms=think_ms)
    return cls()


def play_one(args: tuple) -> MatchOutcome:
    cls_a, cls_b, preset, seed, index, players, overrides, think_ms = args
    rules = get_rules(preset, **overrides)
    rng = random.Random(f"{seed}:{index}")
    a, bs = Timed(build(cls_a, think_ms)), [Timed(build(cls_b, think_ms)) for _ in range(players - 1)]
    seat_a = index % players
    names = [f"B{k}" for k in range(players - 1)]
    names.insert(seat_a, "A")
    bots = {"A": a} | {f"B{k}": b for k, b in enumerate(bs)}
    log = play_match(rules, names, bots, rng)
    winners = log.state.winners
    share = winners.count("A") / len(winners) if winners else 0.0
    hands = [e["hand"] for e in log.events if "hand" in e]
    points_a = sum(h.get("A", 0) for h in hands)
    points_b = sum(sum(v for n, v in h.items() if n != "A") / max(1, len(h) - ("A" in h)) for h in hands)
    return MatchOutcome(share, log.hands, log.closed, a.times, [t for b in bs for t in b.times], points_a, points_b)


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share ``p`` over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(
    a: str,
    b: str,
    *,
    matches: int,
    preset: str,
    seed: int,
    players: int = 2,
    extra: dict[str, type] | None = None,
    jobs: int = 2,
    progress: int = 0,
    overrides: dict | None = None,
    think_ms: float | None = None,
) -> dict:
    """Play the matches; ``progress``: print A's share so far every that many
    matches; ``overrides``: rules changed from the preset (``decks``, ``jokers``)."""
    extra = extra or {}
    cls_a, cls_b = resolve(a, extra), resolve(b, extra)
    work = [(cls_a, cls_b, preset, seed, i, players, overrides or {}, think_ms) for i in range(matches)]
    jobs = max(1, min(2, jobs))
    t0 = time.perf_counter()
    outcomes: list[MatchOutcome] = []
    with multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else nullcontext() as pool:
        played = pool.imap(play_one, work, chunksize=max(1, matches // (8 * jobs))) if pool else map(play_one, work)
        for outcome in played:
            outcomes.append(outcome)
            if progress and len(outcomes) % progress == 0 and len(outcomes) < matches:
                n = len(outcomes)
                share = sum(o.share for o in outcomes) / n
                low, high = wilson(share, n)
                print(
                    f"  {n} matches: {a} {share:.1%} [95% {low:.1%}–{high:.1%}], {time.perf_counter() - t0:.0f} s",
                    flush=True,
                )
    elapsed = time.perf_counter() - t0
    share = sum(o.share for o in outcomes) / matches
    low, high = wilson(share, matches)
    times_a = [t for o in outcomes for t in o.times_a]
    times_b = [t for o in outcomes for t in o.times_b]
    hands = sum(o.hands for o in outcomes)
    closed = sum(o.closed for o in outcomes)
    return {
        "a": a,
        "b": b,
        "preset": preset,
        "players": players,
        "matches": matches,
        "share": share,
        "low": low,
        "high": high,
        "hands": hands,
        "closed": closed / hands if hands else 0.0,
        "a_points": sum(o.points_a for o in outcomes) / closed if closed else 0.0,
        "b_points": sum(o.points_b for o in outcomes) / closed if closed else 0.0,
        "a_p50_ms": percentile(times_a, 0.5) * 1000,
        "a_p95_ms": percentile(times_a, 0.95) * 1000,
        "b_p50_ms": percentile(times_b, 0.5) * 1000,
        "b_p95_ms": percentile(times_b, 0.95) * 1000,
        "seconds": elapsed,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m companion.bots.arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", action="append", default=[], metavar="module:Class", help="load a bot class")
    parser.add_argument("--jobs", type=int, default=2, help="processes (at most 2)")
    parser.add_argument("--progress", type=int, default=0, metavar="N", help="print the share so far every N matches")
    parser.add_argument("--decks", type=int, help="decks (the preset's otherwise)")
    parser.add_argument("--jokers", type=int, help="jokers (the preset's otherwise)")
    parser.add_argument("--think-ms", type=float, help="thinking budget per decision of the bots that take one")
    args = parser.parse_args(argv)
    overrides = {k: v for k, v in (("decks", args.decks), ("jokers", args.jokers)) if v is not None}
    extra: dict[str, type] = {}
    for spec in args.bot:
        cls = load_bot(spec)
        extra[getattr(cls, "name", cls.__name__)] = cls
        extra[spec] = cls
    r = run(
        args.a,
        args.b,
        matches=args.matches,
        preset=args.preset,
        seed=args.seed,
        players=args.players,
        extra=extra,
        jobs=args.jobs,
        progress=args.progress,
        overrides=overrides,
        think_ms=args.think_ms,
    )
    fair = f" (fair share {1 / r['players']:.0%})" if r["players"] > 2 else ""
    rules = "".join(f", {k} {v}" for k, v in overrides.items())
    budget = "" if args.think_ms is None else f", think {args.think_ms:g} ms"
    print(
        f"{r['a']} vs {r['b']}, {r['preset']}{rules}{budget}, {r['players']} players, {r['matches']} matches, seed {args.seed}: "
        f"{r['a']} wins {r['share']:.1%} [95% {r['low']:.1%}–{r['high']:.1%}]{fair}"
    )
    print(f"hands {r['hands']}, closed {r['closed']:.1%}, {r['seconds']:.0f} s")
    print(f"points per closed hand: {r['a']} {r['a_points']:.2f}, {r['b']} {r['b_points']:.2f}")
    print(f"decision time {r['a']}: p50 {r['a_p50_ms']:.1f} ms, p95 {r['a_p95_ms']:.1f} ms")
    print(f"decision time {r['b']}: p50 {r['b_p50_ms']:.1f} ms, p95 {r['b_p95_ms']:.1f} ms")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
