"""Load test: gunicorn with 4 workers on PostgreSQL and on SQLite, 200 tables
played at once from an async client, then an integrity check.

    python bench/load.py [--tables 200] [--hands 20] [--database sqlite|postgres|both]

Each simulated table creates itself through the form, then enters hands with
cards (random deals whose closer can close).  Every fifth table also has a
second phone holding a stale form that tries to save the same hand (it must
be refused), and every seventh retries its save with the same submission (it
must be stored once).  Afterwards every table must hold exactly the hands
that were acknowledged, no duplicate numbers, and the points the engine gives
for each deal, in order.  Prints requests per second, p50/p95/p99 per
endpoint, and the integrity result.  Traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.rules import JOKER, get_rules, settle_hand  # noqa: E402

PLAYERS = ["Ana", "Ben", "Carla", "Dani"]
RULES = get_rules("classic", decks=1)
FIELD = re.compile(
    r'name="(csrf_token|version|submission)"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="(csrf_token|version|submission)"'
)


def deals(count: int, rng: random.Random) -> list[tuple[list[list[str]], list[int]]]:
    """Random 4-player deals (closer first) whose closer may close, with the engine's points."""
    pack = RULES.pack.cards() + [JOKER] * RULES.jokers
    out = []
    while len(out) < count:
        rng.shuffle(pack)
        hands = [pack[i * 7 : i * 7 + 7] for i in range(4)]
        hands[0] = [*hands[0], pack[28]]
        result = settle_hand(hands, RULES, 0)
        if result.legal and not result.wins_match:
            out.append(([[str(c) for c in h] for h in hands], result.points))
    return out


def fields(html: str) -> dict[str, str]:
    found = {}
    for a, b, c, d in FIELD.findall(html):
        found[a or d] = b or c
    return found


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.requests = 0
        self.retries = 0
        self.errors: list[str] = []

    async def call(self, client: httpx.AsyncClient, name: str, method: str, url: str, **kw) -> httpx.Response:
        """One request; a dropped connection is retried with the very same
        request, as a phone would (a save carries its submission id)."""
        for attempt in range(3):
            t0 = time.perf_counter()
            try:
                response = await client.request(method, url, **kw)
                break
            except httpx.TransportError:
                self.retries += 1
                if attempt == 2:
                    raise
        self.latency[name].append(time.perf_counter() - t0)
        self.requests += 1
        if response.status_code >= 500:
            self.errors.append(f"{name} {response.status_code}")
        return response


async def play_table(base: str, index: int, pool: list, hands: int, think: float, stats: Stats, results: dict) -> None:
    rng = random.Random(index)
    await asyncio.sleep(rng.uniform(0, think))  # tables do not all sit down in the same millisecond
    async with (
        httpx.AsyncClient(base_url=base, timeout=60, headers={"Accept-Language": "en"}) as phone,
        httpx.AsyncClient(base_url=base, timeout=60, headers={"Accept-Language": "en"}) as other,
    ):
        page = await stats.call(phone, "GET /tables/new", "GET", "/tables/new")
        form = {
            "csrf_token": fields(page.text)["csrf_token"],
            "preset": "classic",
            "first_dealer": "0",
            "jokers": "0",
            "target": "10000",
            "suit_style": "spanish",
        }
        form |= {f"players-{i}": n for i, n in enumerate(PLAYERS)}
        created = await stats.call(phone, "POST /tables/new", "POST", "/tables/new", data=form)
        token = created.headers["location"].rsplit("/", 1)[1]
        acknowledged: list[list[int]] = []
        for number in range(1, hands + 1):
            if number > 1:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            cards, points = pool[rng.randrange(len(pool))]
            page = await stats.call(phone, "GET hand form", "GET", f"/t/{token}/hands/new")
            state = fields(page.text)
            data = {**state, "closer": "0", "mode": "cards", "action": "save"} | {
                f"h{s}": " ".join(c) for s, c in enumerate(cards)
            }
            stale = None
            if index % 5 == 0:  # a second phone opens the same form now and saves after the first
                stale_page = await stats.call(other, "GET hand form", "GET", f"/t/{token}/hands/new")
                stale = {**data, **fields(stale_page.text)}
            saved = await stats.call(phone, "POST save hand", "POST", f"/t/{token}/hands/new", data=data)
            board = await stats.call(phone, "GET scoreboard", "GET", saved.headers.get("location", f"/t/{token}"))
            if f"Hand {number} saved" in board.text:
                acknowledged.append(points)
            if index % 7 == 0:  # the network dropped the answer: the phone sends it again
                retry = await stats.call(phone, "POST save hand", "POST", f"/t/{token}/hands/new", data=data)
                board = await stats.call(phone, "GET scoreboard", "GET", retry.headers.get("location", f"/t/{token}"))
                if "already saved" not in board.text:
                    stats.errors.append(f"table {index}: retry not recognised")
            if stale is not None:
                late = await stats.call(other, "POST save hand", "POST", f"/t/{token}/hands/new", data=stale)
                board = await stats.call(other, "GET scoreboard", "GET", late.headers.get("location", f"/t/{token}"))
                if "Someone else" not in board.text:
                    stats.errors.append(f"table {index}: stale save not refused")
        results[token] = acknowledged


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def integrity(database: str, results: dict[str, list[list[int]]]) -> list[str]:
    os.environ["DATABASE_URL"] = database
    from companion import create_app
    from companion.extensions import db
    from companion.models import GameTable
    from companion.services.scoreboard import standing

    problems = []
    app = create_app()
    with app.app_context():
        for token, expected in results.items():
            table = db.session.query(GameTable).filter_by(owner_token=token).one()
            hands = table.active_hands()
            numbers = [h.number for h in hands]
            if numbers != list(range(1, len(expected) + 1)):
                problems.append(f"{token}: hand numbers {numbers} for {len(expected)} acknowledged")
                continue
            stored = [[h.points_by_seat()[s] for s in range(4)] for h in hands]
            if stored != expected:
                problems.append(f"{token}: stored points differ from the engine's")
            totals = standing(table).state.totals
            sums = [sum(p[s] for p in expected) for s in range(4)]
            if [totals[n] for n in table.names] != sums:
                problems.append(f"{token}: totals {totals} != {sums}")
            if len(table.hands) != len(hands):
                problems.append(f"{token}: {len(table.hands) - len(hands)} extra hand rows")
        db.engine.dispose()
    return problems


