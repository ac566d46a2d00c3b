"""Rules engine speed: close checks, hand settlement, API latency.

    python bench/bench_rules.py [--seconds 2]

Prints close checks per second on random 8-card hands (classic; classic with
2 jokers; two decks), the median time to settle an 8-player hand with 2
jokers, and the API's request latency next to a bare Flask endpoint.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.rules import check_close, get_rules, settle_hand
from companion.rules.cards import JOKER


def pack(rules, copies):
    cards = rules.pack.cards() * copies + [JOKER] * rules.jokers
    return cards


def close_rate(rules, copies, seconds, rng):
    cards = pack(rules, copies)
    hands = [rng.sample(cards, 8) for _ in range(20000)]
    # The public call, end to end: validation, search, the verdict object.
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for hand in hands[:2000]:
            check_close(hand, rules, players=4 if copies == 1 else 8)
        n += 2000
        hands = hands[2000:] + hands[:2000]
    return n / (time.perf_counter() - start)


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
    args = parser.parse_args()
    rng = random.Random(7)
    classic = get_rules("classic")
    jokers = get_rules("classic", jokers=2)
    print(
        f"close checks/s, classic (1 deck):      {close_rate(classic, 1, args.seconds, rng):>10,.0f}  (target 150,000)"
    )
    print(f"close checks/s, classic + 2 jokers:    {close_rate(jokers, 1, args.seconds, rng):>10,.0f}  (target 30,000)")
    print(
        f"close checks/s, two decks:             {close_rate(classic, 2, args.seconds, rng):>10,.0f}  (target 50,000)"
    )
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
