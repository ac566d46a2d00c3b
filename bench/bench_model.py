"""The opponent model (companion/bots/model.py) checked against real deals.

    python bench/bench_model.py [--hands 300] [--opponent good] [--preset classic] [--samples 40] [--fit]

Heads-up hands, the expert against ``--opponent``.  After each of the
expert's discards (the opponent to move) the model reads the expert's view
and is compared with the opponent's real hand:

1. Cards: how often the card the model ranks likeliest in the opponent's
   hand is really there, against the share a uniform guess would hit.
   ``--fit`` also fits the evidence weights (TOOK, THREW, REFUSED: the log
   odds that one more piece of evidence adds to a card being held) by
   logistic regression over every unseen card of every position.
2. Closes: per turn of the opponent, the predicted chance that it closes at
   its next turn (the model's sampled hands, and the expert's older hazard
   for comparison) against how often it did.
3. Points: the opponent's loose points, predicted (mean over the samples)
   against the real hand.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from companion.bots import BOTS, ExpertBot, bot_turn, seat_view
from companion.bots import model as opponent_model
from companion.bots.expert import _Plan
from companion.bots.hands import evaluator
from companion.bots.model import OpponentModel, close_chance, refused_by
from companion.bots.players import near
from companion.rules import get_rules
from companion.rules.game import HandGame, Phase

BUCKETS = ((0, 1), (2, 3), (4, 5), (6, 8), (9, 12), (13, 99))


class TurnHazard(_Plan):
    """The expert's table model without sampled hands: its older, turn-based hazard."""

    DEALS = 0


def positions(rules, hands: int, opponent: str, seed: int):
    """Play the hands; yield (view of the expert, the opponent's hand, whether it then closed)."""
    expert = ExpertBot(seed=seed)
    other = BOTS[opponent]()
    rng = random.Random(seed)
    for h in range(hands):
        game = HandGame.deal(rules, 2, h % 2, rng)
        me = h % 2  # the expert sits first or second in turn
        bots = {me: expert, 1 - me: other}
        for _ in range(300):
            if game.phase == Phase.OVER:
                break
            seat = game.turn
            if bot_turn(game, bots[seat], rng) is not None or game.phase == Phase.OVER:
                break
            if seat == me:
                view = seat_view(game, me)
                hand = tuple(game.hands[1 - me])
                closed = bot_turn(game, other, rng) is not None
                yield view, hand, closed
                if closed or game.phase == Phase.OVER:
                    break


def features(view, seat, card):
    return (
        near(card, view.taken_by(seat)),
        near(card, view.thrown_by(seat)),
        near(card, refused_by(view, seat)),
    )


def fit(rows, steps=300, rate=0.5):
    """Logistic regression (intercept + three features) by gradient descent."""
    w = [0.0] * 4
    n = len(rows)
    for _ in range(steps):
        grad = [0.0] * 4
        for x, y in rows:
            z = w[0] + sum(wi * xi for wi, xi in zip(w[1:], x, strict=True))
            p = 1.0 / (1.0 + math.exp(-z))
            grad[0] += p - y
            for k in range(3):
                grad[k + 1] += (p - y) * x[k]
        w = [wi - rate * g / n for wi, g in zip(w, grad, strict=True)]
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--opponent", default="good")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fit", action="store_true")
    parser.add_argument("--last-throw", type=float, default=opponent_model.LAST_THROW, help="model.LAST_THROW")
    parser.add_argument("--candidates", type=int, default=opponent_model.CANDIDATES, help="model.CANDIDATES")
    args = parser.parse_args()
    opponent_model.LAST_THROW = args.last_throw
    opponent_model.CANDIDATES = args.candidates
    rules = get_rules(args.preset)
    ev = evaluator(rules)
    rng = random.Random(args.seed)
    hits = uniform = 0.0
    count = 0
    rows = []
    by_turn = {b: [0, 0.0, 0.0, 0] for b in BUCKETS}  # positions, model, old hazard, closed
    loose_pred = loose_real = 0.0
    t0 = time.perf_counter()
    model_time = 0.0
    for view, hand, closed in positions(rules, args.hands, args.opponent, args.seed):
        opp = view.opponents[0]
        m0 = time.perf_counter()
        model = OpponentModel(view, ev)
        chances = model.chance_held(opp)
        best = max(chances, key=lambda c: (chances[c], c))
        deals = [model.sample(rng) for _ in range(args.samples)]
        predicted = sum(close_chance(ev, d.hands[0], view.top, d.stock) for d in deals) / len(deals)
        loose_pred += sum(ev.loose(d.hands[0]) for d in deals) / len(deals)
        model_time += time.perf_counter() - m0
        loose_real += ev.loose(list(hand))
        count += 1
        hits += best in hand
        uniform += model.hidden[opp] / len(model.unseen)
        if args.fit:
            rows += [(features(view, opp, c), c in hand) for c in set(model.unseen)]
        turns = len(view.thrown_by(opp))
        bucket = next(b for b in BUCKETS if b[0] <= turns <= b[1])
        old = TurnHazard(view, 0, 0).q
        row = by_turn[bucket]
        row[0] += 1
        row[1] += predicted
        row[2] += old
        row[3] += closed
    print(
        f"{args.preset}, expert against {args.opponent}, {args.hands} hands, {count} positions, seed {args.seed}, "
        f"LAST_THROW {args.last_throw}, CANDIDATES {args.candidates}"
    )
    print(f"likeliest card held: model {hits / count:.1%}, uniform guess {uniform / count:.1%}")
    print(f"opponent's loose points: predicted {loose_pred / count:.1f}, real {loose_real / count:.1f}")
    print("opponent's turn   positions   closes next: model   old hazard   measured")
    for (lo, hi), (n, pred, old, closed) in by_turn.items():
        if n:
            label = f"{lo}-{hi}" if hi < 99 else f"{lo}+"
            print(f"  {label:<15} {n:>9}   {pred / n:>17.1%}   {old / n:>10.1%}   {closed / n:>8.1%}")
    total = sum(r[0] for r in by_turn.values())
    print(
        f"  all             {total:>9}   {sum(r[1] for r in by_turn.values()) / total:>17.1%}"
        f"   {sum(r[2] for r in by_turn.values()) / total:>10.1%}   {sum(r[3] for r in by_turn.values()) / total:>8.1%}"
    )
    print(
        f"model time per position {model_time / count * 1000:.1f} ms ({args.samples} samples); {time.perf_counter() - t0:.0f} s"
    )
    if args.fit:
        w = fit(rows)
        print(
            f"fit over {len(rows)} cards: intercept {w[0]:.2f}, TOOK {w[1]:.2f}, THREW {w[2]:.2f}, REFUSED {w[3]:.2f}"
        )


if __name__ == "__main__":
    main()
