"""A 64-table tournament round: how fast the organizer's dashboard, the wall,
the standings and a table's own page answer.

    python bench/bench_tournament.py [--tables 64] [--hands 4] [--requests 60]

256 players at 64 tables of four, each table a few hands in (the last
tables played out and waiting for a confirmation), SQLite in a temporary
directory.  Every page is asked for through the app (its whole request
machinery, compression with a phone's ``Accept-Encoding``), one after
another; prints p50 / p95 / max per page and the bytes sent.  Target: the
dashboard and the wall ≤ 100 ms p95 with 64 tables.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.models import Tournament  # noqa: E402
from companion.services import tournaments as service  # noqa: E402
from companion.services.hands import HandInput, store_hand  # noqa: E402
from companion.services.unit import transaction  # noqa: E402

PHONE = {"Accept-Encoding": "br, gzip", "Accept-Language": "es-ES,es;q=0.9"}


def build(app, tables: int, hands: int) -> tuple[str, str, str]:
    with app.app_context():
        db.create_all()
        with transaction():
            cup = service.create_tournament(
                name="Gran Torneo del Club",
                players=[f"Jugador {i:03d}" for i in range(tables * 4)],
                preset="classic",
                overrides={"target": 100},
                settings=service.Settings(format="points", rounds=3, round_hands=hands + 1),
            )
        with transaction():
            round_ = service.start_round(cup, cup.version)
        for index, table in enumerate(round_.tables):
            played = hands + 1 if index >= tables - 8 else hands  # the last eight: all hands in
            for number in range(played):
                points = {0: 1, 1: 5 + number, 2: 10 + index % 7, 3: 15}
                with transaction():
                    store_hand(
                        table, table.version, uuid.uuid4().hex, HandInput(closer=0, mode="points", points=points)
                    )
        return cup.owner_token, cup.watch_token, round_.tables[0].player_token


def timed(client, url: str, count: int, status: int = 200) -> tuple[list[float], list[float], int]:
    """Wall-clock and CPU milliseconds per request (CPU time is what the
    server spends, whatever else the machine runs), and the bytes sent."""
    times, cpu, size = [], [], 0
    for _ in range(count):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url, headers=PHONE)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == status, (url, response.status_code)
        size = len(response.get_data())
    return times, cpu, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--requests", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite", "SECRET_KEY": "bench"})
        start = time.perf_counter()
        owner, watch, table = build(app, args.tables, args.hands)
        gc.collect()  # what building left behind: a server's worker starts without it
        print(
            f"{args.tables} tables × 4 players, {args.hands} hands each: built in {time.perf_counter() - start:.1f} s"
        )
        client = app.test_client()

        def since() -> str:  # what the wall's last page said (it changes with the minute)
            with app.app_context():
                return service.fingerprint(db.session.scalar(select(Tournament).where(Tournament.watch_token == watch)))

        pages = [
            ("dashboard (organizer)", f"/c/{owner}", 200),
            ("wall", f"/c/{watch}/wall", 200),
            ("wall, unchanged poll", lambda: f"/c/{watch}/wall?since={since()}", 204),
            ("seating list", f"/c/{watch}/seating", 200),
            ("standings.csv", f"/c/{watch}/standings.csv", 200),
            ("a table's scoreboard", f"/t/{table}", 200),
        ]
        for _name, url, status in pages:
            timed(client, url() if callable(url) else url, 3, status)  # warm: templates compiled, caches filled
        print(f"{'page':24} {'p50 ms':>8} {'p95 ms':>8} {'cpu p50':>8} {'cpu p95':>8} {'bytes (br)':>11}")
        for name, url, status in pages:
            times, cpu, size = timed(client, url() if callable(url) else url, args.requests, status)
            p95, cpu95 = statistics.quantiles(times, n=20)[-1], statistics.quantiles(cpu, n=20)[-1]
            print(
                f"{name:24} {statistics.median(times):8.1f} {p95:8.1f} {statistics.median(cpu):8.1f} {cpu95:8.1f}"
                f" {size:11d}"
            )
        print("target: dashboard and wall ≤ 100 ms p95 (cpu: the server's own time, whatever else runs)")


if __name__ == "__main__":
    main()