def run(database: str, label: str, args: argparse.Namespace, pool: list) -> None:
    env = dict(os.environ, DATABASE_URL=database, SECRET_KEY="load", RATELIMIT_ENABLED="false", LOG_LEVEL="WARNING")
    subprocess.run(
        [sys.executable, "-m", "flask", "--app", "companion", "init-db"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-w",
            "4",
            "-k",
            "gthread",
            "--threads",
            "4",
            "--keep-alive",
            "30",
            "-b",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "companion:create_app()",
        ],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        stats = Stats()
        results: dict[str, list] = {}

        async def main() -> None:
            await asyncio.gather(
                *(play_table(base, i, pool, args.hands, args.think, stats, results) for i in range(args.tables))
            )

        t0 = time.perf_counter()
        asyncio.run(main())
        elapsed = time.perf_counter() - t0
    finally:
        server.terminate()
        server.wait(timeout=20)
    problems = integrity(database, results) + stats.errors
    acknowledged = sum(len(v) for v in results.values())
    print(
        f"\n== {label}: {args.tables} tables x {args.hands} hands, ~{args.think:g} s between hands, gunicorn 4 workers x 4 threads =="
    )
    print(
        f"{stats.requests} requests in {elapsed:.1f} s = {stats.requests / elapsed:.0f} requests/s; {acknowledged} hands acknowledged"
    )
    print(f"{'endpoint':<18} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    for name, samples in sorted(stats.latency.items()):
        samples.sort()
        p95, p99 = (samples[min(len(samples) - 1, int(len(samples) * q))] * 1000 for q in (0.95, 0.99))
        print(f"{name:<18} {len(samples):>6} {statistics.median(samples) * 1000:>8.1f} {p95:>8.1f} {p99:>8.1f}")
    print(
        "integrity: OK, no lost or doubled hands"
        if not problems
        else f"integrity: {len(problems)} problems, e.g. {problems[:3]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--database", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument(
        "--think",
        type=float,
        default=4.0,
        help="seconds between a table's hands (a real table takes minutes; 0 = as fast as possible, to find capacity)",
    )
    parser.add_argument(
        "--postgres-url",
        default=os.environ.get("PG_URL", "postgresql+psycopg://companion:companion@127.0.0.1:5432/companion"),
    )
    args = parser.parse_args()
    pool = deals(400, random.Random(1))
    if args.database in ("postgres", "both"):
        subprocess.run(["bash", "-c", "source scripts/postgres.sh && start_postgres"], cwd=ROOT, check=True)
        subprocess.run(
            [
                "su",
                "postgres",
                "-c",
                "psql -qc 'DROP DATABASE IF EXISTS companion_load;' -c 'CREATE DATABASE companion_load OWNER companion;'",
            ],
            check=True,
        )
        run(args.postgres_url.rsplit("/", 1)[0] + "/companion_load", "PostgreSQL", args, pool)
    if args.database in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            run(f"sqlite:///{tmp}/load.sqlite", "SQLite (WAL)", args, pool)


if __name__ == "__main__":
    main()
