"""A club's memory at the size of a real one: a group of 8 friends with two
years of Fridays (three matches an evening, 312 finished matches of 6 to 14
hands each), every page of it timed as a phone asks for it and weighed on the
wire (``Accept-Encoding: br``).

    .venv/bin/python bench/bench_club_memory.py [--years 2]

Prints, for the group page, the statistics (a season, a year, all time), the
ratings and the three spreadsheets: the median and slowest of 7 requests and
the bytes sent.  Everything is replayed from the record on every request
(``services/statistics.py``): this is what that costs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.models import GameTable  # noqa: E402
from companion.rules import get_rules  # noqa: E402
from companion.rules.close import possible_closer_scores  # noqa: E402
from companion.services import groups as group_service  # noqa: E402
from companion.services import hands as hand_service  # noqa: E402
from companion.services import tables as table_service  # noqa: E402
from companion.services.unit import transaction  # noqa: E402

MEMBERS = ["Ana", "Ben", "Carla", "Dani", "Eva", "Fede", "Gus", "María de los Ángeles Fernández Castillo"]
RUNS = 7


def one_match(group, players: list[str], when: datetime, rnd: random.Random) -> None:
    """A match to 100 played out by typed points: a random closer each hand, the others 0–40."""
    with transaction():
        table = table_service.create_table(
            name="", preset="classic", overrides={"reentries": 0}, players=players, first_dealer=0, suit_style=""
        )
        group_service.add_table(group, table)
        table.created_at = when
    rules = get_rules("classic", reentries=0)
    closes = sorted(possible_closer_scores(rules))
    number = 0
    while True:
        db.session.refresh(table)
        from companion.services.standing import standing

        current = standing(table)
        if current.state.finished:
            return
        seats = current.seats_in
        closer = rnd.choice(seats)
        points = {s: (rnd.choice(closes) if s == closer else rnd.randint(0, 40)) for s in seats}
        number += 1
        with transaction():
            hand_service.store_hand(
                table,
                table.version,
                f"{table.id}-{number}",
                hand_service.HandInput(closer=closer, mode="points", points=points),
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--years", type=int, default=2)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-club-"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'club.sqlite'}", "SECRET_KEY": "club"})
    rnd = random.Random(40)
    started = time.perf_counter()
    with app.app_context():
        db.create_all()
        with transaction():
            group = group_service.create_group(
                name="Los viernes", members=MEMBERS, preset="classic", overrides={}, currency="EUR"
            )
        group.seasons[0].started_at = datetime(2024, 1, 1)
        db.session.commit()
        friday = datetime(2024, 1, 5, 21, 0)
        for week in range(52 * args.years):
            for match in range(3):
                players = rnd.sample(MEMBERS, rnd.randint(3, 5))
                one_match(group, players, friday + timedelta(days=7 * week, minutes=75 * match), rnd)
        token, tables = group.watch_token, db.session.query(GameTable).count()
    print(
        f"a group of {len(MEMBERS)} with {tables} finished matches over {args.years} years (made in {time.perf_counter() - started:.0f} s)"
    )
    client = app.test_client()
    print(f"  {'page':<28} {'median':>8} {'slowest':>8} {'on the wire':>12}")
    for name, path in (
        ("group page", f"/g/{token}"),
        ("statistics: this season", f"/g/{token}/stats"),
        ("statistics: one year", f"/g/{token}/stats?period=year-2024"),
        ("statistics: all time", f"/g/{token}/stats?period=all"),
        ("ratings", f"/g/{token}/ratings"),
        ("stats.csv (all time)", f"/g/{token}/stats.csv?period=all"),
        ("head-to-head.csv", f"/g/{token}/head-to-head.csv?period=all"),
        ("ratings.csv", f"/g/{token}/ratings.csv"),
    ):
        times, size = [], 0
        for _ in range(RUNS):
            start = time.perf_counter()
            response = client.get(path, headers={"Accept-Encoding": "br", "Accept-Language": "es"})
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, (path, response.status_code)
            size = len(response.data) + sum(len(k) + len(v) + 4 for k, v in response.headers.items())
        print(
            f"  {name:<28} {statistics.median(times) * 1000:6.0f} ms {max(times) * 1000:6.0f} ms {size / 1024:9.1f} KB"
        )


if __name__ == "__main__":
    main()
