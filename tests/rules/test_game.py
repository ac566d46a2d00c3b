"""Digital play, engine side: every phase and every refused action."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.bots import SimpleBot, play_hand
from companion.rules import JOKER, get_rules, parse_card
from companion.rules.game import (
    Close,
    Discard,
    Draw,
    HandGame,
    Phase,
    PlayError,
    Reshuffle,
    Source,
    Void,
    VoidReason,
    move_from_json,
    move_to_json,
)

from ..positions import fixed

classic = get_rules("classic")


def full_pack(rules, players):
    return Counter([*rules.pack.cards() * rules.copies(players), *[JOKER] * rules.jokers])


def test_deal_seven_each_one_up_and_the_player_after_the_dealer_starts():
    game = HandGame.deal(classic, 4, dealer=2, rng=random.Random(5))
    assert [len(h) for h in game.hands] == [7, 7, 7, 7] and len(game.discards) == 1
    assert game.turn == 3 and game.phase == Phase.DRAW and game.first_round
    assert Counter(game.cards_in_play()) == full_pack(classic, 4)


def test_five_players_get_two_decks():
    game = HandGame.deal(classic, 5, 0, random.Random(1))
    assert len(game.cards_in_play()) == 80


GERMAN = ["11c 11e 11b 5o 6o 7o 3c", "5b 5c 5e 4o 12o 2c 1c", "2e 3b 6c 7b 10e 12c 12b"]


@pytest.mark.parametrize(
    "action,message",
    [
        (lambda g: g.verify_draw(1, "stock"), "not your turn"),
        (lambda g: g.verify_draw(0, "deck"), "stock or from the discard"),
        (lambda g: g.verify_discard(0, parse_card("3c")), "Draw first"),
        (lambda g: g.verify_close(0, parse_card("3c")), "Draw first"),
        (lambda g: g.verify_draw(7, "stock"), "no such seat"),
    ],
)
def test_refused_actions_say_why(action, message):
    game = fixed(GERMAN, "12e 1b", "4c")
    with pytest.raises(PlayError) as error:
        action(game)
    assert message in str(error.value)


def test_drawing_twice_and_discarding_a_card_not_held():
    game = fixed(GERMAN, "12e 1b", "4c")
    game.draw(0, "stock", random.Random(0))
    assert not game.can_draw(0, "stock")
    with pytest.raises(PlayError, match="drawn already"):
        game.verify_draw(0, "stock")
    with pytest.raises(PlayError, match="not in your hand"):
        game.verify_discard(0, parse_card("4c"))


def test_german_seed_close_after_drawing_the_rey_de_espadas():
    game = fixed(GERMAN, "1b 12e", "4c")
    assert str(game.draw(0, "stock", random.Random(0))) == "12e"
    result = game.close(0, parse_card("12e"))
    assert result.points == [3, 13, 46] and game.phase == Phase.OVER
    with pytest.raises(PlayError, match="over"):
        game.verify_draw(1, "stock")


def test_an_illegal_close_is_refused_and_the_player_plays_on():
    game = fixed(GERMAN, "12e 12b", "4c")
    game.draw(0, "stock", random.Random(0))  # 12b
    with pytest.raises(PlayError, match="loose card is worth 10"):
        game.close(0, parse_card("3c"))  # keeping the rey de bastos
    assert game.phase == Phase.DISCARD and game.closer is None
    game.discard(0, parse_card("12b"))
    assert game.turn == 1 and game.phase == Phase.DRAW


def test_first_round_close_follows_the_rules():
    game = fixed(GERMAN, "1b 12e", "4c", turns_taken=0)
    game.draw(0, "stock", random.Random(0))
    with pytest.raises(PlayError, match="first round"):
        game.close(0, parse_card("12e"))
    italy = fixed(GERMAN, "1b 12e", "4c", rules=get_rules("italy"), turns_taken=0)
    italy.draw(0, "stock", random.Random(0))
    assert italy.close(0, parse_card("12e")).points[0] == 3


def test_drawing_the_top_discard():
    game = fixed(GERMAN, "1b", "12e")
    assert str(game.draw(0, "discard", random.Random(0))) == "12e" and game.discards == []
    game.discard(0, parse_card("3c"))
    with pytest.raises(PlayError, match="empty"):
        fixed(GERMAN, "1b", "").verify_draw(0, "discard")


@pytest.mark.parametrize("reshuffle,kept", [("keep_top", 1), ("all", 0)])
def test_empty_stock_reshuffles_per_the_rules(reshuffle, kept):
    rules = get_rules(reshuffle=reshuffle)
    game = fixed(GERMAN, "", "1b 2b 3o 4c", rules=rules)
    before = Counter(game.cards_in_play())
    game.draw(0, "stock", random.Random(0))
    assert game.reshuffles == 1 and len(game.discards) == kept
    assert Counter(game.cards_in_play()) == before
    if kept:
        assert str(game.discards[-1]) == "4c"


def test_the_pack_running_out_ends_the_hand_without_scores():
    game = fixed(GERMAN, "", "4c", rules=get_rules(reshuffle="keep_top"))
    assert game.draw(0, "stock", random.Random(0)) is None
    assert game.exhausted and game.phase == Phase.OVER
    assert game.void == Void(0, VoidReason.EMPTY) and game.log[-1] == game.void


def test_max_reshuffles_zero_voids_the_hand_the_first_time_the_stock_runs_out():
    """SPEC §6: with ``max_reshuffles: 0`` the stock may never be rebuilt."""
    game = fixed(GERMAN, "", "1b 2b 3o 4c", rules=get_rules(max_reshuffles=0))
    before = game.to_dict()["hands"]
    assert game.can_draw(0, "stock")  # drawing stays legal: its outcome is the void hand
    assert game.draw(0, "stock", random.Random(0)) is None
    assert game.void == Void(0, VoidReason.RESHUFFLES) and game.phase == Phase.OVER
    assert game.reshuffles == 0 and game.to_dict()["hands"] == before and game.closer is None
    with pytest.raises(PlayError, match="over"):
        game.verify_draw(0, "discard")
    with pytest.raises(PlayError, match="Nobody has closed"):
        game.settle()


def test_max_reshuffles_allows_that_many_reshuffles_then_voids():
    """``max_reshuffles: 1``: the first empty stock is rebuilt, the second voids the hand."""
    game = fixed(GERMAN, "", "1b 2b 3o 4c", rules=get_rules(max_reshuffles=1, reshuffle="all"))
    rng = random.Random(0)
    game.draw(0, "stock", rng)
    assert game.reshuffles == 1 and isinstance(game.log[0], Reshuffle) and len(game.stock) == 3
    game.discard(0, game.hands[0][-1])
    while game.stock:
        seat = game.turn
        game.draw(seat, "stock", rng)
        game.discard(seat, game.hands[seat][-1])
    assert game.draw(game.turn, "stock", rng) is None
    assert game.void == Void(game.turn, VoidReason.RESHUFFLES) and game.reshuffles == 1


def test_the_pile_can_still_be_taken_while_a_void_waits_in_the_empty_stock():
    game = fixed(GERMAN, "", "1b 2b 3o 4c", rules=get_rules(max_reshuffles=0))
    assert str(game.draw(0, "discard", random.Random(0))) == "4c" and game.phase == Phase.DISCARD


def test_null_max_reshuffles_reshuffles_forever():
    game = fixed(GERMAN, "", "1b 2b 3o 4c", rules=get_rules(max_reshuffles=None, reshuffle="all"))
    rng = random.Random(3)
    for _ in range(40):
        seat = game.turn
        assert game.draw(seat, "stock", rng) is not None
        game.discard(seat, game.hands[seat][-1])
    assert game.reshuffles > 5 and game.void is None


def test_abandon_voids_a_hand_still_in_play_only():
    game = fixed(GERMAN, "1b 12e", "4c")
    game.abandon()
    assert game.void == Void(None, VoidReason.ABANDONED) and game.phase == Phase.OVER
    with pytest.raises(PlayError, match="over"):
        game.abandon()


def test_moves_are_typed_records_and_a_stock_draw_is_secret_to_others():
    game = fixed(GERMAN, "1b 12e", "4c")
    rng = random.Random(0)
    game.draw(0, "stock", rng)
    game.discard(0, parse_card("3c"))
    game.draw(1, "discard", rng)
    game.discard(1, parse_card("12o"))
    assert game.log[:3] == [
        Draw(0, Source.STOCK, parse_card("12e")),
        Discard(0, parse_card("3c")),
        Draw(1, Source.DISCARD, parse_card("3c")),
    ]
    assert game.seen_by(0)[0].card == parse_card("12e")
    assert game.seen_by(1)[0].card is None and game.seen_by(None)[0].card is None
    assert game.seen_by(0)[2].card == parse_card("3c")  # a card taken from the pile was face up
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.log[0].seat = 2  # type: ignore[misc]


@pytest.mark.parametrize(
    "move",
    [
        Draw(1, Source.STOCK, parse_card("7b")),
        Draw(0, Source.DISCARD, parse_card("*")),
        Discard(2, parse_card("12e")),
        Close(0, parse_card("1o")),
        Reshuffle(parse_card("4c"), 21),
        Reshuffle(None, 30),
        Void(1, VoidReason.RESHUFFLES),
        Void(None, VoidReason.ABANDONED),
    ],
)
def test_moves_round_trip_through_json(move):
    assert move_from_json(move_to_json(move), classic.pack) == move


def test_deals_stored_before_moves_were_typed_still_load():
    old = fixed(GERMAN, "", "4c").to_dict()
    old.pop("void")
    old["exhausted"] = True
    old["log"] = [
        {"seat": 0, "action": "draw", "source": "stock", "card": None},
        {"seat": 0, "action": "discard", "card": "3c"},
        {"seat": 1, "action": "draw", "source": "discard", "card": "3c"},
        {"action": "reshuffle", "kept": "4c"},
        {"seat": 1, "action": "exhausted"},
    ]
    game = HandGame.from_dict(old, classic)
    assert game.log == [
        Draw(0, Source.STOCK, None),
        Discard(0, parse_card("3c")),
        Draw(1, Source.DISCARD, parse_card("3c")),
        Reshuffle(parse_card("4c"), 0),
        Void(1, VoidReason.EMPTY),
    ]
    assert game.phase == Phase.OVER and game.void is not None


def test_phase_follows_from_the_cards_held():
    game = fixed(GERMAN, "1b 12e", "4c")
    assert game.phase == Phase.DRAW
    game.draw(0, "stock", random.Random(0))
    assert game.phase == Phase.DISCARD
    with pytest.raises(AttributeError):
        game.phase = Phase.OVER  # type: ignore[misc]


def test_state_round_trips_through_json():
    game = HandGame.deal(get_rules(jokers=2), 3, 0, random.Random(9))
    game.draw(game.turn, "stock", random.Random(1))
    again = HandGame.from_dict(game.to_dict(), game.rules)
    assert again.to_dict() == game.to_dict()


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    preset=st.sampled_from(["classic", "fournier", "sweden", "italy"]),
    jokers=st.sampled_from([0, 2]),
)
def test_random_legal_play_keeps_every_invariant(seed, players, preset, jokers):
    rules = get_rules(preset, jokers=jokers)
    rng = random.Random(seed)
    game = HandGame.deal(rules, players, rng.randrange(players), rng)
    pack = full_pack(rules, players)
    for move in range(300):
        if game.phase == Phase.OVER:
            break
        seat = game.turn
        source = rng.choice(["stock", "discard"]) if game.discards else "stock"
        if game.draw(seat, source, rng) is None:
            break
        assert len(game.hands[seat]) == 8
        card = rng.choice(game.hands[seat])
        if game.can_close(seat, card) and rng.random() < 0.5:
            result = game.close(seat, card)
            assert result.legal and len(result.results) == players
        else:
            game.discard(seat, card)
        assert Counter(game.cards_in_play()) == pack
        if game.phase != Phase.OVER:  # after a close the closer still holds the card put face down
            assert all(len(h) == 7 for h in game.hands)
        # The state holds the whole move log: a round trip at every move made
        # the test quadratic (two minutes of the suite); every fiftieth, and the last.
        if move % 50 == 0:
            assert HandGame.from_dict(game.to_dict(), rules).to_dict() == game.to_dict()
    assert HandGame.from_dict(game.to_dict(), rules).to_dict() == game.to_dict()


class _NeverCloses(SimpleBot):
    def choose_draw(self, view):
        return "stock"

    def choose_end(self, view):
        return view.hand[-1], False


def test_play_hand_voids_a_hand_nobody_closes_through_the_state_machine():
    """Runners with a turn limit end the hand with ``abandon()``; with
    ``max_reshuffles`` the hand ends void on its own first."""
    game = HandGame.deal(classic, 3, 0, random.Random(4))
    assert play_hand(game, [_NeverCloses()] * 3, random.Random(4)) is None
    assert game.void == Void(None, VoidReason.ABANDONED) and game.phase == Phase.OVER
    limited = HandGame.deal(get_rules(max_reshuffles=2), 3, 0, random.Random(4))
    assert play_hand(limited, [_NeverCloses()] * 3, random.Random(4)) is None
    assert limited.void is not None and limited.void.reason == VoidReason.RESHUFFLES and limited.reshuffles == 2
