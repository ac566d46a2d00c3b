"""Digital play, engine side: every phase and every refused action."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import JOKER, get_rules, parse_card, parse_cards
from companion.rules.game import HandGame, Phase, PlayError

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


def fixed(hands, stock, discards, turn=0, rules=classic, turns_taken=10):
    return HandGame(
        rules=rules,
        dealer=len(hands) - 1,
        hands=[parse_cards(h) for h in hands],
        stock=parse_cards(stock),
        discards=parse_cards(discards),
        turn=turn,
        turns_taken=turns_taken,
    )


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
    for _ in range(300):
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
        assert HandGame.from_dict(game.to_dict(), rules).to_dict() == game.to_dict()
