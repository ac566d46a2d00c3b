"""Three experts against one person on the play page: server time per bot turn.

    python bench/bench_bot_turns.py [--hands 6] [--preset classic] [--bots expert]

A hot-seat table (Ana and three computer players) through the app (SQLite
in a temporary folder, the test client, a phone's ``Accept-Encoding``).
Ana plays as the good computer player would, by the forms: she draws, then
throws or closes, and the page she is sent back to carries the computers'
turns until hers comes again (``PLAY_BOT_TURNS`` 12, ``PLAY_BOT_SECONDS``
1 s: more waits for the next poll).  Printed: the server time of each of
those requests (what Ana waits for after a throw), and of each bot turn
(``bot_turn``: the engine and the computer player's two decisions), p50 /
p95 / max.  Hands are dealt from ``PLAY_SEED`` so a run repeats.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402
from companion.bots import GoodBot, seat_view  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.models import Deal, GameTable  # noqa: E402
from companion.rules.game import HandGame, Phase  # noqa: E402
from companion.services import play  # noqa: E402
from companion.services.standing import standing  # noqa: E402


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:4.0f} ms  p95 {p95 * 1000:4.0f} ms  "
        f"max {ordered[-1] * 1000:4.0f} ms  ({len(ordered)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--bots", default="expert", help="the computer players' kind")
    args = parser.parse_args()

    folder = tempfile.mkdtemp()
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db",
            "RATELIMIT_ENABLED": False,
            "WTF_CSRF_ENABLED": False,
            "PLAY_SEED": "bench-bot-turns",
        }
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    headers = {"Accept-Encoding": "br, gzip"}
    turn_times: list[float] = []
    original = play.bot_turn

    def timed_turn(*a, **k):
        start = time.perf_counter()
        try:
            return original(*a, **k)
        finally:
            turn_times.append(time.perf_counter() - start)

    play.bot_turn = timed_turn
    waits: list[float] = []
    players = [("Ana", "human")] + [(f"Robo {i}", args.bots) for i in (1, 2, 3)]
    form = {"mode": "hotseat", "preset": args.preset, "first_dealer": "3", "target": "100", "jokers": "0"}
    form |= {"suit_style": "spanish"}
    for i, (name, kind) in enumerate(players):
        form[f"players-{i}"], form[f"kinds-{i}"] = name, kind
    response = client.post("/play/new", data=form)
    token = response.headers["Location"].split("/")[2]
    url = f"/t/{token}/play"
    hands = 0
    bot = GoodBot()
    while hands < args.hands:
        with app.app_context():
            table = db.session.scalar(db.select(GameTable).where(GameTable.owner_token == token))
            deal = db.session.scalars(db.select(Deal).where(Deal.table_id == table.id).order_by(Deal.id.desc())).first()
            game = HandGame.from_dict(deal.state, table.rules)
            version, seats, finished = deal.version, deal.seats, standing(table).state.finished
        if finished:
            break
        if game.phase == Phase.OVER:
            hands += 1
            client.post(url, data={"version": version, "deal": deal.id, "action": "next"})
            continue
        if seats[game.turn] != 0:  # the computers still to move (a request's share was used up)
            client.get(f"{url}/poll?v=0.0", headers=headers)
            continue
        view = seat_view(game, game.turn)
        if game.phase == Phase.DRAW:
            source = bot.choose_draw(view)
            client.post(url, data={"version": version, "action": "stock" if source == "stock" else "discard_pile"})
            continue
        card, close = bot.choose_end(view)
        start = time.perf_counter()
        page = client.post(url, data={"version": version, "action": "close" if close else "discard", "card": str(card)})
        page = client.get(page.headers["Location"], headers=headers)  # the redirect a phone follows
        waits.append(time.perf_counter() - start)
        assert page.status_code == 200, page.status_code
    print(f"{args.preset}, Ana against three {args.bots} players, {hands} hands (SQLite, test client):")
    print(f"  after Ana's throw, until her page is back   {percentiles(waits)}")
    print(f"  one computer turn (engine + two decisions)  {percentiles(turn_times)}")


if __name__ == "__main__":
    main()
