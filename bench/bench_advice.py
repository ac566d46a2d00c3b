"""The advisor: accuracy against enumeration, and the time a hint takes.

    python bench/bench_advice.py [--positions 12] [--hints 40]

1. Accuracy.  On positions small enough to enumerate every sequence of three
   draws (most of the pack counted as seen), prints the largest difference
   between the sampled ``close_within_3`` and the exact share, for several
   sample counts, and checks that ``close_next`` and ``expected_points`` are
   exact (difference 0).
2. Speed.  Times :func:`companion.bots.advice.hint` (what the digital play
   page computes, 200 samples) on seat views of dealt games close to
   closing, for three rule sets (classic 2 players; classic + 2 jokers,
   4 players; two decks, 8 players): p50/p95/worst in ms, before and after
   drawing.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time

from companion.bots import seat_view
from companion.bots.advice import advise, hint, unseen_cards
from companion.bots.hands import evaluator
from companion.rules import best_melds, check_close, get_rules
from companion.rules.game import HandGame, Phase, Source


def keep_best(eight, rules):
    options = []
    for e in set(eight):
        rest = list(eight)
        rest.remove(e)
        options.append(((best_melds(rest, rules, copies=2).points, -rules.value(e), e), rest))
    return min(options)[1]


def exact(rules, hand, seen):
    """Per discard: (close_next, expected_points, close_within_3) by plain enumeration."""
    unseen = unseen_cards(rules, hand, seen, 2)
    out = {}
    for d in dict.fromkeys(hand):
        kept = list(hand)
        kept.remove(d)
        nxt = sum(check_close([*kept, c], rules).legal for c in unseen) / len(unseen)
        pts = sum(best_melds(keep_best([*kept, c], rules), rules).points for c in unseen) / len(unseen)
        hits = total = 0
        for seq in itertools.permutations(range(len(unseen)), 3):
            k = kept
            total += 1
            for i in seq:
                eight = [*k, unseen[i]]
                if check_close(eight, rules).legal:
                    hits += 1
                    break
                k = keep_best(eight, rules)
        out[d] = (nxt, pts, hits / total)
    return out


def small_positions(rules, count, rng, unseen_left=9):
    """8-card hands with best melds covering at least four cards, all but ``unseen_left`` other cards seen."""
    cards = rules.pack.cards()
    out = []
    while len(out) < count:
        hand = rng.sample(cards, 8)
        if sum(map(len, best_melds(hand, rules).melds)) < 4:
            continue
        rest = [c for c in cards if c not in hand]
        rng.shuffle(rest)
        out.append((hand, rest[unseen_left:]))
    return out


def accuracy(positions: int) -> None:
    rules = get_rules("classic")
    rng = random.Random(11)
    cases = [(hand, seen, exact(rules, hand, seen)) for hand, seen in small_positions(rules, positions, rng)]
    rows = sum(len(ref) for _, _, ref in cases)
    print(f"accuracy over {positions} positions ({rows} discards, 9 unseen cards, every 3-draw sequence enumerated)")
    worst_exact = 0.0
    for samples in (200, 400, 1000, 4000):
        errors = []
        for i, (hand, seen, ref) in enumerate(cases):
            advice = advise(rules, hand, seen, samples=samples, seed=i)
            for row in advice.rows:
                nxt, pts, within = ref[row.discard]
                worst_exact = max(worst_exact, abs(row.close_next - nxt), abs(row.expected_points - pts))
                errors.append(abs(row.close_within_3 - within))
        print(
            f"  close_within_3 with {samples:>4} samples: mean |error| {statistics.mean(errors):.4f}, "
            f"worst {max(errors):.4f}"
        )
    print(f"  close_next and expected_points: largest difference from enumeration {worst_exact:.2e}")


def views(rules, players, count, rng, drawn):
    """Seat views of dealt games played on by drawing from the stock and throwing
    the card leaving the fewest loose points, taken once the seat's best melds
    cover at least four cards (the positions where a hint matters)."""
    ev = evaluator(rules)
    out = []
    while len(out) < count:
        game = HandGame.deal(rules, players, 0, rng)
        for _ in range(40):
            if game.phase == Phase.OVER:
                break
            seat = game.turn
            if game.phase == Phase.DRAW:
                hand = game.hands[seat]
                if not drawn and sum(map(len, best_melds(hand, rules).melds)) >= 4:
                    out.append(seat_view(game, seat))
                    break
                game.draw(seat, Source.STOCK, rng)
                continue
            hand = game.hands[seat]
            if drawn and sum(map(len, best_melds(hand, rules).melds)) >= 4:
                out.append(seat_view(game, seat))
                break
            throw = min(set(hand), key=lambda c: (ev.loose([x for x in hand if x is not c]), -rules.value(c)))
            game.discard(seat, throw)
    return out


def speed(count: int) -> None:
    print("hint (200 samples) on positions with at least four cards in melds:        p50 / p95 / worst ms")
    sets = [
        ("classic, 2 players", get_rules("classic"), 2),
        ("classic + 2 jokers, 4 players", get_rules("classic", jokers=2), 4),
        ("two decks, 8 players", get_rules("classic"), 8),
    ]
    for label, rules, players in sets:
        for drawn in (False, True):
            rng = random.Random(5)
            times = []
            for i, view in enumerate(views(rules, players, count, rng, drawn)):
                t0 = time.perf_counter()
                hint(view, seed=i)
                times.append(time.perf_counter() - t0)
            times.sort()
            phase = "after drawing " if drawn else "before drawing"
            print(
                f"  {label:<30} {phase}  {statistics.median(times) * 1000:6.0f} / "
                f"{times[int(len(times) * 0.95)] * 1000:4.0f} / {times[-1] * 1000:4.0f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--hints", type=int, default=40)
    args = parser.parse_args()
    accuracy(args.positions)
    speed(args.hints)


if __name__ == "__main__":
    main()
