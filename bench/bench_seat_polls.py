"""A game on a phone each: the unchanged poll every seat's page sends each
second (``GET /s/<link>/poll?v=<marker>`` → 204), in process, on SQLite.

    python bench/bench_seat_polls.py [--polls 2000] [--players 4] [--clock off|relaxed|quick]

Prints polls/s and the median and 95th-percentile milliseconds of one poll,
with every phone here (each writes when it was seen at most every 5 s, so a
run of a few seconds writes a few times) and the match in play; with a
turn clock, each poll also asks whether the turn in play ran out.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path

from companion import create_app
from companion.extensions import db
from companion.models import GameTable
from companion.services import play
from companion.services.unit import transaction


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--polls", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--clock", choices=["off", "relaxed", "quick"], default="off")
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp()) / "bench.sqlite"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "TESTING": True, "PLAY_SEED": "bench"})
    names = [f"Player {i + 1}" for i in range(args.players)]
    with app.app_context():
        db.create_all()
        with transaction():
            table = play.create_digital_table(
                name="",
                preset="classic",
                overrides={},
                players=[(n, "human") for n in names],
                mode="devices",
                first_dealer=0,
                suit_style="spanish",
                clock=args.clock,
            )
        links = [p.seat_token for p in db.session.get(GameTable, table.id).players]
    client = app.test_client()
    for link in links:  # every phone opens its seat, then each polls with the marker of what it shows
        client.get(f"/s/{link}")
    polls = []
    for link in links:
        page = client.get(f"/s/{link}").get_data(as_text=True)
        polls.append(re.search(r'hx-get="([^"]+/poll[^"]*)"', page).group(1).replace("&amp;", "&"))
    renders = 0
    times = []
    started = time.perf_counter()
    for i in range(args.polls):
        t = time.perf_counter()
        response = client.get(polls[i % len(polls)])
        times.append((time.perf_counter() - t) * 1000)
        assert response.status_code in (200, 204), response.status_code
        if response.status_code == 200:  # the page changed: it polls with its new marker, as htmx swaps it
            renders += 1
            html = response.get_data(as_text=True)
            polls[i % len(polls)] = re.search(r'hx-get="([^"]+/poll[^"]*)"', html).group(1).replace("&amp;", "&")
    total = time.perf_counter() - started
    times.sort()
    print(
        f"{args.polls} seat polls, {args.players} phones, clock {args.clock}: "
        f"{args.polls / total:.0f} polls/s, {renders} redrawn"
    )
    print(f"one poll: median {statistics.median(times):.2f} ms, p95 {times[int(len(times) * 0.95)]:.2f} ms")


if __name__ == "__main__":
    main()
