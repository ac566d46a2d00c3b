"""The review of a finished hand: how long it takes to make, and to read back.

    python bench/bench_review.py [--hands 8] [--moves 40]

Finds seeded hot-seat-like hands of about ``--moves`` moves (a person against
the expert, heads-up classic; and three people against one expert with two
decks and jokers), then times:

- ``review_hand`` (the engine and the expert, no web): p50 and max per hand,
  with the decisions judged;
- the page ``GET /t/<link>/review/<n>`` through the app (SQLite in a
  temporary folder): the first visit (review made and stored) and the second
  (read back), as a phone asks (``Accept-Encoding: br, gzip``), with its bytes.

Target: a 40-move hand within 2 s on this machine, a second visit instant.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.bots import ExpertBot, GoodBot, play_hand  # noqa: E402
from companion.bots.review import review_hand  # noqa: E402
from companion.rules import get_rules  # noqa: E402
from companion.rules.game import HandGame  # noqa: E402

CASES = [
    ("classic, 2 players (1 person)", get_rules("classic"), 2, [0]),
    ("2 decks + 4 jokers, 4 players (3 people)", get_rules("classic", decks=2, jokers=4), 4, [0, 1, 2]),
]


def hands_of(rules, players, moves, count):
    found = []
    for seed in range(10_000):
        game = HandGame.deal(rules, players, dealer=players - 1, rng=random.Random(seed))
        bots = [GoodBot() if s < players - 1 else ExpertBot() for s in range(players)]
        play_hand(game, bots, random.Random(seed + 1))
        if game.closer is not None and moves - 4 <= len(game.log) <= moves + 4:
            found.append(game)
            if len(found) == count:
                break
    return found


def engine(args) -> None:
    print(f"review_hand (engine and expert), hands of {args.moves} ± 4 moves:")
    for label, rules, players, seats in CASES:
        games = hands_of(rules, players, args.moves, args.hands)
        times, decisions = [], []
        for game in games:
            start = time.perf_counter()
            review = review_hand(game, seats=seats)
            times.append(time.perf_counter() - start)
            decisions.append(sum(s.judgement is not None for s in review.steps))
        print(
            f"  {label:42} {len(games)} hands, {statistics.mean(decisions):4.1f} decisions judged: "
            f"p50 {statistics.median(times) * 1000:5.0f} ms  max {max(times) * 1000:5.0f} ms  (target ≤ 2000)"
        )


def web(args) -> None:
    from companion import create_app
    from companion.extensions import db
    from companion.models import Deal, GameTable
    from companion.services import play
    from companion.services.unit import transaction

    folder = tempfile.mkdtemp()
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db", "RATELIMIT_ENABLED": False})
    with app.app_context():
        db.create_all()
    client = app.test_client()
    rules = get_rules("classic")
    firsts, seconds, sizes = [], [], []
    for game in hands_of(rules, 2, args.moves, args.hands):
        with app.app_context():
            with transaction():
                table = play.create_digital_table(
                    name="",
                    preset="classic",
                    overrides={},
                    players=[("Ana", "human"), ("Robo", "expert")],
                    mode="hotseat",
                    first_dealer=1,
                    suit_style="spanish",
                )
                deal = db.session.scalars(db.select(Deal).where(Deal.table_id == table.id)).one()
                deal.state = game.to_dict()  # the hand as it was played
            token = db.session.get(GameTable, table.id).owner_token
        headers = {"Accept-Encoding": "br, gzip"}
        start = time.perf_counter()
        first = client.get(f"/t/{token}/review/1", headers=headers)
        firsts.append(time.perf_counter() - start)
        start = time.perf_counter()
        again = client.get(f"/t/{token}/review/1", headers=headers)
        seconds.append(time.perf_counter() - start)
        assert first.status_code == again.status_code == 200, first.status_code
        sizes.append((len(again.get_data()), again.headers.get("Content-Encoding", "-")))
    print(f"GET /t/<link>/review/1 (SQLite, through the app), {len(firsts)} hands of {args.moves} ± 4 moves:")
    print(
        f"  first visit (made and stored)   p50 {statistics.median(firsts) * 1000:5.0f} ms  max {max(firsts) * 1000:5.0f} ms"
    )
    print(
        f"  second visit (read back)        p50 {statistics.median(seconds) * 1000:5.0f} ms  max {max(seconds) * 1000:5.0f} ms"
    )
    print(f"  on the wire: {statistics.median(s for s, _ in sizes) / 1024:.1f} KB ({sizes[0][1]})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    engine(args)
    web(args)


if __name__ == "__main__":
    main()
