"""SPEC §5: showing and laying off after a close."""

import pytest

from companion.rules import CardError, ChinchonError, CountError, get_rules, parse_cards, settle_hand

classic = get_rules("classic")


def settle(hands, rules=classic, **kw):
    return settle_hand([parse_cards(h, rules.pack) for h in hands], rules, **kw)


GERMAN = ["11c 11e 11b 5o 6o 7o 3c 12e", "5b 5c 5e 4o 12o 2c 1c", "2e 3b 6c 7b 10e 12c 12b"]


def test_german_seed_anna_3_ben_lays_off_four_of_oros_13_carla_46():
    result = settle(GERMAN)
    assert result.points == [3, 13, 46]
    ben = result.results[1]
    assert [(str(x.card), x.player) for x in ben.layoffs] == [("4o", 0)]
    run = result.results[0].melds[ben.layoffs[0].meld]
    assert [str(c) for c in run] == ["5o", "6o", "7o"]


def test_play_order_wraps_round_after_the_closer():
    result = settle([GERMAN[1], GERMAN[2], GERMAN[0]], closer=2)
    assert result.points == [13, 46, 3]


def test_layoff_chain_four_opens_room_for_three_and_the_next_player_lays_two():
    result = settle(["5o 6o 7o 1c 1e 1b 2c 12e", "4o 3o 12b 11b 10c 2e", "2o 11c 11o 3e 6c 4b 7e"])
    assert result.points == [2, 29, 38]
    assert [str(x.card) for x in result.results[1].layoffs] == ["4o", "3o"]  # in an order that stays valid
    assert [str(x.card) for x in result.results[2].layoffs] == ["2o"]


def test_layoff_onto_a_non_closer_meld():
    result = settle(["1c 2c 3c 10e 11e 12e 2b 7o", "6o 6c 6e 12b 11b 5b 3o", "6b 10o 11o 1b 5e 3e 2o"])
    assert result.points == [2, 27, 28]
    assert [(str(x.card), x.player) for x in result.results[2].layoffs] == [("6b", 1)]


def test_closer_only_variant_refuses_layoffs_onto_other_players():
    rules = get_rules(layoffs="closer_only")
    result = settle(["1c 2c 3c 10e 11e 12e 2b 7o", "6o 6c 6e 12b 11b 5b 3o", "6b 10o 11o 1b 5e 3e 2o"], rules)
    assert result.points == [2, 27, 34]


def test_nobody_lays_off_onto_a_full_close():
    hands = ["1c 2c 3c 4c 10e 11e 12e 7o", "5c 6o 6c 6e 12b 11b 3o"]
    assert settle(hands).points == [-10, 27]
    assert settle(hands, get_rules(layoff_onto_full_close=True)).points == [-10, 22]


def test_swedish_rules_allow_no_layoffs():
    assert settle(["5o 6o 7o 12c 12e 12b 8b 4o", "8o 9o 3c 3e 3b 1e 2e"], get_rules("sweden")).points == [-10, 20]


def test_irregular_hands_of_eight_and_six_score_normally():
    result = settle(["11c 11e 11b 5o 6o 7o 3c 12e", "5b 5c 5e 4o 12o 2c 1c 4e", "2e 3b 6c 7b 10e 12c"])
    assert result.points == [3, 17, 36]


ITALIAN = [
    "5o 6o 7o 1c 1e 1b 2c 12e",
    "4o 3o 12b 11b 10c 2e 7c",
    "2b 11c 11o 3e 6c 4b 7e",
    "1o 12o 10b 5c 7b 6b 4c",
    "3c 4e 5e 6e 1c 10o 12b",
]


def test_italian_two_decks_one_card_per_run_each_turn():
    assert settle(ITALIAN, get_rules("italy")).points == [2, 39, 40, 19, 14]


def test_italian_one_deck_no_run_limit():
    assert settle(ITALIAN[:4], get_rules("italy")).points == [2, 36, 40, 19]


def test_joker_run_bonus_and_no_layoffs_onto_it():
    assert settle(["* 2o 3o 4o 5o 6o 7o 12b", "10o 1o 3b 4b 5b 10c 11e"], get_rules(jokers=2)).points == [-50, 26]


def test_chinchon_wins_the_match_and_the_others_still_score():
    result = settle(["1o 2o 3o 4o 5o 6o 7o 12b", "10o 1c 3b 4b 5b 10c 11e"])
    assert result.wins_match and result.points == [-10, 26]


def test_an_illegal_close_settles_nothing():
    result = settle(["1o 2o 3o 5c 5e 5o 6c 12b", "10o 1c 3b 4b 5b 10c 11e"])
    assert not result.legal and result.results is None
    assert result.verdict.why.code == "one_card_high" and result.verdict.why.params["over"] == 2


def test_tie_break_leaves_later_players_the_highest_total():
    # Player 1 scores 15 either with the set of threes or the run 2e-3e-4e; the
    # run would let player 2 lay off 1e, so the set is shown.
    result = settle(["5b 7o 2o 7c 4b 7b 3b 1c", "3o 4e 1o 3e 2e 3c 10b", "5c 4o 1e 10c 12e 11e 1b"])
    assert result.points == [1, 15, 38]
    assert result.results[1].alternatives == 2
    other = settle(["5b 7o 2o 7c 4b 7b 3b 1c", "3o 4e 1o 3e 2e 3c 10b", "5c 4o 1e 10c 12e 11e 1b"], choices={1: 1})
    assert other.points == [1, 15, 37]


def test_two_decks_duplicates_lay_off_onto_a_run_and_a_set():
    rules = get_rules(decks=2)
    result = settle(["5o 6o 7o 5c 5e 5b 1c 12e", "5o 4o 3c 3e 3b 10b 11b", "4o 3o 2b 12c 12b 6b 6e"], rules)
    assert result.points == [1, 17, 38]


def test_a_card_laid_off_may_take_the_place_a_joker_held():
    # Closer shows 4o * 6o (joker as 5o); 5o laid off moves the joker to 3o or 7o.
    rules = get_rules(jokers=1)
    result = settle(["4o * 6o 1c 1e 1b 2c 12e", "5o 11c 11e 12b 2e 3b 4c"], rules)
    assert [str(x.card) for x in result.results[1].layoffs] == ["5o"]


@pytest.mark.parametrize(
    "hands,kw,field",
    [
        (["11c 11e 11b 5o 6o 7o", "5b 5c 5e 4o 12o 2c 1c"], {}, "hands[0]"),
        (["11c 11e 11b 5o 6o 7o 3c 12e", "5b 5c 5e 4o 12o"], {}, "hands[1]"),
        (["11c 11e 11b 5o 6o 7o 3c 12e", "5b 5c 5e 4o 12o 2c 5o"], {}, "hands[1][6]"),
        (["11c 11e 11b 5o 6o 7o 3c 12e"], {}, "hands"),
        (["11c 11e 11b 5o 6o 7o 3c 12e", "5b 5c 5e 4o 12o 2c 1c"], {"closer": 2}, "closer"),
    ],
)
def test_bad_hands_name_their_field(hands, kw, field):
    with pytest.raises((CardError, CountError, ChinchonError)) as error:
        settle(hands, **kw)
    assert error.value.field == field
