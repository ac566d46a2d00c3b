"""SPEC §4: closing."""

import pytest

from companion.rules import CardError, CountError, check_close, get_rules, parse_card, parse_cards

classic = get_rules("classic")


def close(text, rules=classic, **kw):
    return check_close(parse_cards(text, rules.pack), rules, **kw)


def test_german_seed_anna_closes_with_three_points():
    v = close("11c 11e 11b 5o 6o 7o 3c 12e")
    assert (v.legal, str(v.discard), v.score, v.chinchon, v.wins_match) == (True, "12e", 3, False, False)
    assert [str(c) for c in v.deadwood] == ["3c"]
    assert sorted(" ".join(map(str, m)) for m in v.melds) == ["11c 11e 11b", "5o 6o 7o"]


def test_swedish_seed_lone_eight_cannot_close_with_at_most_five():
    v = close("5o 6o 7o 12c 12e 12b 8b", get_rules("sweden"))
    assert not v.legal and v.score is None
    assert v.why.code == "points_high" and v.why.params == {"points": 8, "max": 5, "over": 3}


@pytest.mark.parametrize("drawn", ["12o", "4o", "8o"])
def test_swedish_seed_drawing_the_right_card_closes_all_combined(drawn):
    v = close(f"5o 6o 7o 12c 12e 12b 8b {drawn}", get_rules("sweden"))
    assert (v.legal, v.score) == (True, -10)


def test_one_card_rule_two_loose_cards_cannot_close_even_worth_three():
    v = close("2o 3o 4o 5o 6o 1c 2e 12b")
    assert not v.legal and v.why.code == "one_card_many"
    assert v.why.params == {"count": 2, "points": 3, "max": 4, "too_many": 1}


def test_points_rule_fournier_closes_with_three_loose_points():
    v = close("2o 3o 4o 5o 6o 1c 2e 12b", get_rules("fournier"))
    assert (v.legal, v.score) == (True, 3)


def test_one_card_rule_a_lone_six_is_two_over_four():
    v = close("1o 2o 3o 5c 5e 5b 6c 12b")
    assert not v.legal and v.why.code == "one_card_high"
    assert v.why.params == {"points": 6, "max": 4, "over": 2}


@pytest.mark.parametrize(
    "text,rules,code",
    [
        ("1o 2o 3o 5c 5e 5b 6c 12b", classic, "one_card_high"),
        ("2o 3o 4o 5o 6o 1c 2e 12b", classic, "one_card_many"),
        ("5o 6o 7o 12c 12e 12b 8b", get_rules("sweden"), "points_high"),
        ("11c 11e 11b 5o 6o 7o 3c 12e", classic, "first_round"),
    ],
)
def test_every_refusal_has_a_code_whose_sentence_takes_its_parameters(text, rules, code):
    from companion.rules.close import REASON_TEXT

    v = close(text, rules, first_round=code == "first_round")
    assert v.why.code == code
    assert v.reason == REASON_TEXT[code].format(**v.why.params)


def test_genuine_chinchon_wins_the_match():
    v = close("1o 2o 3o 4o 5o 6o 7o 12b")
    assert (v.legal, v.score, v.chinchon, v.wins_match) == (True, -10, True, True)


def test_seven_run_with_one_joker_scores_minus_fifty():
    v = close("* 2o 3o 4o 5o 6o 7o 12b", get_rules(jokers=2))
    assert (v.score, v.chinchon, v.wins_match) == (-50, False, False)


def test_seven_run_with_two_jokers_scores_minus_twenty_five():
    assert close("* * 2o 3o 5o 6o 7o 12b", get_rules(jokers=2)).score == -25


def test_discarding_the_joker_keeps_a_genuine_chinchon():
    v = close("1o 2o 3o 4o 5o 6o 7o *", get_rules(jokers=2))
    assert (str(v.discard), v.wins_match) == ("*", True)


def test_house_rule_chinchon_minus_hundred_and_the_match_goes_on():
    v = close("1o 2o 3o 4o 5o 6o 7o 12b", get_rules(chinchon=-100))
    assert (v.score, v.chinchon, v.wins_match) == (-100, True, False)


def test_house_rule_one_wild_per_meld_forbids_the_two_joker_run():
    v = close("* * 2o 3o 5o 6o 7o 12b", get_rules(jokers=2, max_wilds_per_meld=1))
    assert (v.legal, v.score) == (True, -10)
    assert all(sum(1 for c in m if c.is_joker) <= 1 for m in v.melds)


def test_italian_seven_run_is_only_all_combined():
    v = close("1o 2o 3o 4o 5o 6o 7o 12b", get_rules("italy"))
    assert (v.score, v.chinchon, v.wins_match) == (-10, True, False)


def test_first_round_close_forbidden_in_classic_allowed_in_italy():
    hand = "11c 11e 11b 5o 6o 7o 3c 12e"
    v = close(hand, first_round=True)
    assert not v.legal and v.why.code == "first_round"
    assert close(hand, get_rules("italy"), first_round=True).score == 3


def test_a_named_discard_is_respected():
    v = close("11c 11e 11b 5o 6o 7o 3c 12e", discard=parse_card("3c"))
    assert not v.legal and str(v.discard) == "3c"
    assert [str(c) for c in v.deadwood] == ["12e"]


def test_a_loose_joker_joins_a_meld_instead():
    assert close("1o 2o 3o 5c 5e 5b * 12b", get_rules(jokers=2)).score == -10


def test_wild_ace_standing_for_itself_keeps_the_chinchon_genuine():
    v = close("1o 2o 3o 4o 5o 6o 7o 12b", get_rules(wild_cards=["1o"]))
    assert v.wins_match


def test_seven_kept_cards_with_two_decks():
    v = close("5o 5o 5c 5e 6o 7o 1b")
    assert (v.legal, v.score, v.discard) == (True, 1, None)


def test_close_needs_seven_or_eight_cards_and_a_discard_among_them():
    with pytest.raises(CountError) as error:
        close("11c 11e 11b 5o 6o 7o")
    assert error.value.field == "cards"
    with pytest.raises(CardError) as error:
        close("11c 11e 11b 5o 6o 7o 3c 12e", discard=parse_card("1b"))
    assert error.value.field == "discard"
    with pytest.raises(CountError) as error:
        close("11c 11e 11b 5o 6o 7o 3c", discard=parse_card("3c"))
    assert error.value.field == "discard"


def test_three_jokers_when_the_pack_has_two():
    with pytest.raises(CardError) as error:
        close("* * * 1o 2o 3o 5c 6c", get_rules(jokers=2))
    assert error.value.field == "cards[2]"


def test_not_legal_shows_the_fewest_loose_points():
    v = close("1o 2o 3o 5c 5e 5b 6c 12b")
    assert v.dead_points == 6 and [str(c) for c in v.deadwood] == ["6c"] and str(v.discard) == "12b"


def test_limits_for_points_typed_by_hand():
    from companion.rules.close import chinchon_score, max_hand_points, possible_closer_scores

    assert max_hand_points(get_rules("classic", decks=1)) == 4 * 10 + 4 * 9  # four reyes and four caballos
    assert chinchon_score(classic) == -10 and chinchon_score(get_rules(chinchon=-100)) == -100
    assert sorted(possible_closer_scores(classic)) == [-10, 1, 2, 3, 4]
