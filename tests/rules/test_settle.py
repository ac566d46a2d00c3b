"""SPEC §5: showing and laying off after a close."""

import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from companion.rules import JOKER, CardError, ChinchonError, CountError, get_rules, parse_cards, settle_hand

classic = get_rules("classic")
# CHINCHON_EXAMPLES=5000 for a long soak; the default keeps the suite quick.
EXAMPLES = int(os.environ.get("CHINCHON_EXAMPLES", "120"))


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
    # run would let player 2 lay off 1e, so the set is shown, and the run is no
    # alternative: it would change player 2's points.
    hands = ["5b 7o 2o 7c 4b 7b 3b 1c", "3o 4e 1o 3e 2e 3c 10b", "5c 4o 1e 10c 12e 11e 1b"]
    result = settle(hands)
    assert result.points == [1, 15, 38]
    assert result.results[1].alternatives == 1
    assert settle(hands, choices={1: 1}).points == [1, 15, 38]


# Found by hand in classic: Ben closes, Carla may keep her four tens or lay the
# 10 of copas off onto Ben's copas run (25 points either way); laid off, it lets
# Ana lay off her caballo de copas, Ana 18 → 9.
CARLAS_TENS = ["1b 2b 3b 4b 11c 4e 5o", "5c 6c 7c 1o 2o 3o 1e 12b", "10o 10e 10b 10c 12e 6b 11o"]


def test_spec_5_carla_keeps_her_ten_of_copas_and_offers_no_arrangement_that_moves_anas_points():
    result = settle(CARLAS_TENS, closer=1)
    assert result.points == [18, 1, 25]
    carla = result.results[2]
    assert carla.alternatives == 1 and not carla.layoffs and len(carla.melds[0]) == 4
    for k in range(3):  # any choice, even one out of range, is the default
        assert settle(CARLAS_TENS, closer=1, choices={2: k}).points == [18, 1, 25]


def test_spec_5_choice_zero_is_the_default_settlement():
    # Two jokers: the closer's first candidate is not the one the engine picks.
    hands = ["6o 12b 6b 7o * * 2b 10b", "10o 4b 11b 2e 11o 12e 6c", "5o 1e 12c 10c 1b 3c 4o", "11e 5c 7e 5b 11c 2c 7b"]
    rules = get_rules(jokers=2)
    default = settle(hands, rules)
    assert default.points == [2, 33, 32, 32]
    assert settle(hands, rules, choices={0: 0}).results == default.results


def test_spec_5_an_alternative_that_is_offered_keeps_every_players_points():
    # Two decks: among player 3's equally good arrangements, one lets player 4
    # lay off more; only those leaving player 4 the same 34 are offered.
    hands = [
        "5b 6o 4e 7b 6b 6e 11e 6c",
        "2c 11o 12b 2o 7e 11b 10b",
        "10o 11b 11c 2e 12e 2o 3e",
        "* 1b 4o 1b 10e 4b 3b",
        "1e 7c 7c 4b 2c 5o 10o",
    ]
    rules = get_rules(decks=2, jokers=2)
    default = settle(hands, rules)
    assert default.points == [4, 20, 43, 13, 34]
    for player, r in enumerate(default.results):
        for k in range(r.alternatives):
            assert settle(hands, rules, choices={player: k}).points == default.points


SETTLE_CONFIGS = {
    "classic": {},
    "classic+2 jokers": {"jokers": 2},
    "two decks+2 jokers": {"decks": 2, "jokers": 2},
}


@st.composite
def deals(draw, options):
    """A legal close and the others' hands, from the whole pack or (half the
    time) a window of five ranks, where lay-offs and ties are dense."""
    rules = get_rules("classic", **options, close_rule="points", close_max=40)
    players = draw(st.integers(2, 5))
    cards = rules.pack.cards() * rules.copies(players) + [JOKER] * rules.jokers
    if draw(st.booleans()):
        low = draw(st.integers(0, len(rules.pack.ranks) - 5))
        window = set(rules.pack.ranks[low : low + 5])
        dense = [c for c in cards if c.is_joker or c.rank in window]
        cards = dense if len(dense) >= 7 * players + 1 else cards
    cards = draw(st.permutations(cards))[: 7 * players + 1]
    hands = [list(cards[i * 7 : i * 7 + 7]) for i in range(players)]
    hands[0].append(cards[7 * players])
    return rules, hands, draw(st.integers(0, players - 1))


@pytest.mark.parametrize("name", list(SETTLE_CONFIGS))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_spec_5_every_offered_alternative_leaves_every_players_points_as_the_default(name, data):
    rules, hands, closer = data.draw(deals(SETTLE_CONFIGS[name]))
    hands = hands[-closer:] + hands[:-closer] if closer else hands  # the closer's 8 cards at ``closer``
    default = settle_hand(hands, rules, closer)
    assume(default.legal)
    assert settle_hand(hands, rules, closer, choices=dict.fromkeys(range(len(hands)), 0)).results == default.results
    for player, r in enumerate(default.results):
        for k in range(r.alternatives):
            other = settle_hand(hands, rules, closer, choices={player: k})
            assert other.points == default.points, (player, k, hands, closer)
            assert other.results[player].alternatives == r.alternatives


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
