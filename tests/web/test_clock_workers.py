"""#38: the turn clock under two gunicorn workers.  Everything is in the
database (when the turn began, each seat's reserve), so whichever worker a
phone's poll reaches settles a turn whose time ran out, once: phones
polling both workers together play the late turn exactly once, and every
phone is then shown the same game by either worker."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest

from companion.extensions import db
from companion.models import Deal, GameTable, TurnClock, now
from companion.rules.game import HandGame
from companion.services import clock as clocks
from companion.services.play import Pace, create_digital_table
from companion.services.unit import transaction

from .test_limits import free_port, wait_for

QUICK = clocks.PACES[TurnClock.QUICK]


@pytest.fixture
def two_workers(app, tmp_path):
    """gunicorn with two workers on this test's own SQLite database."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "SECRET_KEY": "workers",
        "RATELIMIT_ENABLED": "false",
    }
    env.pop("RATELIMIT_STORAGE_URI", None)
    bin_dir = Path(sys.executable).parent
    web = subprocess.Popen(
        [bin_dir / "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}", "companion:create_app()"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz")
        yield f"http://127.0.0.1:{port}"
    finally:
        web.terminate()
        web.wait(timeout=20)


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_turn_out_of_time_is_played_once_whichever_worker_the_polls_reach(app, two_workers):
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("runs on this test's SQLite file")
    with app.app_context():
        with transaction():
            table = create_digital_table(
                name="Clock",
                preset="classic",
                overrides={},
                players=[("Ana", "human"), ("Ben", "human"), ("Carla", "human")],
                mode="devices",
                first_dealer=0,
                suit_style="spanish",
                clock=TurnClock.QUICK,
                pace=Pace(seed=7),
            )
        tokens = [p.seat_token for p in table.players]
        deal = db.session.query(Deal).filter_by(table_id=table.id).one()
        before = HandGame.from_dict(deal.state, table.rules)
        version = deal.version
        with transaction():  # the mover's phone left; its time and reserve ran out a second ago
            deal.turn_since = now() - QUICK.turn - QUICK.reserve - timedelta(seconds=1)
            mover = table.players[deal.seats[before.turn]]
            mover.seen_at = now() - timedelta(minutes=1)
        others = [t for t in tokens if t != mover.seat_token]
        table_id = table.id
    polls = [f"{two_workers}/s/{others[i % 2]}/poll?v=stale" for i in range(12)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(status, polls))
    assert set(answers) <= {200, 204}, answers
    with app.app_context():
        deal = db.session.query(Deal).filter_by(table_id=table_id).one()
        game = HandGame.from_dict(deal.state, db.session.get(GameTable, table_id).rules)
        assert deal.covered == [len(before.log)]  # the late turn, played for the seat: once
        assert game.turns_taken == before.turns_taken + 1 and deal.version > version
        assert db.session.get(GameTable, table_id).players[mover.seat].stand_in_since is not None
        shown = f"v={deal.id}.{deal.version}."
    for token in tokens:  # either worker shows every phone the same game
        for _ in range(2):
            with urllib.request.urlopen(f"{two_workers}/s/{token}", timeout=20) as response:
                html = response.read().decode()
            assert shown in html  # the poll of the page drawn carries the deal's version
