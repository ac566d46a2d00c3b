"""Thinking apart: the expert's decisions made in a helper process at low
priority are the ones it makes in the request; a helper that fails costs a
decision made in the request, never a move; a helper outlives nobody."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from companion.bots import ExpertBot, GoodBot, apart, seat_view
from companion.bots.apart import Apart
from companion.models import Player, PlayerKind
from companion.rules import get_rules
from companion.rules.game import HandGame, Phase
from companion.services.play import Pace, bot_for

classic = get_rules("classic")


@pytest.fixture
def fresh_helper():
    apart.shutdown()
    yield
    apart.shutdown()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (exited, not yet reaped by its parent) is gone too
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def views(count: int, seed: int):
    """Views of both kinds (before drawing, after) from a few turns of real deals."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        game = HandGame.deal(classic, 2, 0, random.Random(rng.random()))
        for _ in range(rng.randrange(0, 6)):
            seat = game.turn
            game.draw(seat, "stock", rng)
            game.discard(seat, game.hands[seat][rng.randrange(8)])
            if game.phase == Phase.OVER:
                break
        if game.phase == Phase.OVER:
            continue
        found.append(seat_view(game, game.turn, totals=[rng.randrange(60), rng.randrange(60)]))
        game.draw(game.turn, "stock", rng)
        found.append(seat_view(game, game.turn, totals=[rng.randrange(60), rng.randrange(60)]))
    return found


def ask(bot, view):
    return bot.choose_end(view) if view.drawn else bot.choose_draw(view)


def test_the_expert_decides_the_same_apart_as_in_the_request(fresh_helper):
    expert = ExpertBot(think_ms=20)
    for view in views(8, seed=5):
        assert ask(Apart(expert), view) == ask(expert, view)


def test_the_helper_thinks_at_low_priority_in_a_process_of_its_own(fresh_helper):
    pool = apart.helper()
    assert pool.submit(os.getpid).result() != os.getpid()
    assert pool.submit(os.nice, 0).result() == min(19, os.nice(0) + apart.NICENESS)
    assert apart.helper() is pool  # one helper per process, kept for the next decision


def test_a_helper_that_died_costs_a_decision_in_the_request_then_a_new_helper(fresh_helper):
    expert = ExpertBot(think_ms=20)
    view, after = views(2, seed=9)[:2]
    first = apart.helper().submit(os.getpid).result()
    os.kill(first, signal.SIGKILL)
    assert ask(Apart(expert), view) == ask(expert, view)  # decided here, the helper broken
    assert ask(Apart(expert), after) == ask(expert, after)  # a new helper
    second = apart.helper().submit(os.getpid).result()
    assert second != first and alive(second)


def test_a_helper_too_slow_is_ended_and_the_request_decides(fresh_helper, monkeypatch):
    expert = ExpertBot(think_ms=20)
    view = views(1, seed=3)[0]
    stuck = apart.helper().submit(os.getpid).result()
    os.kill(stuck, signal.SIGSTOP)  # a helper that never answers
    monkeypatch.setattr(apart, "TIMEOUT", 0.5)
    assert ask(Apart(expert), view) == ask(expert, view)
    deadline = time.monotonic() + 5
    while alive(stuck) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(stuck)


@pytest.mark.parametrize("ending", ["killed", "exits"])
def test_a_helper_goes_with_its_server_process(ending):
    """A worker killed (SIGKILL, no clean-up) or ending as at a reload (it
    exits): its helper goes within seconds."""
    script = textwrap.dedent(
        """
        import os, sys
        from companion.bots import apart
        print(apart.helper().submit(os.getpid).result(), flush=True)
        sys.stdin.readline()
        """
    )
    server = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        child = int(server.stdout.readline())
        assert alive(child)
        if ending == "killed":
            server.kill()
        else:
            server.stdin.write("\n")
            server.stdin.flush()
        assert server.wait(timeout=10) == (-signal.SIGKILL if ending == "killed" else 0)
    finally:
        server.kill()
        server.wait()
        server.stdin.close()
        server.stdout.close()
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(child)


@pytest.mark.parametrize(
    ("kind", "pace", "apart_expected"),
    [
        (PlayerKind.EXPERT, Pace(think_ms=20, apart=True), True),
        (PlayerKind.EXPERT, Pace(think_ms=20), False),  # the services' default: in the caller's process
        (PlayerKind.EXPERT, Pace(think_ms=0, apart=True), False),  # no search: nothing worth a helper
        (PlayerKind.GOOD, Pace(think_ms=20, apart=True), False),  # fast: the round trip would cost more
    ],
)
def test_the_expert_alone_thinks_apart_when_the_pace_says_so(kind, pace, apart_expected):
    bot = bot_for(Player(name="Robo", kind=kind, seat=0), pace)
    assert isinstance(bot, Apart) is apart_expected
    inner = bot.bot if isinstance(bot, Apart) else bot
    assert isinstance(inner, ExpertBot if kind == PlayerKind.EXPERT else GoodBot)


@pytest.mark.parametrize(("value", "expected"), [(None, True), ("", True), ("1", True), ("0", False), ("False", False)])
def test_the_web_app_thinks_apart_unless_play_bot_apart_says_no(monkeypatch, tmp_path, value, expected):
    from companion import config

    if value is None:
        monkeypatch.delenv("PLAY_BOT_APART", raising=False)
    else:
        monkeypatch.setenv("PLAY_BOT_APART", value)
    assert config.from_environment(str(tmp_path))["PLAY_BOT_APART"] is expected


def test_the_pace_carries_the_setting(app):
    from companion.web.pace import play_pace

    with app.test_request_context():
        assert play_pace().apart is False  # tests decide in their own process
        app.config["PLAY_BOT_APART"] = True
        assert play_pace().apart is True


class Unsendable(GoodBot):
    """A bot that cannot be handed to another process (it holds a lock)."""

    def __init__(self) -> None:
        import threading

        self.lock = threading.Lock()


def test_a_decision_the_helper_cannot_take_is_taken_in_the_request(fresh_helper):
    view = views(1, seed=4)[0]
    assert ask(Apart(Unsendable()), view) == ask(GoodBot(), view)
    assert apart.helper().submit(os.getpid).result() != os.getpid()  # the helper is still there
