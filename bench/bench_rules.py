"""Rules engine speed: close checks, hand settlement, API latency.

    python bench/bench_rules.py [--seconds 2] [--close-only] [--clock cpu]

Prints public ``check_close`` calls per second on two seeded mixes of 8-card
hands for each rule set (classic; classic with 2 jokers; two decks): uniformly
random hands, and near-closable ones (best melds cover at least four cards,
the hands computer players and the advisor check most); then the median time
to settle an 8-player hand with 2 jokers, and the API's request latency next
to a bare Flask endpoint.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.rules import best_melds, check_close, get_rules, settle_hand
from companion.rules.cards import JOKER


def pack(rules, copies):
    cards = rules.pack.cards() * copies + [JOKER] * rules.jokers
    return cards


#: The close-check rule sets: (label, rules, copies of each card, players).
CLOSE_SETS = [
    ("classic (1 deck)", get_rules("classic"), 1, 4),
    ("classic + 2 jokers", get_rules("classic", jokers=2), 1, 4),
    ("two decks", get_rules("classic"), 2, 8),
]
#: Per rule set, the issue's targets on near-closable hands (checks/s).
TARGETS = {"classic (1 deck)": 150_000, "classic + 2 jokers": 30_000, "two decks": 50_000}
#: Distinct hands per mix; larger than any cache in the engine, so repeats
#: within one timing cannot be served from a memo.
POOL = 20_000


def random_hands(rules, copies, seed, count=POOL):
    """Uniformly random 8-card hands (most are hopeless early)."""
    rng = random.Random(seed)
    cards = pack(rules, copies)
    return [rng.sample(cards, 8) for _ in range(count)]


def near_closable_hands(rules, copies, seed, count=POOL):
    """Random 8-card hands whose best melds already cover at least four cards:
    the hands a computer player or the advisor checks most, and the slowest."""
    rng = random.Random(seed)
    cards = pack(rules, copies)
    hands = []
    while len(hands) < count:
        hand = rng.sample(cards, 8)
        if sum(len(m) for m in best_melds(hand, rules, copies=copies).melds) >= 4:
            hands.append(hand)
    return hands


def close_rate(rules, hands, players, seconds, clock=time.perf_counter):
    """Public ``check_close`` calls per second over ``hands``, end to end:
    validation, search and the verdict object.  ``clock`` is wall time, or
    this process's CPU time (``--clock cpu``) on a machine shared with others."""
    n = 0
    chunk = 2000
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        for hand in hands[n % len(hands) : n % len(hands) + chunk]:
            check_close(hand, rules, players=players)
        n += chunk
    return n / (clock() - start)


def legal_deals(rules, rng, count, players=8):
    """Random deals (closer first, 8 cards) in which the closer may close:
    a settle only does real work after a legal close."""
    cards = pack(rules, rules.copies(players))
    deals = []
    while len(deals) < count:
        rng.shuffle(cards)
        hands = [cards[i * 7 : i * 7 + 7] for i in range(players)]
        hands[0] = [*hands[0], cards[7 * players]]
        if check_close(hands[0], rules, players=players).legal:
            deals.append(hands)
    return deals


def settle_times(rules, deals):
    times = []
    for hands in deals:
        t0 = time.perf_counter()
        settle_hand(hands, rules, 0)
        times.append(time.perf_counter() - t0)
    return times


def api_latency(n):
    from companion import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})

    @app.get("/bare")
    def bare():
        return {"ok": True}

    client = app.test_client()
    body = {"rules": {"preset": "classic"}, "cards": ["11c", "11e", "11b", "5o", "6o", "7o", "3c", "12e"]}
    for _ in range(50):
        client.post("/api/v1/close", json=body)
        client.get("/bare")
    out = {}
    for name, call in (
        ("bare", lambda: client.get("/bare")),
        ("close", lambda: client.post("/api/v1/close", json=body)),
    ):
        samples = []
        for _ in range(n):
            t0 = time.perf_counter()
            call()
            samples.append(time.perf_counter() - t0)
        out[name] = statistics.median(samples)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--settle-rounds", type=int, default=300)
    parser.add_argument("--close-only", action="store_true", help="only the close-check rates")
    parser.add_argument(
        "--clock", choices=["wall", "cpu"], default="wall", help="time close checks by wall or CPU clock"
    )
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(
        f"close checks/s, {args.clock} clock ({POOL:,} distinct seeded hands per mix)   random  near-closable  (target)"
    )
    for seed, (label, rules, copies, players) in enumerate(CLOSE_SETS):
        uniform = close_rate(rules, random_hands(rules, copies, 100 + seed), players, args.seconds, clock)
        near = close_rate(rules, near_closable_hands(rules, copies, 200 + seed), players, args.seconds, clock)
        print(f"  {label:<22} {uniform:>43,.0f} {near:>14,.0f}  ({TARGETS[label]:,})")
    if args.close_only:
        return
    rng = random.Random(7)
    rules = get_rules("classic", jokers=2)
    times = settle_times(rules, legal_deals(rules, rng, args.settle_rounds))
    print(
        f"settle 8 players, 2 decks + 2 jokers:  median {statistics.median(times) * 1000:.2f} ms, "
        f"p95 {sorted(times)[int(len(times) * 0.95)] * 1000:.2f} ms, worst {max(times) * 1000:.1f} ms "
        f"over {len(times)} legal closes  (target median 5 ms)"
    )
    lat = api_latency(500)
    print(
        f"API latency (test client, median):     bare {lat['bare'] * 1e6:.0f} µs, POST /api/v1/close {lat['close'] * 1e6:.0f} µs"
    )


if __name__ == "__main__":
    main()
