"""The simple and good computer players through the public protocol."""

from __future__ import annotations

import random

import pytest

from companion.bots import BOTS, GoodBot, SimpleBot, bot_turn, load_bot, play_hand, play_match, seat_view
from companion.rules import get_rules, parse_card, replay_match
from companion.rules.game import HandGame

from ..positions import fixed

classic = get_rules("classic")
GERMAN = ["11c 11e 11b 5o 6o 7o 3c", "5b 5c 5e 4o 12o 2c 1c", "2e 3b 6c 7b 10e 12c 12b"]


@pytest.mark.parametrize("preset", ["classic", "fournier", "sweden", "italy"])
def test_bots_play_whole_matches_and_the_totals_replay(preset):
    rules = get_rules(preset)
    names = ["Ana", "Ben", "Carla"]
    log = play_match(
        rules,
        names,
        {"Ana": GoodBot(), "Ben": SimpleBot(), "Carla": GoodBot()},
        random.Random(sum(map(ord, preset))),
    )
    assert log.state.finished and log.state.winners
    assert replay_match(names, log.events, rules).totals == log.state.totals


def test_a_bot_closes_when_it_can():
    game = fixed(GERMAN, "1b 12e", "4c")
    assert play_hand(game, [SimpleBot(), SimpleBot(), SimpleBot()], random.Random(0)) is not None
    assert game.closer == 0


def test_the_simple_bot_takes_the_top_card_that_makes_a_meld():
    game = fixed(GERMAN, "1b 12e", "4o")  # 4o 5o 6o 7o
    assert SimpleBot().choose_draw(seat_view(game, 0)) == "discard"
    game = fixed(GERMAN, "1b 12e", "10e")
    assert SimpleBot().choose_draw(seat_view(game, 0)) == "stock"


def test_the_good_bot_closes_with_its_best_score():
    # 11c 11e 11b 5o 6o 7o + 1o / 3c: keeping the ace scores 1, keeping the 3 scores 3.
    game = fixed(["11c 11e 11b 5o 6o 7o 3c 1o", *GERMAN[1:]], "1b", "4c")
    card, close = GoodBot().choose_end(seat_view(game, 0))
    assert close and card == parse_card("3c")


def test_after_a_reshuffle_bots_keep_court_cards_that_make_melds():
    """Issue #13: with the courts circulating, a bot keeps a pair of reyes and
    throws a lonely low card instead of a king."""
    hand = "12o 12c 1e 2b 4c 6e 7o 3o"
    for bot in (SimpleBot(), GoodBot()):
        game = fixed([hand, *GERMAN[1:]], "1b", "4b", reshuffles=1)
        card, close = bot.choose_end(seat_view(game, 0))
        assert not close and card.rank != 12, bot.name
        game.reshuffles = 0
        card, _ = bot.choose_end(seat_view(game, 0))
        assert card.rank == 12, bot.name  # before any reshuffle: throw the highest


def test_registered_and_loaded_bots_share_the_protocol():
    assert load_bot("companion.bots.players:GoodBot") is GoodBot
    with pytest.raises(ValueError):
        load_bot("companion.bots.players")
    for cls in BOTS.values():
        game = HandGame.deal(classic, 2, 0, random.Random(3))
        bot_turn(game, cls(), random.Random(3))
        assert game.turns_taken == 1 or game.closer is not None
